import os

SMTP_HOST = os.environ.get("NOTES_SMTP_HOST", "localhost")
SMTP_USER = os.environ.get("NOTES_SMTP_USER", "notes")
SMTP_PASSWORD = os.environ.get("NOTES_SMTP_PASSWORD", "")

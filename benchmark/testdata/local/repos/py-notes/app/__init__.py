"""Notes: a tiny note-taking service backed by SQLite."""

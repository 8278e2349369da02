import sqlite3
from contextlib import closing

DB_PATH = "notes.db"


def connect(path=DB_PATH):
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    return conn


def init(conn):
    with conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS notes ("
            " id INTEGER PRIMARY KEY, owner TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL)"
        )


def add_note(conn, owner, title, body):
    with conn:
        cur = conn.execute(
            "INSERT INTO notes (owner, title, body) VALUES (?, ?, ?)", (owner, title, body)
        )
    return cur.lastrowid


def notes_of(conn, owner):
    with closing(conn.cursor()) as cur:
        cur.execute("SELECT id, title, body FROM notes WHERE owner = ? ORDER BY id", (owner,))
        return [dict(row) for row in cur.fetchall()]

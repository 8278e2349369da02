"""User directory loaded from users.json."""
import json

_users = {}


def load(path="users.json"):
    with open(path, encoding="utf-8") as f:
        for user in json.load(f):
            _users[user["name"]] = user


def find(name):
    """Return the user called name, or None."""
    return _users.get(name)

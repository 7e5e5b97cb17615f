"""The store of ``brandubh host``: one SQLite file in write-ahead-log mode.

Each game is one row: its id, when it was made and finished, the client
that made it, and its record (a JSON object: the game text, the seats, the
clocks, any offer waiting). Every change to a game rewrites its row in one
transaction, committed before the change is answered or sent to anyone,
with ``synchronous=FULL``: a server killed at any moment has lost nothing it
told anyone about.

>>> store = Store(':memory:')
>>> store.save('0123456789ab', {'text': 'variant brandubh\\nmoves\\n'}, client='local', finished=None)
>>> store.load_active()
[('0123456789ab', {'text': 'variant brandubh\\nmoves\\n'})]
>>> store.save('0123456789ab', {'text': 'x'}, client='local', finished=12.5)
>>> store.load_active(), store.finished()[0][0]
([], '0123456789ab')
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from typing import Any, Optional

__all__ = ["Store"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    finished REAL,
    client TEXT NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_finished ON games (finished);
"""


class Store:
    """The games kept in the SQLite file at ``path`` (made when missing)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def save(self, game_id: str, record: dict[str, Any], *, client: str, finished: Optional[float]) -> None:
        """Write a game's whole record, committed when this returns."""
        data = json.dumps(record, separators=(",", ":"))
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, created, finished, client, record) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET finished = excluded.finished, record = excluded.record",
                (game_id, time.time(), finished, client, data))

    def load_active(self) -> list[tuple[str, dict[str, Any]]]:
        """The games not finished, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT id, record FROM games WHERE finished IS NULL ORDER BY created").fetchall()
        return [(row[0], json.loads(row[1])) for row in rows]

    def load(self, game_id: str) -> Optional[dict[str, Any]]:
        """One game's record, or None."""
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    def finished(self, limit: int = 100) -> list[tuple[str, float, dict[str, Any]]]:
        """The games finished last, newest first: id, when, record."""
        with self._lock:
            rows = self._db.execute("SELECT id, finished, record FROM games WHERE finished IS NOT NULL "
                                    "ORDER BY finished DESC LIMIT ?", (limit,)).fetchall()
        return [(row[0], row[1], json.loads(row[2])) for row in rows]

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()

"""The store of ``brandubh host``: one SQLite file in write-ahead-log mode.

Each game is one row: its id, when it was made and finished, the client
that made it, and its record (a JSON object, as text: the game text, the
seats, the clocks, any offer waiting). Every change to a game rewrites its
row in one transaction, committed before the change is answered or sent to
anyone, with ``synchronous=FULL``: a server killed at any moment has lost
nothing it told anyone about. A write that fails (a full disk) is a
:class:`StoreError`, and the row is as it was.

One server at a time: a :class:`Store` holds an exclusive lock on a file
beside the store (``FILE.lock``, holding its process's id) for as long as it
is open, and a second one, in this process or another, is refused with a
sentence naming the process that holds it. SQLite's own locking would let
both open the file, each then playing games the other never sees. And a
store that cannot be written (a read-only file or disk) is refused when it
is opened, by a write, not at the first move.

The schema is versioned (SQLite's ``user_version``): a store of an older
version is brought up to date when it is opened, one :data:`MIGRATIONS`
step a transaction, and one written by a newer brandubh is refused with a
sentence. Besides the games it holds the club (accounts, sessions, the
players of rated games, ratings and their history, seeks, tournaments, the
accounts' rated puzzle attempts and the puzzles' ratings).

A record the server cannot read is never deleted: it is *set aside*
(:meth:`Store.set_aside`, the fault kept beside it) and no longer listed.

>>> store = Store(':memory:')
>>> store.save('0123456789ab', {'text': 'variant brandubh\\nmoves\\n'}, client='local', finished=None)
>>> store.active()
[('0123456789ab', '{"text":"variant brandubh\\\\nmoves\\\\n"}')]
>>> store.save('0123456789ab', {'text': 'x'}, client='local', finished=12.5)
>>> store.active(), store.finished()[0][0]
([], '0123456789ab')
>>> store.set_aside('0123456789ab', 'its record is not JSON')
>>> store.finished(), store.load('0123456789ab'), store.aside('0123456789ab')
([], None, 'its record is not JSON')
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from typing import Any, Callable, Iterator, Optional

from ..errors import BrandubhError

__all__ = ["Store", "StoreError", "MIGRATIONS", "SCHEMA_VERSION", "migrate"]

# The first release's tables, as it made them: every later change is a migration below.
_BASE = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    finished REAL,
    client TEXT NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_finished ON games (finished);
CREATE TABLE IF NOT EXISTS opened (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    pid INTEGER NOT NULL,
    at REAL NOT NULL
);
"""

# The club: accounts (a password's scrypt hash; a bot's token's SHA-256),
# sessions (a cookie's SHA-256), the players of a game who have accounts,
# ratings per pool (rule set and speed), each rating's history, open seeks.
_CLUB = (
    "CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, "
    "kind TEXT NOT NULL DEFAULT 'person', password TEXT, bot_token TEXT, level INTEGER, created REAL NOT NULL, "
    "address TEXT NOT NULL DEFAULT '')",
    "CREATE INDEX accounts_bot ON accounts (bot_token)",
    "CREATE TABLE sessions (token TEXT PRIMARY KEY, account INTEGER NOT NULL REFERENCES accounts (id), "
    "created REAL NOT NULL, address TEXT NOT NULL DEFAULT '')",
    "CREATE INDEX sessions_account ON sessions (account)",
    "CREATE TABLE players (game TEXT NOT NULL, seat TEXT NOT NULL, account INTEGER NOT NULL REFERENCES accounts (id), "
    "pool TEXT, address TEXT NOT NULL DEFAULT '', PRIMARY KEY (game, seat))",
    "CREATE INDEX players_account ON players (account)",
    "CREATE TABLE ratings (account INTEGER NOT NULL REFERENCES accounts (id), pool TEXT NOT NULL, "
    "rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL, "
    "PRIMARY KEY (account, pool))",
    "CREATE TABLE history (account INTEGER NOT NULL REFERENCES accounts (id), pool TEXT NOT NULL, "
    "game TEXT NOT NULL, at REAL NOT NULL, rating REAL NOT NULL, deviation REAL NOT NULL, "
    "PRIMARY KEY (account, game))",
    "CREATE TABLE seeks (id TEXT PRIMARY KEY, account INTEGER NOT NULL REFERENCES accounts (id), "
    "created REAL NOT NULL, address TEXT NOT NULL DEFAULT '', fields TEXT NOT NULL)",
)


# Tournaments: each a row (its fields, players and state as JSON), and its games by round.
_TOURNAMENTS = (
    "CREATE TABLE tournaments (id TEXT PRIMARY KEY, created REAL NOT NULL, account INTEGER NOT NULL "
    "REFERENCES accounts (id), state TEXT NOT NULL, data TEXT NOT NULL)",
    "CREATE TABLE tournament_games (tournament TEXT NOT NULL REFERENCES tournaments (id), game TEXT NOT NULL, "
    "round INTEGER NOT NULL, PRIMARY KEY (tournament, game))",
)


# Puzzles: each account's rated attempts (one a puzzle, with the account's rating after it: the
# last is its puzzle rating now), and each puzzle's own rating as the club's solves moved it.
_PUZZLES = (
    "CREATE TABLE puzzle_attempts (account INTEGER NOT NULL REFERENCES accounts (id), puzzle TEXT NOT NULL, "
    "at REAL NOT NULL, score REAL NOT NULL, rating REAL NOT NULL, deviation REAL NOT NULL, "
    "volatility REAL NOT NULL, PRIMARY KEY (account, puzzle))",
    "CREATE TABLE puzzle_ratings (puzzle TEXT PRIMARY KEY, rating REAL NOT NULL, deviation REAL NOT NULL, "
    "volatility REAL NOT NULL, attempts INTEGER NOT NULL)",
)


def _add_aside(db: sqlite3.Connection) -> None:
    """Version 1: a column marking the records set aside (the first release had none)."""
    if "aside" not in [row[1] for row in db.execute("PRAGMA table_info(games)")]:
        db.execute("ALTER TABLE games ADD COLUMN aside TEXT")


def _add_club(db: sqlite3.Connection) -> None:
    """Version 2: accounts, sessions, players, ratings, their history, seeks."""
    for statement in _CLUB:
        db.execute(statement)


def _add_tournaments(db: sqlite3.Connection) -> None:
    """Version 3: tournaments and their games."""
    for statement in _TOURNAMENTS:
        db.execute(statement)


def _add_puzzles(db: sqlite3.Connection) -> None:
    """Version 4: the accounts' rated puzzle attempts and the puzzles' ratings."""
    for statement in _PUZZLES:
        db.execute(statement)


#: The migrations, in order: the store's schema version (SQLite's
#: ``user_version``) is how many of them it has had. Version 0 is a store
#: made before versions were kept (with or without the ``aside`` column).
MIGRATIONS: tuple[tuple[str, Callable[[sqlite3.Connection], None]], ...] = (
    ("records set aside", _add_aside),
    ("accounts, sessions, ratings and seeks", _add_club),
    ("tournaments", _add_tournaments),
    ("puzzle ratings", _add_puzzles),
)
#: The schema version this code writes, and the newest it reads.
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(db: sqlite3.Connection, upto: int = SCHEMA_VERSION) -> int:
    """Bring the store open on ``db`` (in autocommit mode) to schema version
    ``upto``, one migration a transaction, each with its version number
    (a failure rolls that one back whole, and is raised); the version it
    had. A store newer than this code is a :class:`StoreError`."""
    db.executescript(_BASE)
    had = int(db.execute("PRAGMA user_version").fetchone()[0])
    if had > SCHEMA_VERSION:
        raise StoreError(f"its schema is version {had}, written by a newer brandubh; this one reads up to version "
                         f"{SCHEMA_VERSION}: run the newer one, or give this one another --db")
    for version in range(had + 1, upto + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[version - 1][1](db)
            db.execute(f"PRAGMA user_version = {version}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        # Each migration's pages into the store itself, and the write-ahead log emptied: the log's
        # room is for the games (a disk nearly full has the same room after a migration as before),
        # and it never holds more than one migration (all of them at once outgrew 128 KiB).
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return had


class StoreError(BrandubhError):
    """The store cannot be used (another server holds it, it cannot be
    written), or a change could not be written to it: a sentence saying
    which and why; ``reason`` is the why alone (``database or disk is
    full``)."""

    def __init__(self, message: str, reason: Optional[str] = None) -> None:
        super().__init__(message)
        self.reason = reason if reason is not None else message


def _hold(path: str) -> Any:
    """Take the exclusive lock beside the store at ``path`` and write this
    process's id in it: the lock file, open (its lock goes with it when it
    is closed, or when the process ends however it ends). A
    :class:`StoreError` when another holds it, naming that process."""
    where = os.path.abspath(path)
    lock = where + ".lock"
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: SQLite's own locking only
        return None
    try:
        held = open(lock, "a+", encoding="ascii")
    except OSError as error:
        raise StoreError(f"the store {where} cannot be written: its lock file {lock} cannot be made "
                         f"({error.strerror or error})") from None
    try:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        held.seek(0)
        holder = held.read(32).strip()
        held.close()
        who = f"process {holder}" if holder.isdigit() else "a process that has not written its id yet"
        raise StoreError(f"the store {where} is in use by another brandubh host ({who}): stop that one first, "
                         "or give this one another --db") from None
    try:
        held.seek(0)
        held.truncate()
        held.write(f"{os.getpid()}\n")
        held.flush()
    except OSError as error:
        held.close()
        raise StoreError(f"the store {where} cannot be written: its lock file {lock} cannot be written "
                         f"({error.strerror or error})") from None
    return held


class Store:
    """The games kept in the SQLite file at ``path`` (made when missing),
    held by this object alone until :meth:`close`. A :class:`StoreError`
    when another holds it or it cannot be written."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._held = None if path == ":memory:" else _hold(path)
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        except sqlite3.Error as error:
            self._let_go()
            raise StoreError(f"the store {os.path.abspath(path)} cannot be opened: {error}") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self.migrated_from = migrate(self._db)
            # A write now, so that a store that cannot be written is refused before anything is played.
            self._db.execute("INSERT INTO opened (id, pid, at) VALUES (1, ?, ?) "
                             "ON CONFLICT(id) DO UPDATE SET pid = excluded.pid, at = excluded.at",
                             (os.getpid(), time.time()))
        except (sqlite3.Error, StoreError) as error:
            self._db.close()
            self._let_go()
            what = "cannot be read" if isinstance(error, StoreError) else "cannot be written"
            raise StoreError(f"the store {os.path.abspath(path)} {what}: {error}") from None

    def _let_go(self) -> None:
        if self._held is not None:
            self._held.close()
            self._held = None

    def _write(self, sql: str, values: tuple) -> None:
        """One statement that changes the store, committed when this
        returns; a :class:`StoreError` and nothing changed when it fails."""
        with self._lock:
            try:
                self._db.execute(sql, values)
            except sqlite3.Error as error:
                if self._db.in_transaction:   # SQLite rolls back a failed write itself, most often
                    try:
                        self._db.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                raise StoreError(f"could not write to the store ({error})", str(error)) from None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Several statements committed together when the block ends, under
        the store's lock: the connection to run them on. When one fails (a
        full disk) all are rolled back and the block is a
        :class:`StoreError`; an exception of the block's own rolls them
        back too, and passes."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                yield self._db
                self._db.execute("COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    try:
                        self._db.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                if isinstance(error, sqlite3.Error):
                    raise StoreError(f"could not write to the store ({error})", str(error)) from None
                raise

    def query(self, sql: str, values: tuple = ()) -> list[tuple]:
        """The rows a reading statement gives."""
        with self._lock:
            return self._db.execute(sql, values).fetchall()

    def save(self, game_id: str, record: dict[str, Any], *, client: str, finished: Optional[float],
             also: Optional[Callable[[sqlite3.Connection], None]] = None) -> None:
        """Write a game's whole record, committed when this returns; with
        ``also``, what it writes on the connection it is given (a rated
        game's new ratings) in the same transaction."""
        data = json.dumps(record, separators=(",", ":"))
        if also is not None:
            with self.transaction() as db:
                db.execute("INSERT INTO games (id, created, finished, client, record) VALUES (?, ?, ?, ?, ?) "
                           "ON CONFLICT(id) DO UPDATE SET finished = excluded.finished, record = excluded.record",
                           (game_id, time.time(), finished, client, data))
                also(db)
            return
        self._write("INSERT INTO games (id, created, finished, client, record) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT(id) DO UPDATE SET finished = excluded.finished, record = excluded.record",
                    (game_id, time.time(), finished, client, data))

    def set_aside(self, game_id: str, fault: str) -> None:
        """Keep a game's row as it is, but list it no more: its record
        cannot be read (``fault`` says why)."""
        self._write("UPDATE games SET aside = ? WHERE id = ?", (fault, game_id))

    def active(self) -> list[tuple[str, str]]:
        """The games not finished, oldest first: id, record (as text)."""
        with self._lock:
            return self._db.execute("SELECT id, record FROM games WHERE finished IS NULL AND aside IS NULL "
                                    "ORDER BY created").fetchall()

    def load(self, game_id: str) -> Optional[str]:
        """One game's record (as text), or None (none, or set aside)."""
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ? AND aside IS NULL", (game_id,)).fetchone()
        return None if row is None else row[0]

    def aside(self, game_id: str) -> Optional[str]:
        """Why a game was set aside, or None."""
        with self._lock:
            row = self._db.execute("SELECT aside FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else row[0]

    def all_aside(self) -> dict[str, str]:
        """Every game set aside: id to fault."""
        with self._lock:
            return dict(self._db.execute("SELECT id, aside FROM games WHERE aside IS NOT NULL ORDER BY created"))

    def finished(self, limit: int = 100) -> list[tuple[str, float, str]]:
        """The games finished last, newest first: id, when, record (as text)."""
        with self._lock:
            return self._db.execute("SELECT id, finished, record FROM games WHERE finished IS NOT NULL "
                                    "AND aside IS NULL ORDER BY finished DESC LIMIT ?", (limit,)).fetchall()

    def close(self) -> None:
        """Close the file, and let another server have it."""
        with self._lock:
            self._db.close()
            self._let_go()

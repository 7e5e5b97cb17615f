"""The accounts of a ``brandubh host`` club: names, passwords, sessions.

A password is kept as its scrypt hash (:func:`hashlib.scrypt`, the
standard library's memory-hard function: 16 MiB and some 50 ms a try at
the default cost, so a stolen store is slow to guess from, on graphics
cards too; argon2 would need argon2-cffi, and the core install is cffi
alone). A session is a random token (:mod:`secrets`, 32 bytes) in a cookie
(``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the page is served over
HTTPS), of which the store keeps only the SHA-256; a login always makes a
new one and ends the one the browser brought (no session fixation), and a
password change ends every other session of the account.

Failed logins are limited per name and per address (:data:`NAME_FAILURES`,
:data:`ADDRESS_FAILURES` in :data:`WINDOW` seconds): past either, a 429
whatever the password. A name nobody has is answered as a wrong password
is (the same sentence, the same hashing, the same limits), so a login says
nothing of which names exist; registering a name that is taken says so,
which is the one way to learn it.

>>> from .store import Store
>>> accounts = Accounts(Store(':memory:'), cost=2 ** 4)
>>> me = accounts.register('Tafl_Fan', 'a long secret', address='192.0.2.1')
>>> me.account.name, len(me.token) > 30
('Tafl_Fan', True)
>>> accounts.who(me.token).name
'Tafl_Fan'
>>> accounts.login('tafl_fan', 'wrong guess', address='192.0.2.1')
Traceback (most recent call last):
...
brandubh.serve.api.RequestError: that name and password do not match an account
>>> accounts.login('nobody_here', 'wrong guess', address='192.0.2.1')
Traceback (most recent call last):
...
brandubh.serve.api.RequestError: that name and password do not match an account
>>> accounts.logout(me.token); accounts.who(me.token) is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from typing import Any, NamedTuple, Optional

from ..errors import quote
from ..serve.api import RequestError
from .store import Store, StoreError

__all__ = ["Accounts", "Account", "LoggedIn", "hash_password", "check_password", "COOKIE", "SESSION_DAYS",
           "NAME_FAILURES", "ADDRESS_FAILURES", "WINDOW", "COST", "REGISTRATIONS"]

#: The session cookie's name.
COOKIE = "brandubh_session"
#: How long a session lasts, in days.
SESSION_DAYS = 30
#: Failed logins a name may have in :data:`WINDOW` seconds...
NAME_FAILURES = 5
#: ...and an address.
ADDRESS_FAILURES = 20
#: The window of the login limits, in seconds.
WINDOW = 900.0
#: scrypt's cost (its N): 2**14 with r 8 is 16 MiB of memory a hash.
COST = 2 ** 14
#: Accounts one address may register in :data:`WINDOW` seconds.
REGISTRATIONS = 5
_NAME = re.compile(r"[A-Za-z0-9_-]{2,24}")
_MIN_PASSWORD, _MAX_PASSWORD = 8, 256
_WRONG = "that name and password do not match an account"


def hash_password(password: str, cost: int = COST) -> str:
    """The text a password is kept as: ``scrypt$N$r$p$salt$hash`` (hex)."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=cost, r=8, p=1, maxmem=64 * 1024 * 1024,
                            dklen=32)
    return f"scrypt${cost}$8$1${salt.hex()}${digest.hex()}"


def check_password(password: str, kept: str) -> bool:
    """Whether ``password`` is the one :func:`hash_password` made ``kept``
    from (compared in constant time; False for a kept text out of shape)."""
    try:
        kind, n, r, p, salt, digest = kept.split("$")
        if kind != "scrypt":
            return False
        tried = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                               maxmem=64 * 1024 * 1024, dklen=len(digest) // 2)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(tried.hex(), digest)


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Account(NamedTuple):
    """An account: its number, its ``name`` as registered, its ``kind``
    (``person`` or ``bot``) and a bot's engine ``level`` (None: an outside
    program, or a person)."""

    id: int
    name: str
    kind: str
    level: Optional[int]


class LoggedIn(NamedTuple):
    """A session begun: the account, and the session's token (for the cookie)."""

    account: Account
    token: str


class Accounts:
    """The accounts in a :class:`~.store.Store`, with the login limits (kept
    in memory: a restart forgets them). ``cost``: scrypt's N (lower only in
    tests)."""

    def __init__(self, store: Store, *, cost: int = COST) -> None:
        self.store = store
        self.cost = cost
        self._lock = threading.Lock()
        self._failures: dict[str, list[float]] = {}   # "name:x" or "address:y" to the times of its failures
        # A hash to check a wrong name's password against, so that it costs what a real one does.
        self._decoy = hash_password(secrets.token_hex(8), cost)

    # -- the limits ---------------------------------------------------------------------------

    def _recent(self, key: str, now: float) -> list[float]:
        kept = [when for when in self._failures.get(key, ()) if now - when < WINDOW]
        if kept:
            self._failures[key] = kept
        else:
            self._failures.pop(key, None)
        return kept

    def _limit(self, keys: dict[str, int], what: str) -> None:
        now = time.monotonic()
        with self._lock:
            for key, most in keys.items():
                recent = self._recent(key, now)
                if len(recent) >= most:
                    wait = max(1, round((WINDOW - (now - recent[0])) / 60))
                    raise RequestError(f"too many {what} from here or for this name: try again in {wait} minute"
                                       f"{'s' if wait != 1 else ''}", 429)

    def _count(self, keys: dict[str, int]) -> None:
        now = time.monotonic()
        with self._lock:
            for key in keys:
                self._failures.setdefault(key, []).append(now)
            if len(self._failures) > 100_000:
                for key in list(self._failures):
                    self._recent(key, now)

    # -- reading --------------------------------------------------------------------------------

    def _row(self, where: str, value: Any) -> Optional[tuple]:
        rows = self.store.query(f"SELECT id, name, kind, level, password FROM accounts WHERE {where}", (value,))
        return rows[0] if rows else None

    def named(self, name: str) -> Optional[Account]:
        """The account with this name (in any case), or None."""
        row = self._row("name = ?", name) if isinstance(name, str) else None
        return Account(*row[:4]) if row else None

    def by_id(self, account_id: int) -> Optional[Account]:
        row = self._row("id = ?", account_id)
        return Account(*row[:4]) if row else None

    def who(self, token: Optional[str]) -> Optional[Account]:
        """The account whose session this token is, or None."""
        if not token:
            return None
        rows = self.store.query("SELECT a.id, a.name, a.kind, a.level FROM sessions s JOIN accounts a "
                                "ON a.id = s.account WHERE s.token = ? AND s.created > ?",
                                (_sha(token), time.time() - SESSION_DAYS * 86400))
        return Account(*rows[0]) if rows else None

    def bot(self, token: Optional[str]) -> Optional[Account]:
        """The bot account whose bot token this is, or None."""
        if not token:
            return None
        row = self._row("bot_token = ?", _sha(token))
        return Account(*row[:4]) if row else None

    # -- changing -------------------------------------------------------------------------------

    @staticmethod
    def _check_name(name: Any) -> str:
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise RequestError(f"a name is 2 to 24 letters, digits, _ or -, not {quote(name)[:60]}")
        return name

    @staticmethod
    def _check_password(password: Any) -> str:
        if not isinstance(password, str) or not _MIN_PASSWORD <= len(password) <= _MAX_PASSWORD:
            raise RequestError(f"a password is {_MIN_PASSWORD} to {_MAX_PASSWORD} characters")
        return password

    def _begin(self, db: Any, account_id: int, address: str) -> str:
        """A new session, in the transaction ``db``; the sessions expired
        (older than :data:`SESSION_DAYS`, which :meth:`who` no longer
        believes) are deleted in the same one, so that the store keeps only
        the live ones and those expired since the last login."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        db.execute("DELETE FROM sessions WHERE created < ?", (now - SESSION_DAYS * 86400,))
        db.execute("INSERT INTO sessions (token, account, created, address) VALUES (?, ?, ?, ?)",
                   (_sha(token), account_id, now, address))
        return token

    def register(self, name: Any, password: Any, *, address: str, old: Optional[str] = None) -> LoggedIn:
        """A new account, logged in (the session the browser had, if any,
        ended): a 409 when the name is taken (in any case)."""
        self._check_name(name)
        self._check_password(password)
        key = {f"register:{address}": REGISTRATIONS}
        self._limit(key, "new accounts")
        kept = hash_password(password, self.cost)
        try:
            with self.store.transaction() as db:
                if db.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone():
                    raise RequestError(f"the name {name} is taken: choose another", 409)
                cursor = db.execute("INSERT INTO accounts (name, kind, password, created, address) "
                                    "VALUES (?, 'person', ?, ?, ?)", (name, kept, time.time(), address))
                account_id = int(cursor.lastrowid or 0)
                if old:
                    db.execute("DELETE FROM sessions WHERE token = ?", (_sha(old),))
                token = self._begin(db, account_id, address)
        except StoreError as error:
            raise _not_stored(error) from None
        self._count(key)
        return LoggedIn(Account(account_id, name, "person", None), token)

    def login(self, name: Any, password: Any, *, address: str, old: Optional[str] = None) -> LoggedIn:
        """A new session for the account with this name and password (the
        one the browser had, ``old``, ended: a session made before a login
        is never the logged-in one); a 403 with one sentence for a wrong
        password and a name nobody has alike, a 429 past the limits."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > _MAX_PASSWORD:
            raise RequestError("a login is a name and a password")
        keys = {f"name:{name.lower()[:64]}": NAME_FAILURES, f"address:{address}": ADDRESS_FAILURES}
        self._limit(keys, "failed logins")
        row = self._row("name = ?", name) if _NAME.fullmatch(name) else None
        kept = row[4] if row is not None and row[4] else self._decoy
        if not check_password(password, kept) or row is None or not row[4]:
            self._count(keys)
            raise RequestError(_WRONG, 403)
        try:
            with self.store.transaction() as db:
                if old:
                    db.execute("DELETE FROM sessions WHERE token = ?", (_sha(old),))
                token = self._begin(db, int(row[0]), address)
        except StoreError as error:
            raise _not_stored(error) from None
        return LoggedIn(Account(*row[:4]), token)

    def logout(self, token: Optional[str]) -> None:
        """End this session (nothing, for a token that is none)."""
        if token:
            try:
                with self.store.transaction() as db:
                    db.execute("DELETE FROM sessions WHERE token = ?", (_sha(token),))
            except StoreError as error:
                raise _not_stored(error) from None

    def change_password(self, token: Optional[str], old: Any, new: Any, *, address: str) -> LoggedIn:
        """A new password for the session's account, given the old one:
        every session of the account ended, and a new one begun for this
        browser. A 403 for a wrong old password (counted as a failed login)."""
        account = self.who(token)
        if account is None:
            raise RequestError("log in first", 403)
        self._check_password(new)
        keys = {f"name:{account.name.lower()}": NAME_FAILURES, f"address:{address}": ADDRESS_FAILURES}
        self._limit(keys, "failed logins")
        row = self._row("id = ?", account.id)
        if row is None or not isinstance(old, str) or not check_password(old, row[4] or self._decoy):
            self._count(keys)
            raise RequestError("the old password is wrong", 403)
        try:
            with self.store.transaction() as db:
                db.execute("UPDATE accounts SET password = ? WHERE id = ?", (hash_password(new, self.cost),
                                                                            account.id))
                db.execute("DELETE FROM sessions WHERE account = ?", (account.id,))
                fresh = self._begin(db, account.id, address)
        except StoreError as error:
            raise _not_stored(error) from None
        return LoggedIn(account, fresh)

    def make_bot(self, name: str, *, level: Optional[int] = None) -> tuple[Account, Optional[str]]:
        """A bot account (for the operator, not the interface): the
        package's engine at ``level``, or, with no level, an outside
        program, whose bot token is returned (shown once; only its SHA-256
        is kept). An existing bot of this name is given a new token."""
        self._check_name(name)
        token = None if level is not None else secrets.token_urlsafe(32)
        try:
            with self.store.transaction() as db:
                row = db.execute("SELECT id, kind FROM accounts WHERE name = ?", (name,)).fetchone()
                if row is not None and row[1] != "bot":
                    raise RequestError(f"the name {name} is a person's account", 409)
                if row is None:
                    db.execute("INSERT INTO accounts (name, kind, level, bot_token, created) VALUES "
                               "(?, 'bot', ?, ?, ?)", (name, level, _sha(token) if token else None, time.time()))
                else:
                    db.execute("UPDATE accounts SET level = ?, bot_token = ? WHERE id = ?",
                               (level, _sha(token) if token else None, row[0]))
        except StoreError as error:
            raise _not_stored(error) from None
        account = self.named(name)
        assert account is not None
        return account, token


def _not_stored(error: StoreError) -> RequestError:
    return RequestError(f"the server could not write this change to its store ({error.reason}), so nothing "
                        "changed; try again later", 503, code="not_stored")

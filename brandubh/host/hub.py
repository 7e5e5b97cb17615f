"""The games of ``brandubh host``: seats, tokens, clocks, bots, watchers.

A :class:`Hub` keeps the games in play (:class:`HostGame`), each a
:class:`~brandubh.session.Session` with a seat for each side, as ``brandubh
play`` and ``brandubh serve`` drive one: the session plays, takes back,
answers offers, presses the clock and says what happened; the hub adds who
may act for a seat, the store, the timer and the threads of the bots. A
seat is either a player (a person at the page, or an outside program) who
acts with the seat's token, or the package's :class:`~brandubh.Bot` at a
level, whose turn the hub hands to a bot thread. Tokens are made with
:mod:`secrets` and only their SHA-256 is kept: the store never holds one.

Every change (the session hands each on as it is made) is written to the
store before it is answered or sent on, then
sent to everyone following the game (:meth:`Hub.follow`) as the game's
whole public state. A change the store could not write (a full disk) is
undone whole, to the game as last stored, and answered with a 503 saying
that nothing changed; the same request may be sent again. One timer thread
lets a flag fall when a clock runs out, whether or not anyone is connected,
and tries again what the server itself could not store (a flag, a bot's
move); it keeps one deadline a game at most. A hub made again on the same
store resumes every game and its clocks, and a flag that fell meanwhile
falls at once. A record it cannot read is set aside (named, with its fault,
in the log, and kept in the store untouched); the others are served.

>>> hub = Hub(Store(':memory:'), seed='doc')
>>> made = hub.create({'side': 'attackers', 'clock': '5+3'}, client='me')
>>> game_id, mine, theirs = made['id'], made['token'], made['invite_token']
>>> hub.act(game_id, mine, 'move', {'move': 'd2c2'})['moves']
['d2-c2']
>>> hub.act(game_id, mine, 'move', {'move': 'd3c3'})
Traceback (most recent call last):
...
brandubh.serve.api.RequestError: it is the defenders' move, not yours
>>> hub.act(game_id, 'not-a-token', 'resign', {})
Traceback (most recent call last):
...
brandubh.serve.api.RequestError: this token holds no seat in this game
>>> hub.act(game_id, theirs, 'resign', {})['result']
'the defenders resigned'
>>> hub.close()
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import queue
import re
import secrets
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Optional, TextIO

from ..errors import ArgumentError, BrandubhError, quote
from .. import notation
from ..serve.api import RequestError, move_text
from ..session import Said, Session
from .clock import Clock, clock_of
from .store import Store, StoreError

if TYPE_CHECKING:
    from ..bot import Bot
    from ..game import Game

__all__ = ["Hub", "HostGame", "Follower", "Sent", "RecordError", "NotStored", "MAX_OPEN_PER_CLIENT", "MAX_LEVEL",
           "RATE", "BURST", "ACTIONS", "RETRY"]

#: The most games a client (an address) may have in play at once.
MAX_OPEN_PER_CLIENT = 20
#: The most games in play at once, all clients together.
MAX_GAMES = 5000
#: Finished games kept in memory for their watchers (others are read from the store).
MAX_FINISHED_KEPT = 500
#: Requests that change something a client may make a second, on average...
RATE = 20.0
#: ...and at once, after a pause.
BURST = 40
#: The strongest level of the server's bot.
MAX_LEVEL = 6
# What a seat may do (each a POST with its token), and the Session's method that does it.
_REQUESTS = {"move": "move", "resign": "resign", "draw-offer": "offer_draw", "draw-accept": "accept_draw",
             "draw-decline": "decline_draw", "takeback-offer": "offer_takeback",
             "takeback-accept": "accept_takeback", "takeback-decline": "decline_takeback"}
#: What a seat may do (each a POST with its token).
ACTIONS = tuple(_REQUESTS)
#: Seconds before the server tries again to store what it did itself (a
#: flag that fell, its bot's move) when the store could not write it.
RETRY = 1.0
SIDES = notation.SIDES
SEATS = notation.SEATS
_ID = re.compile(r"[0-9a-f]{12}")
_TOKEN_HASH = re.compile(r"[0-9a-f]{64}")


class RecordError(BrandubhError):
    """A game's record in the store that cannot be read: the sentence says
    what is wrong with it."""


class NotStored(RequestError):
    """A change the store could not write, undone whole: a 503 whose
    sentence says that nothing changed; ``reason`` is the store's."""

    def __init__(self, message: str, reason: str, game: Optional[dict] = None) -> None:
        super().__init__(message, 503, code="not_stored", game=game)
        self.reason = reason


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Sent(NamedTuple):
    """A game's state as sent to its followers: the JSON ``data``, and
    whether it is the ``last`` (the game ended with it), as the game says."""

    data: bytes
    last: bool


class Follower:
    """One follower of a game (a page, a watcher, a program): its states
    arrive in :attr:`queue` (each a :class:`Sent`), the newest always kept
    (a slow follower misses states in between, never the last)."""

    def __init__(self, hub: "Hub", game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self.queue: "queue.Queue[Sent]" = queue.Queue(maxsize=8)
        #: Called after each state put, from the thread that put it (the
        #: fan-out's wake-up, once the stream is handed to it).
        self.notify: Optional[Callable[[], None]] = None

    def put(self, data: Sent) -> None:
        while True:
            try:
                self.queue.put_nowait(data)
                notify = self.notify
                if notify is not None:
                    notify()
                return
            except queue.Full:
                try:
                    self.queue.get_nowait()
                except queue.Empty:  # pragma: no cover - taken by the reader meanwhile
                    pass

    def close(self) -> None:
        """Stop following."""
        self.hub._unfollow(self)


class _Acted(NamedTuple):
    """A seat's action carried out: the state sent on, and its JSON."""

    state: dict[str, Any]
    data: bytes


class _Kept(NamedTuple):
    """A game's record in the store, read and checked."""

    game: "Game"
    seats: dict[str, dict[str, Any]]
    clock: Optional[Clock]
    draw: Optional[str]
    takeback: Optional[str]
    said: str
    client: str
    created: float
    version: int
    finished: Optional[float]


class HostGame:
    """One game at the hub: its :class:`~brandubh.session.Session` (the
    :class:`~brandubh.Game`, a seat for each side, the
    :class:`~.clock.Clock` or None untimed, any offer waiting), who holds
    each seat (``'p1'``, ``'p2'``: each ``{'kind': 'player', 'token':
    sha256}`` or ``{'kind': 'bot', 'level': N}``), and who follows it.
    ``lock`` is the session's."""

    def __init__(self, game_id: str, session: Session, seats: dict[str, dict[str, Any]], client: str,
                 created: float) -> None:
        self.id = game_id
        self.session = session
        self.seats = seats
        self.client = client
        self.created = created
        self.version = 0
        self.finished: Optional[float] = None
        self.lock = session.lock
        self.followers: list[Follower] = []
        self.last_state: Optional[dict[str, Any]] = None   # as sent after the last change
        self.last_sent: Optional[Sent] = None              # and as its JSON
        self.stored: Optional[dict[str, Any]] = None       # the record as last written to the store
        self.retry: Optional[float] = None                 # when to try again what the store refused the server
        #: A club game's own: its rating ``pool`` (None: casual) and any
        #: ``flag`` (why it is not rated though asked to be), or None.
        self.club: Optional[dict[str, Any]] = None

    @property
    def game(self) -> "Game":
        return self.session.game

    @property
    def clock(self) -> Optional[Clock]:
        clock = self.session.clock
        assert clock is None or isinstance(clock, Clock)
        return clock

    @property
    def active(self) -> bool:
        return self.game.status == "active"

    def seat_of_token(self, token: Optional[str], account: Optional[int] = None) -> Optional[str]:
        """The seat this token holds (compared in constant time), or that
        the club's ``account`` (its number) holds, or None."""
        digest = _hash(token) if token else None
        found = None
        for seat, info in self.seats.items():
            if info.get("kind") != "player":
                continue
            if digest is not None and hmac.compare_digest(info.get("token", ""), digest):
                found = seat
            elif account is not None and info.get("account") == account and found is None:
                found = seat
        return found

    def record(self) -> dict[str, Any]:
        """What the store keeps of the game."""
        session, game = self.session, self.game
        clock = self.clock
        return {"text": session.text(), "attackers": game.seat_of("attackers"), "seats": self.seats,
                "clock": clock.as_dict() if clock is not None else None,
                "draw": game.draw_offered_by,
                "takeback": game.seat_of(session.takeback) if session.takeback is not None else None,
                "said": session.said, "client": self.client, "created": self.created, "version": self.version,
                "finished": self.finished, **({"club": self.club} if self.club is not None else {})}

    @classmethod
    def from_record(cls, game_id: str, record: Any, make_bot: Callable[[str, int], "Bot"]) -> "HostGame":
        """The game a :meth:`record` kept, its bots made by ``make_bot(seat,
        level)``; a :class:`RecordError` naming the first thing in it that
        is missing or wrong."""
        kept = cls._read(record)
        game = kept.game
        bots = {str(game.side_of(seat)): make_bot(seat, int(info["level"])) if info["kind"] == "bot" else None
                for seat, info in kept.seats.items()}
        made = cls(game_id, Session(game, seats=bots, clock=kept.clock), kept.seats, kept.client, kept.created)
        made._resume(kept, record)
        return made

    def restore(self, record: dict[str, Any]) -> None:
        """Back to a record this game stored: every change since undone (its
        bots and its followers stay)."""
        self._resume(self._read(record), record)

    def _resume(self, kept: _Kept, record: dict[str, Any]) -> None:
        game = kept.game
        self.session.resume(game, clock=kept.clock, draw_offer=game.side_of(kept.draw) if kept.draw else None,
                            takeback=game.side_of(kept.takeback) if kept.takeback else None, said=kept.said)
        self.seats, self.version, self.finished = kept.seats, kept.version, kept.finished
        self.club = record.get("club")
        self.stored = record

    @staticmethod
    def _read(record: Any) -> _Kept:
        """A record read and checked, field by field."""
        from ..game import Game

        if not isinstance(record, dict):
            raise RecordError(f"its record is {quote(record)}, not a JSON object")
        text, attackers = record.get("text"), record.get("attackers")
        if not isinstance(text, str):
            raise RecordError(f"its game text is {quote(text)}, not text")
        if attackers not in SEATS:
            raise RecordError(f"its attackers' seat is {quote(attackers)}, not p1 or p2")
        try:
            game = Game.read(text, attackers=attackers)
        except BrandubhError as error:
            raise RecordError(f"its game text cannot be read: {error}") from None
        seats = record.get("seats")
        if not isinstance(seats, dict) or sorted(seats) != sorted(SEATS):
            raise RecordError(f"its seats are {quote(seats)}, not p1 and p2")
        for seat in SEATS:
            info = seats[seat]
            kind = info.get("kind") if isinstance(info, dict) else None
            if kind is None:
                raise RecordError(f"the seat {seat} has no kind (player or bot)")
            if not isinstance(info.get("rating", ""), (str, type(None))):
                raise RecordError(f"the seat {seat}'s rating is {quote(info['rating'])}, not text")
            if kind == "player":
                if not isinstance(info.get("token"), str) or not _TOKEN_HASH.fullmatch(info["token"]):
                    raise RecordError(f"the seat {seat} is a player's with no token")
                account, name = info.get("account"), info.get("name")
                if (account is None) != (name is None) or account is not None and (
                        not isinstance(account, int) or isinstance(account, bool) or not isinstance(name, str)):
                    raise RecordError(f"the seat {seat}'s account is {quote(account)} named {quote(name)}, not a "
                                      "number and a name")
            elif kind == "bot":
                level = info.get("level")
                if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= MAX_LEVEL:
                    raise RecordError(f"the seat {seat}'s level is {quote(level)}, not 1 to {MAX_LEVEL}")
            else:
                raise RecordError(f"the seat {seat}'s kind is {quote(kind)}, not player or bot")
        try:
            clock = Clock.from_dict(record["clock"]) if record.get("clock") is not None else None
        except ValueError as error:
            raise RecordError(str(error)) from None
        for name in ("draw", "takeback"):
            if record.get(name) not in (None, *SEATS):
                raise RecordError(f"its {name} offer is from {quote(record[name])}, not p1, p2 or nobody")
        for name in ("said", "client"):
            if not isinstance(record.get(name, ""), str):
                raise RecordError(f"its {name} is {quote(record[name])}, not text")
        club = record.get("club")
        if club is not None and (not isinstance(club, dict) or not all(
                isinstance(club.get(name), (str, type(None))) for name in ("pool", "flag"))):
            raise RecordError(f"its club's part is {quote(club)}, not a pool and a flag")
        version = record.get("version", 0)
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise RecordError(f"its version is {quote(version)}, not a whole number")
        for name in ("created", "finished"):
            when = record.get(name, 0.0 if name == "created" else None)
            if when is not None and (isinstance(when, bool) or not isinstance(when, (int, float))
                                     or not math.isfinite(when)):
                raise RecordError(f"its time {name} is {quote(when)}, not a number")
        return _Kept(game, seats, clock, record.get("draw"), record.get("takeback"), record.get("said", ""),
                     record.get("client", ""), float(record.get("created", 0.0)), version, record.get("finished"))

    def state(self, now: Optional[float] = None, ply: Optional[int] = None) -> dict[str, Any]:
        """What anyone may see of the game (no token): the session's
        account of it (:meth:`Session.state <brandubh.session.Session.state>`:
        the board, the record, the legal moves of the side to move), with
        the seats, the clocks and the offers waiting. ``ply``: the board as
        it stood after that many moves (a look back; no legal moves then),
        its end by default; ``plies`` is always the game's length."""
        now = time.time() if now is None else now
        session, game = self.session, self.game
        clock = self.clock
        offer = game.draw_offered_by
        return {
            "id": self.id,
            "version": self.version,
            "seats": {str(game.side_of(seat)): {"kind": info["kind"], "level": info.get("level"),
                                                "name": info.get("name"), "rating": info.get("rating")}
                      for seat, info in self.seats.items()},
            "rated": self.club.get("pool") if self.club is not None else None,
            "flag": self.club.get("flag") if self.club is not None else None,
            "clock": clock.name if clock is not None else None,
            "clocks": {side: clock.left_ms(side, now) for side in SIDES} if clock is not None else None,
            "running": clock.running if clock is not None and self.active else None,
            "draw_offer": game.side_of(offer) if offer else None,
            "takeback": session.takeback,
            "plies": game.ply,
            **session.state(ply),
        }


class Hub:
    """The games in play over a :class:`~.store.Store`. ``seed``: any text,
    so that the server's bots play the same way again. ``make_bot``: how a
    bot is made from a level and a seed (:class:`~brandubh.Bot` by
    default). ``max_open``, ``rate`` and ``burst``: the limits a client has
    (:data:`MAX_OPEN_PER_CLIENT`, :data:`RATE`, :data:`BURST`). ``log``:
    where the server's own troubles go, a line each (standard error by
    default). The hub resumes the store's games in play when it is made;
    those whose record it cannot read are in :attr:`set_aside` (id to
    fault), named in the log, and left in the store as they are."""

    def __init__(self, store: Store, *, seed: Optional[str] = None,
                 make_bot: Optional[Callable[[int, str], "Bot"]] = None, max_open: int = MAX_OPEN_PER_CLIENT,
                 rate: float = RATE, burst: int = BURST, bot_threads: int = 2,
                 log: Optional[TextIO] = None) -> None:
        self.store = store
        self.log = log if log is not None else sys.stderr
        self.seed = seed if seed is not None else secrets.token_hex(8)
        self._make_bot = make_bot
        self.max_open = max_open
        self.rate = rate
        self.burst = burst
        self._games: dict[str, HostGame] = {}
        self._finished: dict[str, HostGame] = {}
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}
        #: Games set aside, id to fault: records the hub could not read.
        self.set_aside: dict[str, str] = {}
        # When to look at a game again (its running clock's flag, or a retry): one deadline a game at most.
        self._deadlines: dict[str, float] = {}
        self._waiting_for: Optional[float] = None   # the deadline the timer thread sleeps until
        self._wake = threading.Condition(self._lock)
        self._stopping = False
        self._bots = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="host-bot")
        #: The club's part of storing a club game's change (its players, a
        #: rated game's ratings): called under the game's lock, in the
        #: store's transaction, on its connection; what it writes is
        #: committed with the game, or rolled back with it.
        self.on_store: Optional[Callable[[HostGame, Any], None]] = None
        #: Called under the game's lock once a club game's change is stored
        #: and sent (the lobby's followers are told).
        self.after_change: Optional[Callable[[HostGame], None]] = None
        #: What else stops when the hub does (the club's tournaments), first.
        self.closing: list[Callable[[], None]] = []
        for game_id, fault in store.all_aside().items():
            self.set_aside[game_id] = fault
            self.say(f"game {game_id} is set aside (at an earlier start): {fault}; it stays in the store as it is")
        for game_id, text in store.active():
            try:
                hg = self._read(game_id, text)
            except RecordError:
                continue
            self._games[game_id] = hg
            self._schedule(hg)
        self._timer = threading.Thread(target=self._run_timer, name="host-clock", daemon=True)
        self._timer.start()
        for hg in list(self._games.values()):
            with hg.lock:
                self._flag_or_retry(hg)   # a flag that fell while the server was down falls now
                self._kick(hg)            # and a bot whose turn it is moves

    def say(self, line: str) -> None:
        """One line in the log: the server's own trouble, for its operator."""
        try:
            self.log.write(f"brandubh host: {line}\n")
            self.log.flush()
        except (OSError, ValueError):  # pragma: no cover - no log to write to: nothing better to do
            pass

    def _attached(self, hg: HostGame) -> HostGame:
        """The game with its session's changes stored and sent on by :meth:`_changed`."""
        hg.session.on_change = lambda session: self._changed(hg)
        return hg

    def _read(self, game_id: str, text: str) -> HostGame:
        """A game from its record's text in the store; one that cannot be
        read is set aside (a :class:`RecordError`)."""
        try:
            record = json.loads(text)
        except (ValueError, RecursionError) as error:
            fault = f"its record is not JSON ({str(error)[:80]})"
        else:
            try:
                return self._attached(HostGame.from_record(
                    game_id, record, lambda seat, level: self._bot(game_id, seat, level)))
            except RecordError as error:
                fault = str(error)
        self.set_aside[game_id] = fault
        try:
            self.store.set_aside(game_id, fault)
            kept = "it stays in the store as it is, and is no longer listed"
        except StoreError as error:
            kept = f"it stays in the store as it is ({error}: it will be met again at the next start)"
        self.say(f"game {game_id} set aside: {fault}; {kept}")
        raise RecordError(fault)

    # -- making a game ----------------------------------------------------------------

    def create(self, fields: dict[str, Any], *, client: str) -> dict[str, Any]:
        """A new game: ``side`` (``'attackers'``, ``'defenders'`` or
        ``'random'``: the maker's), ``variant`` (a preset's name or a line
        of field=value pairs), ``clock`` (``'5+3'`` or ``'untimed'``),
        ``opponent`` (``'invite'``: a seat for someone the maker sends its
        link, a person or a program; ``'bot'``: the server's bot at
        ``level``). The maker's seat and its token, the invited seat's
        token, and the links."""
        from ..game import Game

        side = fields.get("side", "attackers")
        if side == "random":
            side = secrets.choice(SIDES)
        if side not in SIDES:
            raise RequestError(f"side must be 'attackers', 'defenders' or 'random', not {quote(side)}")
        variant = fields.get("variant", "brandubh")
        if not isinstance(variant, str) or len(variant) > 200:
            raise RequestError(f"variant must be a preset's name or a line of field=value pairs, not {quote(variant)}")
        try:
            clock = clock_of(fields.get("clock", "untimed"))
        except ValueError as error:
            raise RequestError(str(error)) from None
        opponent = fields.get("opponent", "invite")
        if opponent not in ("invite", "bot"):
            raise RequestError(f"opponent must be 'invite' or 'bot', not {quote(opponent)}")
        level = fields.get("level", 3)
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= MAX_LEVEL:
            raise RequestError(f"level must be a whole number from 1 to {MAX_LEVEL}, not {quote(level)}")
        try:
            game = Game("p1" if side == "attackers" else "p2", variant=variant.strip() or "brandubh")
        except BrandubhError as error:
            raise RequestError(str(error)) from None
        mine, theirs = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        seats: dict[str, dict[str, Any]] = {"p1": {"kind": "player", "token": _hash(mine)}}
        seats["p2"] = ({"kind": "bot", "level": level} if opponent == "bot"
                       else {"kind": "player", "token": _hash(theirs)})
        other_side = str(game.side_of("p2"))
        other = "the server's bot, level %d" % level if opponent == "bot" else "the player you invite"
        game_id = self.make(game, seats, clock, client=client,
                            said=f"A new game: you have the {side}, {other} the {other_side}.").id
        answer = {"id": game_id, "seat": "p1", "side": side, "token": mine,
                  "links": {"play": f"/#play={game_id}&token={mine}", "watch": f"/#watch={game_id}"}}
        if opponent == "invite":
            answer["invite_token"] = theirs
            answer["links"]["invite"] = f"/#play={game_id}&token={theirs}"
        return answer

    def make(self, game: "Game", seats: dict[str, dict[str, Any]], clock: Optional[Clock], *, client: str,
             said: str, club: Optional[dict[str, Any]] = None) -> HostGame:
        """A new game in play, stored before this returns: its seats (each
        a player's, with its token's hash, or a bot's at a level), its clock
        and the sentence its pages begin with; ``club``, a club game's
        pool and flag. A 429 past the maker's limit, a :class:`NotStored`
        when the store cannot write it (and no game made)."""
        with self._lock:
            if sum(1 for g in self._games.values() if g.client == client) >= self.max_open:
                raise RequestError(f"this client has {self.max_open} games in play already, the most it may: "
                                   "finish or resign one first", 429)
            if len(self._games) >= MAX_GAMES:
                raise RequestError(f"the server has {MAX_GAMES} games in play, the most it keeps: try later", 503)
            game_id = secrets.token_hex(6)
            while game_id in self._games or game_id in self._finished:  # pragma: no cover - 1 in 2**48
                game_id = secrets.token_hex(6)
            bots = {str(game.side_of(seat)): self._bot(game_id, seat, int(info["level"]))
                    if info["kind"] == "bot" else None for seat, info in seats.items()}
            hg = self._attached(HostGame(game_id, Session(game, seats=bots, clock=clock), seats, client,
                                         time.time()))
            hg.club = club
            self._games[game_id] = hg
        with hg.lock:
            hg.session.said = said
            try:
                self._changed(hg)
            except NotStored as error:
                with self._lock:
                    self._games.pop(game_id, None)
                raise NotStored(f"the server could not write the new game to its store ({error.reason}): no game "
                                "was made; try again later", error.reason) from None
        return hg

    # -- finding a game -----------------------------------------------------------------

    def game(self, game_id: str) -> HostGame:
        """The game with this id, in play or finished; a 404 for none."""
        if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
            raise RequestError(f"no game {quote(game_id)} here: a game's id is 12 hexadecimal digits", 404)
        with self._lock:
            hg = self._games.get(game_id) or self._finished.get(game_id)
        if hg is not None:
            return hg
        text = self.store.load(game_id) if game_id not in self.set_aside else None
        try:
            if text is None:
                fault = self.set_aside.get(game_id) or self.store.aside(game_id)
                if fault is None:
                    raise RequestError(f"no game {quote(game_id)} here", 404)
                raise RecordError(fault)
            hg = self._read(game_id, text)
        except RecordError as error:
            raise RequestError(f"game {game_id} is set aside: {error}; it is kept in the server's store, "
                               "untouched, but cannot be played or watched", 404) from None
        with self._lock:
            self._keep_finished(hg)
        return hg

    def _keep_finished(self, hg: HostGame) -> None:
        self._finished[hg.id] = hg
        while len(self._finished) > MAX_FINISHED_KEPT:
            del self._finished[next(iter(self._finished))]

    def state(self, game_id: str, ply: Optional[int] = None) -> dict[str, Any]:
        """A game's public state (after ``ply`` moves: a look back; a 400
        for a ply the game has not reached)."""
        hg = self.game(game_id)
        with hg.lock:
            try:
                return hg.state(ply=ply)
            except ArgumentError as error:
                raise RequestError(str(error)) from None

    def whoami(self, game_id: str, token: Optional[str], account: Optional[int] = None) -> dict[str, Any]:
        """The seat and side a token (or a club's account) holds in a game; a 403 for none."""
        hg = self.game(game_id)
        seat = self._seat(hg, token, account)
        return {"id": hg.id, "seat": seat, "side": hg.game.side_of(seat)}

    def finished(self, limit: int = 100) -> list[dict[str, Any]]:
        """The games finished last: id, when, rules, how each ended (a
        record that cannot be read is set aside, and not listed)."""
        out = []
        for game_id, when, text in self.store.finished(limit):
            try:
                hg = self._read(game_id, text)
            except RecordError:
                continue
            game = hg.game
            out.append({"id": game_id, "finished": when, "variant": game.variant.as_string(),
                        "plies": game.ply, "result": hg.session.result_sentence(),
                        "clock": hg.clock.name if hg.clock is not None else None})
        return out

    def in_play(self) -> list[HostGame]:
        """The games in play now."""
        with self._lock:
            return list(self._games.values())

    def open_games(self) -> int:
        with self._lock:
            return len(self._games)

    # -- acting -------------------------------------------------------------------------------

    @staticmethod
    def _seat(hg: HostGame, token: Optional[str], account: Optional[int] = None) -> str:
        seat = hg.seat_of_token(token, account)
        if seat is None:
            raise RequestError("this token holds no seat in this game", 403)
        return seat

    def allow(self, client: str) -> None:
        """Count a request that changes something against the client's
        rate; a 429 past it."""
        now = time.monotonic()
        with self._lock:
            level, then = self._buckets.get(client, (float(self.burst), now))
            level = min(float(self.burst), level + (now - then) * self.rate)
            if level < 1:
                self._buckets[client] = (level, now)
                raise RequestError(f"too many requests: at most {self.rate:g} a second, on average", 429)
            self._buckets[client] = (level - 1, now)
            if len(self._buckets) > 10_000:
                self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}

    def act(self, game_id: str, token: Optional[str], action: str, fields: dict[str, Any],
            account: Optional[int] = None) -> dict[str, Any]:
        """A seat's ``action`` (one of :data:`ACTIONS`) with its token and
        its ``fields`` (a move's ``move``; the others have none): the
        game's new state, or a :class:`~brandubh.serve.api.RequestError`
        (403 for a token holding no seat, 409 for what the game refuses)
        and nothing changed. The action and its fields are read here, once;
        the session checks the rest (whose turn, what the game allows).
        ``account``: the club's account logged in, acting for its seat."""
        return self._act(game_id, token, action, fields, account).state

    def act_json(self, game_id: str, token: Optional[str], action: str, fields: dict[str, Any],
                 account: Optional[int] = None) -> bytes:
        """:meth:`act`, the new state as the JSON sent to the followers
        (written once for all of them and the answer)."""
        return self._act(game_id, token, action, fields, account).data

    def _act(self, game_id: str, token: Optional[str], action: str, fields: dict[str, Any],
             account: Optional[int] = None) -> "_Acted":
        request = _REQUESTS.get(action)
        if request is None:
            raise RequestError(f"a seat may not {quote(action)}: the actions are {', '.join(ACTIONS)}", 404)
        hg = self.game(game_id)
        seat = self._seat(hg, token, account)
        allowed = ("move",) if action == "move" else ()
        unknown = sorted(set(fields) - set(allowed))
        if unknown:
            raise RequestError(f"unknown field {quote(unknown[0])} (the fields here are: "
                               f"{', '.join(allowed) or 'none'})")
        asked = (move_text(fields.get("move")),) if action == "move" else ()
        with hg.lock:
            said: Said = getattr(hg.session, request)(*asked, side=str(hg.game.side_of(seat)))
            if said.refused:
                raise RequestError(said.text, 409, code=said.code, game=hg.state())
            assert hg.last_state is not None and hg.last_sent is not None   # the change was sent on
            return _Acted(hg.last_state, hg.last_sent.data)

    # -- after every change ---------------------------------------------------------------------

    def _changed(self, hg: HostGame) -> None:
        """Under the game's lock: store it, then send it to its followers,
        set its timer and wake its bot. When the store cannot write it, the
        game goes back to its record as last stored, whole, and the change
        is a :class:`NotStored`: nobody was sent it."""
        now = time.time()
        hg.version += 1
        if not hg.active and hg.finished is None:
            hg.finished = now
        record = hg.record()
        on_store = self.on_store
        also = (lambda db: on_store(hg, db)) if on_store is not None and hg.club is not None else None
        try:
            self.store.save(hg.id, record, client=hg.client, finished=hg.finished, also=also)
        except StoreError as error:
            reason = error.reason
            self.say(f"could not store game {hg.id} ({reason}); the change was not made")
            if hg.stored is not None:
                hg.restore(hg.stored)
            raise NotStored(f"the server could not write this change to its store ({reason}), so nothing "
                            "changed: the game is as it was before this request, and the request may be sent "
                            "again later", reason, game=hg.state() if hg.stored is not None else None) from None
        hg.stored = record
        if hg.finished is not None:
            with self._lock:
                if self._games.pop(hg.id, None) is not None:
                    self._keep_finished(hg)
        hg.last_state = hg.state(now)
        data = hg.last_sent = Sent(json.dumps(hg.last_state).encode("utf-8"), last=not hg.active)
        for follower in list(hg.followers):
            follower.put(data)
        self._schedule(hg)
        self._kick(hg)
        if self.after_change is not None and hg.club is not None:
            self.after_change(hg)

    def follow(self, game_id: str) -> tuple[Follower, Sent]:
        """Follow a game: the follower, and the state now."""
        hg = self.game(game_id)
        follower = Follower(self, hg.id)
        with hg.lock:
            hg.followers.append(follower)
            return follower, Sent(json.dumps(hg.state()).encode("utf-8"), last=not hg.active)

    def _unfollow(self, follower: Follower) -> None:
        with self._lock:
            hg = self._games.get(follower.game_id) or self._finished.get(follower.game_id)
        if hg is not None:
            with hg.lock:
                if follower in hg.followers:
                    hg.followers.remove(follower)

    # -- the clocks ---------------------------------------------------------------------------------

    @property
    def timers(self) -> int:
        """How many games the timer thread will look at again: one a game
        whose clock runs (or whose change waits to be stored again), never
        more."""
        with self._lock:
            return len(self._deadlines)

    def _schedule(self, hg: HostGame) -> None:
        """Under the game's lock: when the timer thread looks at the game
        next, the earlier of its running clock's flag and a retry; never,
        when it has neither. It replaces the game's deadline before, so a
        game has one at most however often it changes."""
        when = hg.clock.deadline() if hg.clock is not None and hg.active else None
        if hg.retry is not None:
            when = hg.retry if when is None else min(when, hg.retry)
        with self._lock:
            if when is None:
                self._deadlines.pop(hg.id, None)
                return
            self._deadlines[hg.id] = when
            if self._waiting_for is None or when < self._waiting_for:
                self._wake.notify()

    def _run_timer(self) -> None:
        while True:
            with self._lock:
                while True:
                    if self._stopping:
                        return
                    now = time.time()
                    due = [game_id for game_id, when in self._deadlines.items() if when <= now]
                    if due:
                        for game_id in due:
                            del self._deadlines[game_id]
                        self._waiting_for = None
                        break
                    self._waiting_for = min(self._deadlines.values(), default=None)
                    self._wake.wait(None if self._waiting_for is None else self._waiting_for - now)
            for game_id in due:
                try:
                    self._look(game_id)
                except Exception:  # pragma: no cover - a timer must outlive one game's failure
                    self.say(f"the timer failed on game {game_id}:\n{traceback.format_exc()}")

    def _look(self, game_id: str) -> None:
        """The timer's deadline for a game came: let its flag fall, and try
        again what could not be stored."""
        with self._lock:
            hg = self._games.get(game_id)
        if hg is None:
            return
        with hg.lock:
            retried = hg.retry is not None
            hg.retry = None
            self._flag_or_retry(hg)
            if retried:
                self._kick(hg)   # a bot whose move could not be stored moves again
            self._schedule(hg)

    def _flag_or_retry(self, hg: HostGame) -> None:
        """Under the game's lock: :meth:`_check_flag`, tried again in
        :data:`RETRY` seconds when the store could not write the flag."""
        try:
            self._check_flag(hg)
        except NotStored:
            self._retry(hg)

    def _retry(self, hg: HostGame) -> None:
        hg.retry = time.time() + RETRY
        self._schedule(hg)

    def _check_flag(self, hg: HostGame) -> None:
        """Under the game's lock: let the flag fall in a game whose running
        clock is out of time (a :class:`NotStored` when that cannot be
        stored, and the game as it was)."""
        if hg.session.check_clock() is None:
            self._schedule(hg)   # woken early (a clock changed since), or no clock: look again then, if ever

    # -- the server's bots -----------------------------------------------------------------------------

    def _bot(self, game_id: str, seat: str, level: int) -> "Bot":
        """The server's bot for a game's seat: the same moves again for the same seed."""
        seed = f"{self.seed}|{game_id}|{seat}"
        if self._make_bot is not None:
            return self._make_bot(level, seed)
        from ..bot import Bot

        return Bot(level, seed=seed)

    def _kick(self, hg: HostGame) -> None:
        """Under the game's lock: hand the turn of a bot the game waits for
        (its move, or its answer to an offer) to a bot thread."""
        if self._stopping:
            return
        session = hg.session
        for side, bot in session.seats.items():
            if bot is not None and session.waits_for(side):
                try:
                    self._bots.submit(self._bot_turn, hg.id, side, session.changes)
                except RuntimeError:  # pragma: no cover - shut down meanwhile
                    pass

    def _bot_turn(self, game_id: str, side: str, changes: int) -> None:
        """A bot's turn, handed on at the table's ``changes``-th change: the
        session's :meth:`~brandubh.session.Session.reply`, thinking with the
        game's lock released (the other seat may resign meanwhile)."""
        try:
            hg = self.game(game_id)
            hg.session.reply(side, release=True, since=changes)
        except NotStored:
            with hg.lock:
                self._retry(hg)   # its turn again in a moment, the game as it was
        except RequestError:
            pass  # the game is gone meanwhile
        except Exception:  # pragma: no cover - a bot's failure must not stop the others
            self.say(f"the bot failed in game {game_id}:\n{traceback.format_exc()}")

    # -- stopping ---------------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the timer and the bots (the store stays open)."""
        for stop in self.closing:
            stop()
        with self._lock:
            self._stopping = True
            self._wake.notify_all()
        self._bots.shutdown(wait=True, cancel_futures=True)
        self._timer.join(timeout=5)

"""The club of ``brandubh host``: the lobby's seeks, rated games, ratings,
player pages and the lobby's live updates, over the :class:`~.hub.Hub`'s
games and the :class:`~.accounts.Accounts`.

A seek is an account's open offer of a game: the rules, the clock
(``5+3``, or ``3d``: days a move), the side (or by lot), rated or casual,
and for a rated one the range of ratings it will meet. Another account
takes it with one request, and the game begins at once: both seats are
held by the accounts (a logged-in page acts for its seat without a
token). The seek's end, the game, and its players are stored in one
transaction.

Ratings are Glicko-2 (:mod:`brandubh.ratings`), one a pool: the rule set
and the speed (:func:`~.clock.speed`: blitz, rapid, correspondence). A rated game
that ends updates both players', each game one rating period, in the same
transaction as the game's last change, with a point in each one's
history. A rated seek taken from the address it was posted from (two
accounts of one person, most likely) is played, flagged and not rated.

>>> from .store import Store
>>> from .hub import Hub
>>> from .accounts import Accounts
>>> hub = Hub(Store(':memory:'), seed='doc')
>>> accounts = Accounts(hub.store, cost=2 ** 4)
>>> club = Club(hub, accounts)
>>> ann = accounts.register('ann', 'a long secret', address='192.0.2.1').account
>>> bob = accounts.register('bob', 'another secret', address='192.0.2.2').account
>>> seek = club.seek(ann, {'clock': '5+3', 'side': 'attackers', 'rated': True}, address='192.0.2.1')
>>> game = club.take(bob, seek['id'], address='192.0.2.2')
>>> _ = hub.act(game['id'], None, 'resign', {}, account=bob.id)
>>> [str(r) for r in (club.rating(ann.id, 'brandubh blitz'), club.rating(bob.id, 'brandubh blitz'))]
['1662 ± 290', '1338 ± 290']
>>> hub.close()
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time
from typing import TYPE_CHECKING, Any, Optional

from ..errors import BrandubhError, quote
from ..ratings import DEFAULT, Rating, Result, update
from ..serve.api import RequestError
from .accounts import Account
from .clock import clock_of, pool_of
from .hub import Follower, HostGame, Hub, Sent, SEATS

if TYPE_CHECKING:
    import sqlite3

__all__ = ["Club", "MAX_SEEKS", "ONE_ADDRESS"]

#: Seeks one account may have open at once.
MAX_SEEKS = 5
#: The flag of a rated game whose two players came from one address.
ONE_ADDRESS = "both players came from one address: played, but not rated"
_SIDES = ("attackers", "defenders", "random")


class _LobbyFollower(Follower):
    """A follower of the lobby: its states (the lobby whole) in :attr:`queue`."""

    def __init__(self, club: "Club") -> None:
        super().__init__(club.hub, "lobby")
        self.club = club

    def close(self) -> None:
        with self.club._watch_lock:
            if self in self.club._followers:
                self.club._followers.remove(self)


class Club:
    """The club over a hub and its accounts: it hooks itself into the hub
    (:attr:`~.hub.Hub.on_store`, :attr:`~.hub.Hub.after_change`) and reads
    the seeks kept in the store."""

    def __init__(self, hub: Hub, accounts: Any) -> None:
        self.hub = hub
        self.accounts = accounts
        self.store = hub.store
        self._take_lock = threading.RLock()   # one seek taken at a time: never twice
        self._watch_lock = threading.Lock()   # the lobby's followers (never held while a game's lock is taken)
        self._followers: list[_LobbyFollower] = []
        # The lobby's tells, numbered as they begin (under the watch lock), and the number of the last
        # one put to the followers: a lobby read before the one put last is older, and is dropped.
        self._tells_begun = 0
        self._tell_put = 0
        self._news = 0   # the lobby's changes but moves (_tell)
        hub.on_store = self._on_store
        hub.after_change = self._after_change
        from .puzzles import ClubPuzzles
        from .tournament import Tournaments

        self.tournaments = Tournaments(self)
        hub.closing.append(self.tournaments.close)
        #: The puzzles: the accounts' puzzle ratings, the puzzles' own, the daily puzzle.
        self.puzzles = ClubPuzzles(self.store)

    # -- seeks ----------------------------------------------------------------------------------

    def _seeks(self) -> list[dict[str, Any]]:
        out = []
        for seek_id, account, created, fields, name in self.store.query(
                "SELECT s.id, s.account, s.created, s.fields, a.name FROM seeks s JOIN accounts a ON a.id = s.account "
                "ORDER BY s.created"):
            out.append({"id": seek_id, "account": account, "name": name, "created": created, **json.loads(fields)})
        return out

    def seek(self, account: Account, fields: dict[str, Any], *, address: str) -> dict[str, Any]:
        """Post a seek: ``variant`` (a preset's name or a line of
        field=value pairs), ``clock`` (``'5+3'``, ``'3d'``, ``'untimed'``),
        ``side`` (``'attackers'``, ``'defenders'``, ``'random'``),
        ``rated`` (a rated game needs a clock), ``range`` (the lowest and
        highest rating it will meet, a rated seek's). The seek as listed."""
        from ..game import Game

        unknown = sorted(set(fields) - {"variant", "clock", "side", "rated", "range"})
        if unknown:
            raise RequestError(f"unknown field {quote(unknown[0])} (the fields here are: variant, clock, side, "
                               "rated, range)")
        variant = fields.get("variant", "brandubh")
        if not isinstance(variant, str) or len(variant) > 200:
            raise RequestError(f"variant must be a preset's name or a line of field=value pairs, not {quote(variant)}")
        try:
            game = Game(variant=variant.strip() or "brandubh")
            clock = clock_of(fields.get("clock", "untimed"))
        except (BrandubhError, ValueError) as error:
            raise RequestError(str(error)) from None
        side = fields.get("side", "random")
        if side not in _SIDES:
            raise RequestError(f"side must be 'attackers', 'defenders' or 'random', not {quote(side)}")
        rated = fields.get("rated", False)
        if not isinstance(rated, bool):
            raise RequestError(f"rated must be true or false, not {quote(rated)}")
        if rated and clock is None:
            raise RequestError("a rated game needs a clock (minutes+seconds, or days a move): an untimed game "
                               "could be left unfinished for ever")
        bounds = fields.get("range")
        if bounds is not None and (not rated or not isinstance(bounds, list) or len(bounds) != 2 or not all(
                isinstance(b, int) and not isinstance(b, bool) and 0 <= b <= 4000 for b in bounds)
                or bounds[0] > bounds[1]):
            raise RequestError(f"range is a rated seek's lowest and highest rating, two whole numbers from 0 to "
                               f"4000, not {quote(bounds)}")
        shown = game.variant.name or game.variant.as_string()
        kept = {"variant": shown, "clock": clock.name if clock is not None else "untimed", "side": side,
                "rated": rated, "range": bounds, "pool": pool_of(shown, clock) if rated else None}
        seek_id = secrets.token_hex(6)
        with self._take_lock:
            if len(self.store.query("SELECT id FROM seeks WHERE account = ?", (account.id,))) >= MAX_SEEKS:
                raise RequestError(f"you have {MAX_SEEKS} seeks open, the most one may: cancel one first", 429)
            with self._stored() as db:
                db.execute("INSERT INTO seeks (id, account, created, address, fields) VALUES (?, ?, ?, ?, ?)",
                           (seek_id, account.id, time.time(), address, json.dumps(kept)))
        self._tell()
        return {"id": seek_id, "account": account.id, "name": account.name, **kept}

    def cancel(self, account: Account, seek_id: Any) -> None:
        """Withdraw one's own seek (a 404 for one that is not there or not one's own)."""
        with self._take_lock, self._stored() as db:
            gone = db.execute("DELETE FROM seeks WHERE id = ? AND account = ?", (seek_id, account.id)).rowcount
        if not gone:
            raise RequestError(f"no seek {quote(seek_id)} of yours is open", 404)
        self._tell()

    def take(self, account: Account, seek_id: Any, *, address: str) -> dict[str, Any]:
        """Take a seek: the game begins, both seats the accounts'. A 404
        for a seek gone (taken by another meanwhile), a 409 for one's own or
        a rating out of the seek's range."""
        with self._take_lock:
            rows = self.store.query("SELECT s.account, s.address, s.fields, a.name, a.kind, a.level FROM seeks s "
                                    "JOIN accounts a ON a.id = s.account WHERE s.id = ?", (seek_id,))
            if not rows:
                raise RequestError(f"no seek {quote(seek_id)} is open (taken or withdrawn meanwhile)", 404)
            seeker, seek_address, text, seeker_name, _, _ = rows[0]
            if seeker == account.id:
                raise RequestError("that seek is your own: another player takes it", 409)
            fields = json.loads(text)
            pool = fields.get("pool")
            if pool is not None and fields.get("range"):
                low, high = fields["range"]
                mine = self.rating(account.id, pool).rating
                if not low <= mine <= high:
                    raise RequestError(f"that seek is for ratings from {low} to {high}; yours is {round(mine)}", 409)
            pool, flag = self.rated_between(pool, seek_address, address)
            side = fields["side"] if fields["side"] != "random" else secrets.choice(_SIDES[:2])
            poster = self.accounts.by_id(seeker)
            assert poster is not None
            pair = (poster, account) if side == "attackers" else (account, poster)
            addresses = (seek_address, address) if side == "attackers" else (address, seek_address)
            hg = self.begin(pair[0], pair[1], fields["variant"], fields["clock"], pool=pool,
                            said=f"A new game: {pair[0].name} has the attackers, {pair[1].name} the defenders.",
                            extra={"flag": flag, "seek": seek_id}, addresses=addresses)
            if poster.kind == "bot" and poster.level is not None:
                self.stand(poster)   # its seek is back in the lobby for the next player
        with hg.lock:
            return hg.state()

    @staticmethod
    def rated_between(pool: Optional[str], first: str, second: str) -> tuple[Optional[str], Optional[str]]:
        """The pool a game between players from these two addresses is
        rated in, and its flag: a rated game between two players of one
        address (two accounts of one person, most likely) is played,
        flagged (:data:`ONE_ADDRESS`) and not rated. An address not known
        (empty) is no one's.

        >>> Club.rated_between('brandubh blitz', '192.0.2.1', '192.0.2.1')
        (None, 'both players came from one address: played, but not rated')
        >>> Club.rated_between('brandubh blitz', '192.0.2.1', '192.0.2.2')
        ('brandubh blitz', None)
        """
        if pool is not None and first and first == second:
            return None, ONE_ADDRESS
        return pool, None

    def begin(self, attackers: Account, defenders: Account, variant: str, clock: str, *, pool: Optional[str],
              said: str, extra: Optional[dict[str, Any]] = None, addresses: tuple[str, str] = ("", "")) -> HostGame:
        """A club game between two accounts, begun and stored: an engine
        account's seat is held by the server's bot at its level, a
        person's or program's by the account (its session or bot token)."""
        from ..game import Game

        game = Game("p1", variant=variant)   # p1 the attackers
        made = clock_of(clock)
        # Each player's rating as the game begins, in the pool it is (or, casual, would be) rated in.
        shown = pool if pool is not None else pool_of(variant, made)
        seats = {"p1": self._seat_of(attackers, shown), "p2": self._seat_of(defenders, shown)}
        return self.hub.make(game, seats, made, client=f"club:{attackers.id}", said=said,
                             club={"pool": pool, "flag": None, **(extra or {}),
                                   "addresses": {"p1": addresses[0], "p2": addresses[1]}})

    def _seat_of(self, account: Account, pool: Optional[str]) -> dict[str, Any]:
        """The seat of an account, with its rating in ``pool`` as shown (``1620 ± 80``; none without a pool)."""
        rating = _shown(self.rating(account.id, pool)) if pool is not None else None
        if account.kind == "bot" and account.level is not None:
            # The package's engine as an account: the server's own bot holds its seat.
            return {"kind": "bot", "level": account.level, "account": account.id, "name": account.name,
                    "rating": rating}
        return {**self._seat(account.id, account.name), "rating": rating}

    def stand(self, engine: Account, clock: str = "5+3") -> None:
        """Keep one rated seek of an engine account in the lobby (the
        package's :class:`~brandubh.Bot` at its level, by lot): posted
        unless it has one open."""
        if not self.store.query("SELECT 1 FROM seeks WHERE account = ?", (engine.id,)):
            self.seek(engine, {"clock": clock, "side": "random", "rated": True}, address="engine")

    @staticmethod
    def _seat(account: int, name: str) -> dict[str, Any]:
        # A token nobody holds: an account's seat is acted for by its session (or its bot token).
        from .hub import _hash

        return {"kind": "player", "token": _hash(secrets.token_urlsafe(24)), "account": account, "name": name}

    def _stored(self) -> Any:
        """The store's transaction, a full disk a 503 saying nothing changed."""
        import contextlib

        from .accounts import _not_stored
        from .store import StoreError

        @contextlib.contextmanager
        def block() -> Any:
            try:
                with self.store.transaction() as db:
                    yield db
            except StoreError as error:
                raise _not_stored(error) from None

        return block()

    # -- what the hub calls -------------------------------------------------------------------

    def _on_store(self, hg: HostGame, db: "sqlite3.Connection") -> None:
        """In the game's transaction: a new club game's players (and its
        seek gone); a rated game's end, both ratings updated."""
        club = hg.club or {}
        if hg.version == 1:
            for seat, info in hg.seats.items():
                if info.get("account") is not None:
                    db.execute("INSERT OR REPLACE INTO players (game, seat, account, pool, address) VALUES "
                               "(?, ?, ?, ?, ?)", (hg.id, seat, info["account"], club.get("pool"),
                                                   (club.get("addresses") or {}).get(seat, "")))
            if club.get("seek"):
                db.execute("DELETE FROM seeks WHERE id = ?", (club["seek"],))
            if club.get("tournament"):
                db.execute("INSERT OR IGNORE INTO tournament_games (tournament, game, round) VALUES (?, ?, ?)",
                           (club["tournament"], hg.id, club.get("round", 0)))
        pool = club.get("pool")
        if hg.finished is None or pool is None or db.execute(
                "SELECT 1 FROM history WHERE game = ?", (hg.id,)).fetchone():
            return
        found = {seat: hg.seats[seat].get("account") for seat in SEATS}
        accounts = {seat: account for seat, account in found.items() if isinstance(account, int)}
        if len(accounts) != len(SEATS):
            return
        before = {seat: self._rating_on(db, accounts[seat], pool) for seat in SEATS}
        winner = hg.game.winner
        for seat in SEATS:
            other = SEATS[1 - SEATS.index(seat)]
            score = 0.5 if winner is None else 1.0 if winner == seat else 0.0
            new = update(before[seat], [Result(before[other].rating, before[other].deviation, score)])
            db.execute("INSERT INTO ratings (account, pool, rating, deviation, volatility, games) VALUES "
                       "(?, ?, ?, ?, ?, 1) ON CONFLICT(account, pool) DO UPDATE SET rating = excluded.rating, "
                       "deviation = excluded.deviation, volatility = excluded.volatility, games = games + 1",
                       (accounts[seat], pool, new.rating, new.deviation, new.volatility))
            db.execute("INSERT INTO history (account, pool, game, at, rating, deviation) VALUES (?, ?, ?, ?, ?, ?)",
                       (accounts[seat], pool, hg.id, hg.finished, new.rating, new.deviation))

    @staticmethod
    def _rating_on(db: Any, account: int, pool: str) -> Rating:
        row = db.execute("SELECT rating, deviation, volatility FROM ratings WHERE account = ? AND pool = ?",
                         (account, pool)).fetchone()
        return Rating(*row) if row else DEFAULT

    def _after_change(self, hg: HostGame) -> None:
        # Every change of a club game is the lobby's news, each move too:
        # the lobby shows each game's move count (its followers keep only
        # the newest lobby, so a burst of moves sends what is last). A move
        # alone is not counted as news of the rest (``news``).
        self._tell(move=hg.version != 1 and hg.finished is None)
        if hg.finished is not None:
            self.tournaments.finished_game(hg)

    # -- reading --------------------------------------------------------------------------------

    def rating(self, account: int, pool: str) -> Rating:
        """An account's rating in a pool (a newcomer's when it has none)."""
        rows = self.store.query("SELECT rating, deviation, volatility FROM ratings WHERE account = ? AND pool = ?",
                                (account, pool))
        return Rating(*rows[0]) if rows else DEFAULT

    def lobby(self) -> dict[str, Any]:
        """The open seeks, and the club's games in play (to watch)."""
        seeks = []
        for full in self._seeks():
            seek = {key: full[key] for key in ("id", "name", "variant", "clock", "side", "rated", "range")}
            if full.get("pool"):
                seek["rating"] = _shown(self.rating(full["account"], full["pool"]))
            seeks.append(seek)
        playing = []
        games = [hg for hg in self.hub.in_play() if hg.club is not None]
        for hg in games:
            # The state last sent, read without the game's lock: the lobby is told under another game's.
            state = hg.last_state
            if state is None or hg.finished is not None:
                continue
            playing.append({"id": hg.id, "seats": state["seats"], "clock": state["clock"], "rated": state["rated"],
                            "plies": len(state.get("moves") or [])})
        return {"seeks": seeks, "playing": playing, "daily": self._daily(), "news": self._news}

    def _daily(self) -> Optional[dict[str, Any]]:
        """Today's puzzle as the lobby shows it (None for a server with no brandubh puzzles)."""
        from ..serve.puzzles import PuzzleRefusal

        try:
            return self.puzzles.daily_shown()
        except PuzzleRefusal:
            return None

    def follow(self) -> tuple[Follower, Sent]:
        """Follow the lobby: a follower, and the lobby now."""
        follower = _LobbyFollower(self)
        with self._watch_lock:
            self._followers.append(follower)
        return follower, Sent(json.dumps(self.lobby()).encode("utf-8"), last=False)

    def _tell(self, move: bool = False) -> None:
        """Send the lobby to its followers (once, for all of them), after
        a change. Each change but a ``move`` in a game in play (a seek, a
        game begun or ended, a tournament's change) is counted in the
        lobby's ``news``: the page lists the tournaments again only when
        that count moves, not at every move of every game. Changes on several threads tell at once, each reading
        the lobby after its own change; one read before another's change
        but put after it would leave the followers with the older lobby
        last (a game begun, never seen by a watcher of the lobby). So each
        tell is numbered as it begins, and a lobby begun before the one put
        last is dropped: that one was read after this one's change, and
        holds it."""
        with self._watch_lock:
            if not move:
                self._news += 1
            if not self._followers:
                return   # one who follows later is sent the lobby as it is then
            self._tells_begun += 1
            number = self._tells_begun
        data = Sent(json.dumps(self.lobby()).encode("utf-8"), last=False)
        with self._watch_lock:
            if number < self._tell_put:
                return
            self._tell_put = number
            for follower in self._followers:
                follower.put(data)   # never waits: its queue keeps the newest

    def player(self, name: Any, viewer: Optional[Account] = None) -> dict[str, Any]:
        """A player's page: ratings by pool, games with their results,
        the record against each opponent, and (for the player) the games in
        play where it is their move."""
        account = self.accounts.named(name) if isinstance(name, str) else None
        if account is None:
            raise RequestError(f"no player {quote(name)[:60]} here", 404)
        ratings = {pool: {"rating": round(r), "deviation": round(d), "shown": _shown(Rating(r, d, v)),
                          "provisional": Rating(r, d, v).provisional, "games": n}
                   for pool, r, d, v, n in self.store.query(
                       "SELECT pool, rating, deviation, volatility, games FROM ratings WHERE account = ? "
                       "ORDER BY pool", (account.id,))}
        games: list[dict[str, Any]] = []
        record: dict[str, dict[str, int]] = {}
        your_move: list[str] = []
        for game_id, seat, pool in self.store.query(
                "SELECT game, seat, pool FROM players WHERE account = ? ORDER BY rowid DESC LIMIT 200",
                (account.id,)):
            try:
                hg = self.hub.game(game_id)
            except RequestError:
                continue
            with hg.lock:
                state = hg.state()
                winner, active, turn = hg.game.winner, hg.active, hg.game.turn
            other = hg.seats[SEATS[1 - SEATS.index(seat)]].get("name")
            score = None if active else 0.5 if winner is None else 1.0 if winner == seat else 0.0
            games.append({"id": game_id, "opponent": other, "side": str(hg.game.side_of(seat)), "rated": pool,
                          "clock": state["clock"], "result": state.get("result"), "score": score,
                          "review": f"/#watch={game_id}", "flag": state.get("flag")})
            if score is not None and other is not None:
                tally = record.setdefault(other, {"won": 0, "drawn": 0, "lost": 0})
                tally["won" if score == 1 else "drawn" if score == 0.5 else "lost"] += 1
            if active and turn == seat and viewer is not None and viewer.id == account.id:
                your_move.append(game_id)
        puzzle_rating, attempts = self.puzzles.player(account.id)
        puzzles = None if not attempts else {
            "rating": round(puzzle_rating.rating), "deviation": round(puzzle_rating.deviation),
            "shown": _shown(puzzle_rating), "provisional": puzzle_rating.provisional, "attempts": attempts}
        return {"name": account.name, "kind": account.kind, "level": account.level, "ratings": ratings,
                "puzzles": puzzles, "games": games, "record": record, "your_move": your_move}

    def history(self, name: Any, pool: Any) -> list[tuple[float, float, float]]:
        """A player's rating after each rated game in a pool (or each rated
        attempt at a puzzle, for the pool :data:`~.puzzles.POOL`): when,
        rating, deviation."""
        from .puzzles import POOL

        account = self.accounts.named(name) if isinstance(name, str) else None
        if account is None:
            raise RequestError(f"no player {quote(name)[:60]} here", 404)
        if pool == POOL:
            return self.puzzles.history(account.id)
        return [tuple(row) for row in self.store.query(
            "SELECT at, rating, deviation FROM history WHERE account = ? AND pool = ? ORDER BY at",
            (account.id, pool))]

    def graph(self, name: Any, pool: Any) -> str:
        """The SVG graph of a player's rating in a pool (:func:`~brandubh.views.graph.rating_graph`)."""
        from ..views.graph import rating_graph

        points = [(rating, deviation) for _, rating, deviation in self.history(name, pool)]
        return rating_graph([(DEFAULT.rating, DEFAULT.deviation), *points],
                            title=f"{name}'s rating, {pool}")


def _shown(rating: Rating) -> str:
    """``1620 ± 80``, with a ? while provisional."""
    return f"{rating}{'?' if rating.provisional else ''}"

"""Round-robin tournaments of a ``brandubh host`` club.

Every pairing is played twice, once with each side (as the tafl
federations play), in rounds: the circle method gives each player one game
a round (a bye, with an odd number of players), and the second half of the
rounds is the first with the sides swapped. A round begins when the one
before it has ended. The standings count a win 1, a draw one half, and
break ties by Sonneborn-Berger: the points of each opponent, times what one
scored against them, added up.

A tournament is made with its rules, clock, size (3 to 8 players), rated
or casual, and a time to begin (or none: when full); it begins at that time
with two players or more, or as soon as it is full. Engine accounts may be
entered by name when it is made. Everything is in the store: the
tournament's row, and each game with its round (written in the game's own
transaction), so a server started again goes on with the round in play.

>>> schedule([1, 2, 3, 4])[0], len(schedule([1, 2, 3, 4])), len(schedule([1, 2, 3]))
([(1, 4), (3, 2)], 6, 6)
>>> table = standings([1, 2, 3], [(1, 2, 1.0), (2, 1, 0.5), (1, 3, 0.0), (3, 1, 0.0), (2, 3, 1.0), (3, 2, 1.0)])
>>> [(row['account'], row['points'], row['sonneborn_berger']) for row in table]
[(1, 2.5, 4.25), (3, 2.0, 4.0), (2, 1.5, 3.25)]
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterable, Optional

from ..errors import BrandubhError, quote
from ..serve.api import RequestError
from .accounts import Account
from .clock import clock_of, pool_of
from .hub import HostGame

__all__ = ["Tournaments", "schedule", "standings", "MIN_PLAYERS", "MAX_PLAYERS", "MAX_MADE"]

#: The fewest and the most players of a round robin.
MIN_PLAYERS, MAX_PLAYERS = 3, 8
#: Tournaments not yet finished that one account may have made.
MAX_MADE = 3


def schedule(players: list[int]) -> list[list[tuple[int, int]]]:
    """The rounds of a double round robin among ``players``: each round a
    list of pairings (attackers, defenders); every pairing twice, with
    each side once."""
    circle: list[Optional[int]] = list(players)
    if len(circle) % 2:
        circle.append(None)   # the bye
    n = len(circle)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds + [[(b, a) for a, b in pairs] for pairs in rounds]


def standings(players: Iterable[int], results: Iterable[tuple[int, int, Optional[float]]]) -> list[dict[str, Any]]:
    """The table: ``results`` are (attackers, defenders, the attackers'
    score, None while in play); each row the ``account``, its ``points``,
    ``sonneborn_berger`` and ``games`` finished, best first (points, then
    Sonneborn-Berger)."""
    players = list(players)
    done = [(a, d, score) for a, d, score in results if score is not None]
    points = {p: 0.0 for p in players}
    games = {p: 0 for p in players}
    for a, d, score in done:
        points[a] += score
        points[d] += 1.0 - score
        games[a] += 1
        games[d] += 1
    berger = {p: 0.0 for p in players}
    for a, d, score in done:
        berger[a] += score * points[d]
        berger[d] += (1.0 - score) * points[a]
    order = sorted(players, key=lambda p: (-points[p], -berger[p], players.index(p)))
    return [{"account": p, "points": points[p], "sonneborn_berger": berger[p], "games": games[p]} for p in order]


class Tournaments:
    """The club's tournaments: made, joined, begun, their rounds played
    and their standings. The rounds are begun by one thread of their own
    (never under a game's lock)."""

    def __init__(self, club: Any) -> None:   # the Club (brandubh.host.club), which is built on this module
        self.club = club
        self.store = club.store
        self._lock = threading.RLock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="host-tournament")
        self._timers: list[threading.Timer] = []
        for tid, state, data in self.store.query("SELECT id, state, data FROM tournaments WHERE state != 'finished'"):
            if state == "running":
                self._later(self._advance, tid)
            else:
                self._at(tid, json.loads(data).get("starts"))

    # -- the store ---------------------------------------------------------------------------

    def _load(self, tid: Any) -> tuple[str, dict[str, Any]]:
        rows = self.store.query("SELECT state, data FROM tournaments WHERE id = ?", (tid,))
        if not rows:
            raise RequestError(f"no tournament {quote(tid)[:40]} here", 404)
        return rows[0][0], json.loads(rows[0][1])

    def _save(self, tid: str, state: str, data: dict[str, Any], account: Optional[int] = None) -> None:
        with self.club._stored() as db:
            db.execute("INSERT INTO tournaments (id, created, account, state, data) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT(id) DO UPDATE SET state = excluded.state, data = excluded.data",
                       (tid, time.time(), account or 0, state, json.dumps(data)))

    def _later(self, job: Any, *args: Any) -> None:
        try:
            self._worker.submit(self._guarded, job, *args)
        except RuntimeError:  # pragma: no cover - shut down meanwhile
            pass

    def _guarded(self, job: Any, *args: Any) -> None:
        try:
            job(*args)
        except Exception as error:  # pragma: no cover - one tournament's trouble must not stop the others
            self.club.hub.say(f"the tournament {args[0] if args else ''} could not go on: {error}")

    def _at(self, tid: str, starts: Optional[float]) -> None:
        if starts is None:
            return
        timer = threading.Timer(max(0.0, starts - time.time()), self._later, (self._maybe_start, tid))
        timer.daemon = True
        timer.start()
        self._timers.append(timer)

    # -- making and joining ----------------------------------------------------------------

    def create(self, account: Account, fields: dict[str, Any], *, address: str = "") -> dict[str, Any]:
        """A new tournament: ``name``, ``variant``, ``clock``, ``size``,
        ``rated``, ``starts`` (a time, seconds since 1970, or None: when
        full), ``engines`` (names of engine accounts entered), ``join``
        (the maker plays too, from ``address``; true by default)."""
        from ..game import Game

        unknown = sorted(set(fields) - {"name", "variant", "clock", "size", "rated", "starts", "engines", "join"})
        if unknown:
            raise RequestError(f"unknown field {quote(unknown[0])} (the fields here are: name, variant, clock, "
                               "size, rated, starts, engines, join)")
        name = fields.get("name", "Round robin")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 60:
            raise RequestError(f"a tournament's name is 1 to 60 characters, not {quote(name)[:80]}")
        variant = fields.get("variant", "brandubh")
        size = fields.get("size", 4)
        if not isinstance(size, int) or isinstance(size, bool) or not MIN_PLAYERS <= size <= MAX_PLAYERS:
            raise RequestError(f"size is a number of players from {MIN_PLAYERS} to {MAX_PLAYERS}, not {quote(size)}")
        try:
            if not isinstance(variant, str) or len(variant) > 200:
                raise ValueError(f"variant must be a preset's name or a line of field=value pairs, not "
                                 f"{quote(variant)}")
            game = Game(variant=variant.strip() or "brandubh")
            clock = clock_of(fields.get("clock", "10+5"))
        except (BrandubhError, ValueError) as error:
            raise RequestError(str(error)) from None
        rated = fields.get("rated", False)
        if not isinstance(rated, bool) or (rated and clock is None):
            raise RequestError("rated is true or false, and a rated tournament needs a clock")
        starts = fields.get("starts")
        if starts is not None and (isinstance(starts, bool) or not isinstance(starts, (int, float))
                                   or not time.time() - 60 <= starts <= time.time() + 366 * 86400):
            raise RequestError(f"starts is a time within the next year (seconds since 1970), or null, not "
                               f"{quote(starts)}")
        engines = fields.get("engines", [])
        if not isinstance(engines, list) or len(engines) > size:
            raise RequestError("engines is a list of the names of engine accounts to enter")
        players = [account.id] if fields.get("join", True) is not False else []
        for engine_name in engines:
            engine = self.club.accounts.named(engine_name) if isinstance(engine_name, str) else None
            if engine is None or engine.kind != "bot" or engine.level is None:
                raise RequestError(f"{quote(engine_name)[:40]} is not an engine account of this club")
            if engine.id not in players:
                players.append(engine.id)
        if len(players) > size:
            raise RequestError(f"{len(players)} players for a tournament of {size}")
        shown = game.variant.name or game.variant.as_string()
        data = {"name": name.strip(), "variant": shown, "clock": clock.name if clock else "untimed", "size": size,
                "rated": rated, "pool": pool_of(shown, clock) if rated else None, "starts": starts,
                "players": players, "maker": account.id,
                # Where each person entered from: a rated game of two from one address is not rated.
                "addresses": {str(account.id): address} if account.id in players else {}}
        tid = secrets.token_hex(6)
        with self._lock:
            if len(self.store.query("SELECT id FROM tournaments WHERE account = ? AND state != 'finished'",
                                    (account.id,))) >= MAX_MADE:
                raise RequestError(f"you have made {MAX_MADE} tournaments not yet finished, the most one may", 429)
            self._save(tid, "open", data, account.id)
        self._at(tid, starts)
        self._later(self._maybe_start, tid)
        self.club._tell()
        return self.view(tid)

    def join(self, account: Account, tid: Any, *, address: str = "") -> dict[str, Any]:
        """Enter a tournament not yet begun, from ``address`` (a 409 when full or begun)."""
        with self._lock:
            state, data = self._load(tid)
            if state != "open":
                raise RequestError("that tournament has begun: it takes no more players", 409)
            if account.id in data["players"]:
                raise RequestError("you are in that tournament already", 409)
            if len(data["players"]) >= data["size"]:
                raise RequestError("that tournament is full", 409)
            data["players"].append(account.id)
            data.setdefault("addresses", {})[str(account.id)] = address
            self._save(tid, state, data)
        self.club._tell()
        self._later(self._maybe_start, tid)
        return self.view(tid)

    # -- playing ----------------------------------------------------------------------------

    def _maybe_start(self, tid: str) -> None:
        with self._lock:
            state, data = self._load(tid)
            starts = data.get("starts")
            due = starts is not None and time.time() >= starts and len(data["players"]) >= 2
            if state != "open" or not (len(data["players"]) >= data["size"] or due):
                return
            self._save(tid, "running", data)
        self._advance(tid)

    def _advance(self, tid: str) -> None:
        """Begin the next round's games once the round before has ended
        (the games of a round not yet made, after a restart, too); the
        tournament ends after the last round."""
        with self._lock:
            state, data = self._load(tid)
            if state != "running":
                return
            made: dict[int, list[HostGame]] = {}
            for game_id, number in self.store.query("SELECT game, round FROM tournament_games WHERE tournament = ?",
                                                    (tid,)):
                try:
                    made.setdefault(number, []).append(self.club.hub.game(game_id))
                except RequestError:
                    continue
            for number, pairs in enumerate(schedule(data["players"]), 1):
                games = made.get(number, [])
                there = {(hg.seats[hg.game.seat_of("attackers") or "p1"].get("account"),
                          hg.seats[hg.game.seat_of("defenders") or "p2"].get("account")) for hg in games}
                missing = [pair for pair in pairs if pair not in there]
                for attackers, defenders in missing:
                    self._begin(tid, data, number, attackers, defenders)
                if missing or any(hg.active for hg in games):
                    return
            self._save(tid, "finished", data)
        self.club._tell()

    def _begin(self, tid: str, data: dict[str, Any], number: int, attackers: int, defenders: int) -> None:
        accounts = self.club.accounts
        a, d = accounts.by_id(attackers), accounts.by_id(defenders)
        assert a is not None and d is not None
        entered = data.get("addresses", {})   # none in a tournament stored before they were kept
        addresses = (entered.get(str(attackers), ""), entered.get(str(defenders), ""))
        pool, flag = self.club.rated_between(data.get("pool"), *addresses)
        self.club.begin(a, d, data["variant"], data["clock"], pool=pool,
                        said=f"{data['name']}, round {number}: {a.name} has the attackers, {d.name} the defenders.",
                        extra={"tournament": tid, "round": number, "flag": flag}, addresses=addresses)

    def finished_game(self, hg: HostGame) -> None:
        """Told (under the game's lock) that a tournament's game ended: the
        next round is looked at by the tournaments' own thread."""
        tid = (hg.club or {}).get("tournament")
        if tid:
            self._later(self._advance, tid)

    # -- reading ------------------------------------------------------------------------------

    def view(self, tid: Any) -> dict[str, Any]:
        """A tournament: its fields, players, state, games by round, standings."""
        state, data = self._load(tid)
        names = {p: (self.club.accounts.by_id(p) or Account(p, "?", "person", None)).name for p in data["players"]}
        games: list[dict[str, Any]] = []
        results: list[tuple[int, int, Optional[float]]] = []
        for game_id, number in self.store.query("SELECT game, round FROM tournament_games WHERE tournament = ? "
                                                "ORDER BY round, rowid", (tid,)):
            try:
                hg = self.club.hub.game(game_id)
            except RequestError:
                continue
            attackers = hg.seats[hg.game.seat_of("attackers") or "p1"].get("account")
            defenders = hg.seats[hg.game.seat_of("defenders") or "p2"].get("account")
            winner = hg.game.winner
            score = None if hg.active else 0.5 if winner is None else (
                1.0 if hg.game.side_of(winner) == "attackers" else 0.0)
            if isinstance(attackers, int) and isinstance(defenders, int):
                results.append((attackers, defenders, score))
            games.append({"id": game_id, "round": number, "attackers": names.get(attackers),
                          "defenders": names.get(defenders), "result": hg.session.result_sentence(), "score": score})
        table = [{**row, "name": names[row["account"]]} for row in standings(data["players"], results)]
        rounds = len(schedule(data["players"])) if len(data["players"]) >= 2 else 0
        return {"id": tid, "state": state, "name": data["name"], "variant": data["variant"], "clock": data["clock"],
                "size": data["size"], "rated": data["rated"], "starts": data.get("starts"),
                "players": [names[p] for p in data["players"]], "rounds": rounds, "games": games,
                "standings": table}

    def list(self) -> list[dict[str, Any]]:
        """Every tournament, newest first: id, name, state, players, size."""
        out = []
        for tid, state, data in self.store.query("SELECT id, state, data FROM tournaments ORDER BY created DESC "
                                                 "LIMIT 100"):
            fields = json.loads(data)
            out.append({"id": tid, "name": fields["name"], "state": state, "players": len(fields["players"]),
                        "size": fields["size"], "clock": fields["clock"], "rated": fields["rated"]})
        return out

    def close(self) -> None:
        """Stop the timers and the thread."""
        for timer in self._timers:
            timer.cancel()
        self._worker.shutdown(wait=True, cancel_futures=True)

"""What an event's games say, as a person reads it and as JSON.

One report for every event, two players or more: each player's wins,
draws and losses in all and by side, its score and Elo with a 95% interval
(with two players, the Elo difference of the first over the second; with
more, each player's performance against the field), a crosstable of every
pairing, the sequential test when one runs, how the games ended, the
faults, the games that repeated an earlier one, and the answer times.

With two players the games are also counted in pairs (the two games of one
opening, the sides swapped): the five counts of a
:class:`~brandubh.arena.stats.Pentanomial` and the Elo they give, and the
SPRT counts those pairs unless told to count games (``sprt_by='games'``).

>>> r = EventResult(players=[('A', 'level=2'), ('B', 'level=1')], games=[])
>>> r.standings()[0]['games']
0
"""

from __future__ import annotations

import math
import operator
import statistics
from collections import Counter
from dataclasses import InitVar, dataclass, field
from typing import Any, Optional, Sequence

from .. import notation
from .stats import SPRT_BY, EloEstimate, Pentanomial, SPRTResult, Tally, elo_estimate, format_elo
from .loop import GameRecord

__all__ = ["EventResult"]

SIDES = notation.SIDES
_INDEX = operator.attrgetter("index")  # a game's place in the event


@dataclass
class EventResult:
    """An event: its ``players`` (name, what it is), every game in order,
    and how the run went. ``settings`` is what the event was asked
    (the rules, the clock, the openings), for the report's head."""

    players: Sequence[tuple[str, str]]
    games: list
    settings: dict = field(default_factory=dict)
    sprt_bounds: Optional[tuple[float, float]] = None
    alpha: float = 0.05
    beta: float = 0.05
    games_requested: int = 0
    stopped_early: bool = False
    interrupted: bool = False
    seconds: float = 0.0
    #: Games given back unplayed by the executor (a lost machine) and
    #: played again: each is in ``games`` once.
    replayed: int = 0
    #: What the SPRT counts: ``'pairs'`` (a pair's two games, the
    #: pentanomial; the default) or ``'games'`` (one by one, the trinomial).
    sprt_by: str = SPRT_BY[0]
    #: ``games`` is in order already (a run keeps it so): not sorted again,
    #: which would cost the run a pass over every game each time one ends.
    in_order: InitVar[bool] = False

    def __post_init__(self, in_order: bool) -> None:
        self.players = [tuple(p) for p in self.players]  # type: ignore[misc]
        self.games = list(self.games) if in_order else sorted(self.games, key=_INDEX)

    # -- counting ------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.players]

    @property
    def counted(self) -> list[GameRecord]:
        return [g for g in self.games if g.counted]

    @property
    def errors(self) -> list[GameRecord]:
        return [g for g in self.games if g.reason == "error"]

    def pair_tally(self, a: str, b: str) -> Tally:
        """The games between players ``a`` and ``b``, counted from ``a``."""
        t = Tally(a, b)
        for g in self.counted:
            if {g.attackers, g.defenders} == {a, b}:
                t.add(g.attackers, g.defenders, g.winner)
        return t

    @property
    def tally(self) -> Tally:
        """The first two players' tally (the whole event when there are two)."""
        a, b = self.names[:2]
        return self.pair_tally(a, b)

    def _line(self, name: str, side: Optional[str] = None) -> tuple[int, int, int]:
        w = d = l = 0
        for g in self.counted:
            if name not in (g.attackers, g.defenders):
                continue
            if side is not None and g.side_of(name) != side:
                continue
            if g.winner is None:
                d += 1
            elif g.winner == name:
                w += 1
            else:
                l += 1
        return w, d, l

    def standings(self) -> list[dict]:
        """A row a player, in the players' order: games, wins, draws, losses,
        score, the counts by side, and the Elo estimate (against the other
        player when there are two, against the field when more)."""
        rows = []
        for name, what in self.players:
            w, d, l = self._line(name)
            n = w + d + l
            rows.append({"name": name, "player": what, "games": n, "wins": w, "draws": d, "losses": l,
                         "score": None if n == 0 else (w + 0.5 * d) / n,
                         "as_attackers": self._line(name, "attackers"),
                         "as_defenders": self._line(name, "defenders"),
                         "elo": elo_estimate(w, d, l)})
        return rows

    def pairings_count(self) -> int:
        """How many pairings the schedule has (one pair of players, a
        gauntlet's or a round robin's), from :meth:`~brandubh.arena.event.Event.settings`."""
        n = len(self.players)
        schedule = self.settings.get("schedule", "pair" if n == 2 else "round robin")
        return {"pair": 1, "gauntlet": n - 1}.get(schedule, n * (n - 1) // 2)

    def pentanomial(self) -> Pentanomial:
        """The first two players' pairs of games, counted from the first:
        game ``k`` of a pairing and game ``k + 1`` (``k`` even) share an
        opening with the sides swapped (:meth:`~brandubh.arena.event.Event.specs`). A pair is
        counted when both its games are (one cut short, or not played yet
        when the run stopped, leaves its pair out)."""
        a, b = self.names[:2]
        per_round = self.pairings_count()
        halves: dict = {}
        for g in self.counted:
            if {g.attackers, g.defenders} != {a, b}:
                continue
            points = 0.5 if g.winner is None else (1.0 if g.winner == a else 0.0)
            halves.setdefault((g.pairing, g.index // (2 * per_round)), []).append(points)
        return Pentanomial.of_pairs(tuple(p) for p in halves.values() if len(p) == 2)

    def sprt(self) -> Optional[SPRTResult]:
        """The sequential test of the first player against the second, over
        pairs or games (``sprt_by``); None when none was asked."""
        if self.sprt_bounds is None or len(self.players) != 2:
            return None
        elo0, elo1 = self.sprt_bounds
        if self.sprt_by == "games":
            return self.tally.sprt(elo0, elo1, self.alpha, self.beta)
        return self.pentanomial().sprt(elo0, elo1, self.alpha, self.beta)

    def side_wins(self) -> tuple[int, int, int]:
        """(attackers' wins, draws, defenders' wins) over every counted game."""
        c = Counter(g.winner_side for g in self.counted)
        return c["attackers"], c[None], c["defenders"]

    def endings(self) -> Counter:
        return Counter(g.reason for g in self.counted)

    def repeats(self) -> int:
        """Games that repeated an earlier one move for move, with the same
        players on the same sides: what two players that always answer alike
        play from the same opening. They add nothing to what the score says."""
        seen = set()
        count = 0
        for g in self.counted:
            key = (g.attackers, g.defenders, g.start, tuple(g.moves))
            count += key in seen
            seen.add(key)
        return count

    def faults(self) -> dict:
        out: dict = {name: Counter() for name in self.names}
        for g in self.counted:
            if g.fault:
                out[g.fault][g.reason] += 1
        return out

    def times(self, name: str) -> dict:
        """Answer times of a player in milliseconds: its first answers and
        its later ones, each with the count, median and worst; and how many
        came late."""
        firsts = [g.first_ms[name] for g in self.counted if name in g.first_ms]
        later = [t for g in self.counted for t in g.turn_ms.get(name, [])]
        return {"first": _spread(firsts), "later": _spread(later),
                "late": sum(g.late.get(name, 0) for g in self.counted)}

    # -- writing -------------------------------------------------------------------

    def progress_text(self) -> str:
        """A short line for the progress bar."""
        if len(self.players) == 2:
            a = self.names[0]
            t = self.tally
            w, d, l = t.counts(a)
            text = f"{a} {w}-{d}-{l}"
            score = t.score(a)
            if score is not None:
                elo = t.elo()
                text += f" ({100 * score:.1f}%) Elo {format_elo(elo.elo)}"
                if elo.spread():
                    text += f" {elo.spread()}"
            s = self.sprt()
            if s is not None:
                text += f" LLR {s.llr:.2f}"
            return text
        leader = max(self.standings(), key=lambda r: (r["score"] or 0.0))
        return f"leader {leader['name']} {100 * (leader['score'] or 0):.1f}%"

    def as_dict(self) -> dict:
        sprt = self.sprt()
        standings = []
        for row in self.standings():
            row = dict(row)
            row["score"] = None if row["score"] is None else round(row["score"], 5)
            row["as_attackers"] = dict(zip(("wins", "draws", "losses"), row["as_attackers"]))
            row["as_defenders"] = dict(zip(("wins", "draws", "losses"), row["as_defenders"]))
            row["elo"] = row["elo"].as_dict()
            standings.append(row)
        cross = {a: {b: dict(zip(("wins", "draws", "losses"), self.pair_tally(a, b).counts(a)))
                     for b in self.names if b != a} for a in self.names}
        out: dict[str, Any] = dict(self.settings)
        out.update({
            "players": {name: what for name, what in self.players},
            "games_requested": self.games_requested,
            "games_played": len(self.counted),
            "stopped_early": self.stopped_early,
            "interrupted": self.interrupted,
            "errors": len(self.errors),
            "replayed": self.replayed,
            "standings": standings,
            "crosstable": cross,
            "sides": dict(zip(("attackers", "draws", "defenders"), self.side_wins())),
            "sprt": None if sprt is None else sprt.as_dict(),
            "endings": dict(sorted(self.endings().items())),
            "repeats": self.repeats(),
            "faults": {name: dict(v) for name, v in self.faults().items()},
            "times_ms": {name: self.times(name) for name in self.names},
            "seconds": round(self.seconds, 3),
            "games": [g.as_dict(stderr=False) for g in self.games],
        })
        if len(self.players) == 2:
            out["results"] = self.tally.as_dict()
            out["score"] = self.tally.score(self.names[0])
            out["elo"] = self.tally.elo().as_dict()
            penta = self.pentanomial()
            out["pairs"] = dict(penta.as_dict(), elo=penta.elo().as_dict())
            out["sprt_by"] = self.sprt_by
        return out

    def summary(self) -> str:
        """The report a person reads."""
        lines = []
        head = f"{len(self.counted)} games"
        if self.settings.get("variant"):
            head += f" under {self.settings['variant']}"
        if self.settings.get("clock"):
            head += f", {self.settings['clock']}"
        if len(self.counted) < self.games_requested:
            why = ("stopped by the SPRT" if self.stopped_early else
                   "interrupted" if self.interrupted else "some games were not counted")
            head += f" ({self.games_requested} asked; {why})"
        lines.append(head)
        for name, what in self.players:
            lines.append(f"  {name} = {what}")
        lines.append("")
        width = max(4, *(len(n) for n in self.names)) + 2
        lines.append(f"  {'':{width}}{'wins':>6}{'draws':>7}{'losses':>8}{'score':>8}"
                     f"   {'as attackers':>14}   {'as defenders':>14}   Elo")
        for row in self.standings():
            pct = "-" if row["score"] is None else f"{100 * row['score']:.1f}%"
            sides = ["{}-{}-{}".format(*row[k]) for k in ("as_attackers", "as_defenders")]
            elo_text = _elo_cell(row["elo"])
            lines.append(f"  {row['name']:{width}}{row['wins']:>6}{row['draws']:>7}{row['losses']:>8}"
                         f"{pct:>8}   {sides[0]:>14}   {sides[1]:>14}   {elo_text}")
        lines.append("  (by side: wins-draws-losses; Elo "
                     + ("of each against the other)" if len(self.players) == 2 else
                        "of each against the field)"))
        att, draws, dfn = self.side_wins()
        lines.append(f"  attackers won {att}, defenders won {dfn}, drawn {draws}")
        lines.append("")
        if len(self.players) == 2:
            a, b = self.names
            lines.append(f"Elo {a} - {b}: {self.tally.elo().text()}")
            penta = self.pentanomial()
            if penta.pairs:
                lines.append(f"pairs (one opening, sides swapped), {a}'s points of 2: {penta.text()}")
                lines.append(f"Elo {a} - {b} from the {penta.pairs} pairs: {penta.elo().text()}")
        else:
            lines.append("crosstable (row against column: wins-draws-losses of the row):")
            cell = max(9, width)
            lines.append(f"  {'':{width}}" + "".join(f"{n:>{cell}}" for n in self.names))
            for a in self.names:
                cells = []
                for b in self.names:
                    cells.append("-" if a == b else "{}-{}-{}".format(*self.pair_tally(a, b).counts(a)))
                lines.append(f"  {a:{width}}" + "".join(f"{c:>{cell}}" for c in cells))
        sprt = self.sprt()
        if sprt is not None:
            counted = "games" if self.sprt_by == "games" else f"{self.pentanomial().pairs} pairs, pentanomial"
            lines.append(f"SPRT ({counted}): {sprt.text()}")
        endings = self.endings()
        if endings:
            lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
        repeats = self.repeats()
        if repeats:
            lines.append(f"repeats: {repeats} of {len(self.counted)} games repeated an earlier game move "
                         "for move (the players answer alike from the same opening; --random-plies N "
                         "gives each pair of games an opening of its own)")
        faults = self.faults()
        shown = [f"{n} " + ", ".join(f"{k} {v}" for k, v in sorted(faults[n].items()))
                 for n in self.names if faults[n]]
        lines.append("faults: " + ("; ".join(shown) if shown else "none"))
        if self.errors:
            lines.append(f"arena errors: {len(self.errors)} games (not counted)")
        if self.replayed:
            lines.append(f"replayed: {self.replayed} games lost with their worker were played again "
                         "(each counted once)")
        note = (" (a program's first answer is timed from its input, and may hold its start-up)"
                if self.settings.get("clock") else "")
        lines.append(f"answer times in ms, median / worst{note}:")
        limits = self.settings.get("limits") or {}
        first_limit = f" (limit {limits['first_ms']:g})" if limits.get("first_ms") else ""
        turn_limit = f" (limit {limits['turn_ms']:g})" if limits.get("turn_ms") else ""
        for name in self.names:
            tm = self.times(name)
            lines.append(f"  {name:{width}}first answer {_fmt(tm['first'])}{first_limit}   later answers "
                         f"{_fmt(tm['later'])}{turn_limit}" + (f"   late {tm['late']}" if tm["late"] else ""))
        lines.append(f"time {self.seconds:.1f} s")
        if self.interrupted:
            lines.append("interrupted: the figures above are of the games finished before the stop")
        return "\n".join(lines)


def _elo_cell(elo: EloEstimate) -> str:
    """A player's Elo with its 95% interval, as the table shows it: ``+12.3
    ± 45`` or ``-41/+178``; where an end is infinite (a score so near 0% or
    100% that the interval reaches past it), the two ends, ``+190.8 (-35 to
    +inf)``, so that no row goes without its interval.

    >>> _elo_cell(elo_estimate(6, 0, 2)), _elo_cell(elo_estimate(4, 0, 4))
    ('+190.8 (-35 to +inf)', '+0.0 ± 297')
    """
    if elo.elo is None:
        return "-"
    spread = elo.spread()
    if spread:
        return f"{format_elo(elo.elo)} {spread}"
    ends = [format_elo(end) if end is None or math.isinf(end) else f"{end:+.0f}" for end in (elo.low, elo.high)]
    return f"{format_elo(elo.elo)} ({ends[0]} to {ends[1]})"


def _spread(values: list) -> dict:
    if not values:
        return {"count": 0, "median": None, "max": None}
    return {"count": len(values), "median": round(statistics.median(values), 3),
            "max": round(max(values), 3)}


def _fmt(spread: dict) -> str:
    if not spread["count"]:
        return "-"
    return f"{spread['median']:.1f} / {spread['max']:.1f}"

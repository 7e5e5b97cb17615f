"""Where the games of an event start: one reader for every kind of opening.

An opening is a position and moves already played from it; the moves are
part of each game's record (so a repetition counts them), and the first
player to answer is told the last of them. Openings come from text in any
of three forms, mixed freely, one opening a line or a block:

- a position string: ``3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a``;
- a game text (``variant``, ``start``, ``moves`` and ``result`` lines, as
  :meth:`brandubh.Game.as_text` writes them, annotated or not; a blank
  line ends a game; its variant and result lines are read past, the
  event's rules apply);
- a bare ``moves d2c2 d3c3`` line: moves from the set-up;
- a whole file in one of the other forms :func:`brandubh.records.read_texts`
  reads: a ``referee --save`` record, or an OpenTafl game record.

Lines starting with ``#`` are labels (so the game file an event writes,
``--games-out``, reads back as openings).

The source tree ships a *balanced book* a preset in ``bench/``
(``bench/book-brandubh.txt``...: openings the engine gives either side 40%
to 60%, made by ``tools/make-books``): :func:`balanced_book` finds the one
of a rule set, and ``--openings balanced`` names it.

>>> opening = parse_openings('moves d2c2 d3c3')[0]
>>> opening.start == SETUP, opening.moves, opening.text()
(True, ('d2c2', 'd3c3'), 'moves d2c2 d3c3')
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from .. import notation
from ..errors import BrandubhError, quote
from ..records import read_game_file, read_texts
from ..variant import Variant, VariantLike, as_variant

__all__ = ["SETUP", "Opening", "parse_openings", "load_openings", "random_openings", "balanced_book",
           "BALANCED", "BOOKS"]

SETUP = notation.SETUP

#: Where the source tree keeps the balanced books (not in an installed
#: package: they are for testing the engine, made and shipped with its source).
BOOKS = Path(__file__).resolve().parent.parent.parent / "bench"

#: What ``--openings`` takes for the rules' balanced book.
BALANCED = "balanced"


def balanced_book(variant: VariantLike = "brandubh") -> Optional[Path]:
    """The balanced book of a preset (``bench/book-PRESET.txt``), or None
    for a rule set that is no preset (a book's openings are judged under
    its preset's rules alone) or where the file is not there (an installed
    package, without the source tree's ``bench/``).

    >>> balanced_book('modern').name, balanced_book('codingame quiet_cap=60')
    ('book-modern.txt', None)
    """
    from ..variant import PRESETS

    v = as_variant(variant)
    name = v.nearest
    if PRESETS[name] != v:
        return None
    path = BOOKS / f"book-{name}.txt"
    return path if path.is_file() else None


@dataclass(frozen=True)
class Opening:
    """Where a game starts: a ``start`` position and ``moves`` (stored
    form, ``'d2c2'``) already played from it; ``label`` says where it came
    from (``'line 3'``, ``'set-up + 2 random'``)."""

    start: str = SETUP
    moves: tuple[str, ...] = ()
    label: str = "set-up"

    def text(self) -> str:
        """The opening as one line: a position, or ``moves ...``.

        >>> Opening('7/7/7/3k3/7/7/a6 d').text()
        '7/7/7/3k3/7/7/a6 d'
        """
        if not self.moves:
            return self.start
        played = " ".join(self.moves)
        if self.start == SETUP:
            return f"moves {played}"
        return f"start {self.start} / moves {played}"

    def game(self, variant: VariantLike, attackers: str = "p1"):
        """A :class:`~brandubh.Game` at the end of the opening;
        BrandubhError when a move is refused or the game is already over."""
        from ..game import Game

        game = Game(attackers, variant=variant, position=self.start)
        for mv in self.moves:
            refused = game.play(mv)
            if refused is not None:
                raise BrandubhError(f"{mv} is not legal here: {refused}")
        if game.status != "active":
            after = f"after {self.moves[-1]}" if self.moves else "before any move"
            raise BrandubhError(f"the game is over {after} ({game.result.how})")  # type: ignore[union-attr]
        return game


def _checked(opening: Opening, variant: Variant, where: str) -> Opening:
    try:
        opening.game(variant)
    except BrandubhError as exc:
        raise BrandubhError(f"{where}: {exc}") from None
    return opening


def parse_openings(text: str, variant: VariantLike = "codingame", source: str = "openings") -> list[Opening]:
    """The openings in ``text`` (the forms above, read by
    :func:`brandubh.records.read_texts`, which also takes a ``referee
    --save`` record and an OpenTafl game record), each checked under
    ``variant``: its moves legal, and the game not over. BrandubhError,
    naming ``source`` and the line, for anything else.

    >>> [o.label for o in parse_openings('# two\\n7/7/7/3k3/7/7/a6 d\\nmoves d2c2\\n')]
    ['line 2', 'line 3']
    """
    v = as_variant(variant)
    if not str(text).strip():
        return []
    try:
        games = read_texts(str(text), openings=True)
    except BrandubhError as exc:
        raise BrandubhError(f"{source}, {exc}") from None
    out: list[Opening] = []
    for game in games:
        where = f"{source}, line {game.line}"
        out.append(_checked(Opening(game.start, game.moves, f"line {game.line}"), v, where))
    return out


def load_openings(path: str, variant: VariantLike = "codingame") -> list[Opening]:
    """:func:`parse_openings` of a file, read as every game file is
    (:func:`brandubh.records.read_game_file`: within one bound, a FIFO or a
    device refused); BrandubhError when it cannot be read or holds no
    opening."""
    text = read_game_file(path, "openings file")
    out = parse_openings(text, variant, source=path)
    if not out:
        raise BrandubhError(f"the openings file {quote(path)} holds no opening")
    return out


def random_openings(count: int, plies: int, seed: int = 1, variant: VariantLike = "codingame",
                    bases: Sequence[Opening] = (Opening(),), distinct: bool = False,
                    on_exhausted: Optional[Callable[[int], None]] = None) -> list[Opening]:
    """``count`` openings, each ``plies`` random legal moves played after a
    base opening (the bases taken in turn), none of them over; with
    ``distinct``, no two end in the same position, until the tries find no
    new one: from then on repeats are taken as they come (one try each, not
    a thousand), and ``on_exhausted(n)`` is told how many distinct ones
    there were. The same arguments give the same openings.

    >>> said = []
    >>> few = random_openings(30, 1, seed=5, distinct=True, on_exhausted=said.append)
    >>> len(few), said   # 40 first moves of the set-up, some of them alike after one ply
    (30, [])
    >>> many = random_openings(100, 1, seed=5, distinct=True, on_exhausted=said.append)
    >>> len(many), said
    (100, [40])

    >>> a = random_openings(3, 4, seed=5)
    >>> a == random_openings(3, 4, seed=5), [len(o.moves) for o in a]
    (True, [4, 4, 4])
    """
    from ..core.position import move_text
    from ..core.rules import Rules

    v = as_variant(variant)
    rng = random.Random(f"brandubh openings {seed}")
    out: list[Opening] = []
    seen: set = set()
    want_new = distinct
    for i in range(count):
        base = bases[i % len(bases)]
        found, where = None, ""
        for _attempt in range(1000):
            r = Rules(base.start, v)
            for m in base.moves:
                r.play(m)
            extra: list[str] = []
            while len(extra) < plies and not r.is_over():
                number = rng.choice(r.moves())
                r.play(number)
                extra.append(move_text(number))
            if r.is_over():
                continue
            found, where = extra, r.position
            if not want_new or where not in seen:
                break
        if found is None:
            raise BrandubhError(f"no {plies}-move random opening from {base.label} that is not over")
        if want_new and where in seen:
            # No new position in a thousand tries: there are no more to find.
            want_new = False
            if on_exhausted is not None:
                on_exhausted(len(seen))
        seen.add(where)
        label = base.label if plies == 0 else f"{base.label} + {plies} random"
        out.append(Opening(base.start, base.moves + tuple(found), label))
    return out


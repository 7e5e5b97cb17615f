"""Endgame tables: perfect play with the king and a few soldiers, built,
written to files, read back and probed (docs/proofs.md, "Endgame tables").

:func:`build_tables` builds every material signature up to a number of
soldiers beside the king (:class:`brandubh.core.endgame.EndgameTables`, in
C), writing each table to its own file in a folder as soon as it is done,
whole (:mod:`brandubh.files`); a table whose file is there already is read
instead, so a build stopped part way goes on where it stopped.
:func:`load_tables` reads a folder's tables for a variant, and
:func:`probe` says what a position comes to.

A file: the line ``brandubh endgame table``, a line of JSON (the format, the
rules' key, the variant, the signature, the counts and the data's SHA-256),
then one byte a position (csrc/endgame.c).

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> tables = build_tables(1, 'brandubh', folder)
>>> probe('7/7/7/3k3/7/7/1a5 d', tables).sentence()
'the defenders win in 3 plies (a table win)'
>>> probe('7/7/7/3k3/7/7/1a5 d', load_tables(folder, 'brandubh')).plies
3
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import asdict, dataclass
from typing import Any, Callable, Optional, Union

from .core.endgame import (MAX_SOLDIERS, EndgameTables, Probe, TableStats, entries, every_core, rules_key,
                           signatures)
from .errors import ArgumentError, quote
from .files import WholeFile, open_regular
from .game import Game
from .variant import VariantLike, as_variant

__all__ = ["build_tables", "load_tables", "probe", "TableProbe", "TableView", "table_view", "table_path", "FORMAT",
           "MAGIC", "EndgameTables", "Probe", "TableStats"]

#: The first line of every table file.
MAGIC = b"brandubh endgame table\n"
#: The files' format, in their header: a reader refuses any other.
FORMAT = 1
#: The longest header line read.
_HEADER_LIMIT = 4096


def table_path(folder: Union[str, "os.PathLike[str]"], variant: VariantLike, attackers: int, defenders: int) -> str:
    """The file of one signature's table for a variant's rules in a folder:
    named by the rules' key (:func:`~brandubh.core.endgame.rules_key`), so
    that the tables of several rule sets share a folder, and presets whose
    tables are the same share files."""
    return os.path.join(os.fspath(folder), f"{rules_key(variant)}-{attackers}a{defenders}d.egtb")


def _write(path: str, tables: EndgameTables, stats: TableStats) -> None:
    data = tables.data(stats.attackers, stats.defenders)
    header = {"format": FORMAT, "rules": rules_key(tables.variant), "variant": tables.variant.as_string(),
              **asdict(stats), "sha256": hashlib.sha256(data).hexdigest()}
    with WholeFile(path) as new:
        new.file.write(MAGIC + json.dumps(header, sort_keys=True).encode("ascii") + b"\n")
        new.file.write(data)


def _read(path: str, tables: EndgameTables, attackers: int, defenders: int) -> None:
    """Read one table file into the set: an ArgumentError naming the file
    for anything that is not this table, whole."""
    def bad(why: str) -> ArgumentError:
        return ArgumentError(f"{quote(path, 200)} is not a usable endgame table: {why}")

    with open_regular(path, "endgame table") as f:
        if f.read(len(MAGIC)) != MAGIC:
            raise bad("it does not begin as one")
        line = f.readline(_HEADER_LIMIT)
        try:
            header = json.loads(line)
            fields = {name: int(header[name]) for name in TableStats.__dataclass_fields__}
            fmt, key, digest = header["format"], header["rules"], header["sha256"]
        except (ValueError, KeyError, TypeError):
            raise bad("its header is not readable") from None
        if fmt != FORMAT:
            raise bad(f"it is of format {quote(fmt)}, and this version reads format {FORMAT}")
        if key != rules_key(tables.variant):
            raise bad(f"it was built for other rules ({quote(header.get('variant'))})")
        if (fields["attackers"], fields["defenders"]) != (attackers, defenders):
            raise bad(f"it holds {fields['attackers']} attackers and {fields['defenders']} defenders")
        size = entries(attackers, defenders)
        data = f.read(size + 1)
    if len(data) != size or fields["entries"] != size:
        raise bad(f"it has {len(data):,} bytes of table where {size:,} are due (cut short, or longer)")
    if hashlib.sha256(data).hexdigest() != digest:
        raise bad("its bytes are not those it was written with (damaged)")
    tables.load(TableStats(**fields), data)


def build_tables(pieces: int, variant: VariantLike = "brandubh", out: Optional[Union[str, "os.PathLike[str]"]] = None,
                 threads: Optional[int] = None, stop: Optional[threading.Event] = None,
                 progress: Optional[Callable[[TableStats, bool], None]] = None) -> EndgameTables:
    """Build every table with the king and up to ``pieces`` soldiers for the
    variant's rules, on ``threads`` threads (by default every core). With a
    folder ``out``: each table is written there as soon as it is built, and
    a table whose file is there already is read instead (a build stopped by
    Ctrl-C goes on where it stopped). ``progress(stats, read)`` is called
    after each table (``read``: it came from its file)."""
    order = signatures(pieces)
    v = as_variant(variant)
    if out is not None:
        os.makedirs(os.fspath(out), exist_ok=True)
    tables = EndgameTables(v)
    threads = every_core(threads)
    for attackers, defenders in order:
        path = table_path(out, v, attackers, defenders) if out is not None else None
        if path is not None and os.path.exists(path):
            _read(path, tables, attackers, defenders)
            stats, read = tables.tables[(attackers, defenders)], True
        else:
            stats, read = tables.build(attackers, defenders, threads=threads, stop=stop), False
            if path is not None:
                _write(path, tables, stats)
        if progress is not None:
            progress(stats, read)
    return tables


def load_tables(folder: Union[str, "os.PathLike[str]"], variant: VariantLike = "brandubh",
                pieces: Optional[int] = None) -> EndgameTables:
    """The tables of a folder for the variant's rules: every signature up to
    ``pieces`` soldiers (each must be there), or by default as many as the
    folder holds whole (every signature with one soldier, then two, ...)."""
    v = as_variant(variant)
    tables = EndgameTables(v)
    if not os.path.isdir(os.fspath(folder)):
        raise ArgumentError(f"{quote(os.fspath(folder), 200)} is not a folder of endgame tables")
    n = 0
    while n <= MAX_SOLDIERS and (pieces is None or n <= pieces):
        level = [(a, n - a) for a in range(n + 1)]
        paths = [table_path(folder, v, a, d) for a, d in level]
        if pieces is None and not all(os.path.exists(p) for p in paths):
            break
        for (a, d), path in zip(level, paths):
            if not os.path.exists(path):
                raise ArgumentError(f"{quote(os.fspath(folder), 200)} has no table of {a} attackers and {d} "
                                    f"defenders for {v.as_string()} (build it: brandubh tables build)")
            _read(path, tables, a, d)
        n += 1
    return tables


@dataclass(frozen=True)
class TableProbe:
    """What the tables say of a position: its ``side`` to move, the
    ``value`` for that side ("win", "draw", "loss") and the ``plies`` to
    the end with best play; ``winner`` the side that wins, or None."""

    position: str
    side: str
    value: str
    plies: int
    repetition: str

    @property
    def winner(self) -> Optional[str]:
        if self.value == "draw":
            return None
        other = "defenders" if self.side == "attackers" else "attackers"
        return self.side if self.value == "win" else other

    def sentence(self) -> str:
        """``'the defenders win in 3 plies (a table win)'``, or a draw's."""
        if self.winner is None:
            if self.repetition == "draw":
                return "a draw: neither side can force the end (a table draw)"
            return "neither side can force a win without a repetition (a table draw; under repetition = loss " \
                   "a side may still win by forcing the other to repeat)"
        return f"the {self.winner} win in {self.plies} plies (a table win)"


def probe(position: Union[str, Game], tables: EndgameTables) -> Optional[TableProbe]:
    """What the tables say of a position string, or of a game as it stands
    (its rules must be the tables'); None when no table of the set holds
    it."""
    if isinstance(position, Game):
        if rules_key(position.variant) != rules_key(tables.variant):
            raise ArgumentError("the game's rules are not those the tables were built for")
        text = position.position
    else:
        text = position
    found = tables.probe(text)
    if found is None:
        return None
    side = "attackers" if text.endswith(" a") else "defenders"
    return TableProbe(text, side, found.value, found.plies, tables.variant.repetition)


@dataclass(frozen=True)
class TableView:
    """What the tables say of a game's position, as the page shows it: the
    ``side`` to move, the ``value`` for that side and the ``plies`` to the
    end, the ``winner`` (None for a draw), the fastest move that keeps a
    win (``keeps``, ``d4d1``, and ``keeps_shown``, ``Kd4-d1``; None but for
    a win), and ``says``: the review's words for the value
    (:func:`brandubh.review.table_words`), the side and the move."""

    side: str
    value: str
    plies: int
    winner: Optional[str]
    keeps: Optional[str]
    keeps_shown: Optional[str]
    says: str

    def as_dict(self) -> dict[str, Any]:
        """The fields, for JSON."""
        return asdict(self)


def table_view(game: Game) -> Optional[TableView]:
    """What the game's endgame tables (:attr:`Game.endgame
    <brandubh.Game.endgame>`) say of its position as it stands, or None
    when it has none, they do not hold it, or the game is over.

    >>> game = Game(position='7/7/7/3k3/7/7/1a5 d')
    >>> game.endgame = build_tables(1, 'brandubh')
    >>> table_view(game).says
    'a table win in 3 for the defenders: Kd4-d1 keeps it'
    """
    from .core.outcomes import Outcome
    from .core.position import move_text
    from .core.rules import Rules
    from .review import table_words

    found = game.table_value()
    tables = game.endgame
    if found is None or tables is None:
        return None
    side = str(game.side_to_move)
    other = "attackers" if side == "defenders" else "defenders"
    winner = side if found.value == "win" else other if found.value == "loss" else None
    keeps: Optional[str] = None
    if found.value == "win":
        # The first move (in the order the rules list them) that wins at
        # once, for a win in 1, or leaves the other side a table loss one
        # ply shorter.
        rules = Rules(game.position, tables.variant)
        for move, _captured, outcome, mover_won in rules.legal():
            if outcome != Outcome.ONGOING:
                if found.plies == 1 and mover_won == side:
                    keeps = move_text(move)
                    break
                continue
            rules.play(move)
            after = tables.probe(rules.position)
            rules.undo()
            if after is not None and after.value == "loss" and after.plies == found.plies - 1:
                keeps = move_text(move)
                break
    shown = game.shown_of(keeps) if keeps is not None else None
    says = f"{table_words(found)} for the {side}" + (f": {shown} keeps it" if shown else "")
    return TableView(side, found.value, found.plies, winner, keeps, shown, says)

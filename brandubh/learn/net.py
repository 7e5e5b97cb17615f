"""The learned evaluation's layout, its net files and a Python copy of it.

The learned evaluation (csrc/learned.c) scores a position, from the
attackers' side, as a sum of table entries: for each soldier, the entry of
the pair (the king's square, the soldier's square) in the attackers' table
or the defenders'; the king's entry for his square; and a weight for each
of four counts (:data:`INPUTS`). The pairs are taken up to the board's
eight symmetries (turns and mirror images): a pair and its seven images
share one entry, so a table has :data:`PAIRS` entries, not 49 * 49, and the
evaluation is symmetric by construction.

A *net file* is JSON: the tables as whole numbers (what C adds up), the
sigmoid scale the trainer fitted, and notes on how it was made.
``brandubh train`` writes one; ``tools/gen_learned.py`` turns one into
csrc/learned_weights.c, which is compiled in.

>>> PAIRS, len(PAIR), PAIR[24][24] == PAIR[24][24]
(325, 49, True)
>>> PAIR[0][1] == PAIR[0][7] == PAIR[6][5] == PAIR[48][47]   # mirror images
True
>>> net = zero_net()
>>> evaluate(net, 'brandubh', '3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a')
0
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Sequence, Union

from ..errors import ArgumentError, NetError, quote
from ..files import open_regular, write_whole

__all__ = ["SYMMETRIES", "PAIR", "PAIRS", "INPUTS", "KING_CAPTURES", "NetError", "images", "zero_net",
           "check_net", "load_net", "save_net", "counts", "evaluate", "c_source"]

N = 7
SQUARES = N * N

#: The eight symmetries of the board, each as a function of (rank, file).
SYMMETRIES = (
    lambda r, f: (r, f), lambda r, f: (f, r), lambda r, f: (N - 1 - r, f), lambda r, f: (r, N - 1 - f),
    lambda r, f: (N - 1 - r, N - 1 - f), lambda r, f: (N - 1 - f, N - 1 - r),
    lambda r, f: (f, N - 1 - r), lambda r, f: (N - 1 - f, r),
)

#: The four counts (enum bd_learned_input of csrc/brandubh.h, in its order).
INPUTS = ("lane_one", "lane_two", "freedom", "to_move")

#: The king_capture modes in the order of enum bd_king_capture: a net's
#: ``set_of`` gives the set of tables each uses.
KING_CAPTURES = ("nielsen", "two", "four_two", "four")

FORMAT = "brandubh-learned"
VERSION = 1


def images(square: int) -> list[int]:
    """The square's images under the eight symmetries, in their order.

    >>> images(0)
    [0, 0, 42, 6, 48, 48, 6, 42]
    """
    r, f = divmod(square, N)
    return [a * N + b for a, b in (s(r, f) for s in SYMMETRIES)]


def _pairs() -> list[list[int]]:
    canon = [[min(a * SQUARES + b for a, b in zip(images(k), images(s))) for s in range(SQUARES)]
             for k in range(SQUARES)]
    number = {key: i for i, key in enumerate(sorted({key for row in canon for key in row}))}
    return [[number[key] for key in row] for row in canon]


#: PAIR[king][square]: the number of the pair up to symmetry.
PAIR: list[list[int]] = _pairs()
#: How many numbers there are (csrc/learned.h's BD_LEARNED_PAIRS).
PAIRS = 1 + max(max(row) for row in PAIR)


def zero_net(sets: int = 1) -> dict:
    """A net of zeros (every variant on set 0): the learned evaluation says
    0 of every position with a king."""
    return {"format": FORMAT, "version": VERSION, "pairs": PAIRS, "inputs": list(INPUTS),
            "set_of": [0] * len(KING_CAPTURES), "scale": 400.0,
            "att": [[0] * PAIRS for _ in range(sets)], "def": [[0] * PAIRS for _ in range(sets)],
            "king": [[0] * PAIRS for _ in range(sets)], "input_w": [[0] * len(INPUTS) for _ in range(sets)],
            "bias": [0] * sets, "notes": {}}


def _whole_rows(net: Mapping[str, Any], key: str, sets: int, width: int) -> None:
    rows = net.get(key)
    if not isinstance(rows, list) or len(rows) != sets:
        raise NetError(f"{key} must be a list of {sets} tables")
    for row in rows:
        if not isinstance(row, list) or len(row) != width:
            raise NetError(f"each table of {key} must have {width} entries")
        for x in row:
            if not isinstance(x, int) or isinstance(x, bool) or not -32768 <= x <= 32767:
                raise NetError(f"{key} holds {quote(x)}, not a whole number from -32768 to 32767")


def check_net(net: Any) -> dict:
    """The net, checked: NetError saying what is wrong."""
    if not isinstance(net, dict) or net.get("format") != FORMAT:
        raise NetError(f"not a learned evaluation: its format is not {FORMAT!r}")
    if net.get("version") != VERSION:
        raise NetError(f"a learned evaluation of version {quote(net.get('version'))}; this package reads {VERSION}")
    if net.get("pairs") != PAIRS or list(net.get("inputs", ())) != list(INPUTS):
        raise NetError(f"a learned evaluation of another layout (pairs {quote(net.get('pairs'))}, "
                       f"inputs {quote(net.get('inputs'))})")
    bias = net.get("bias")
    if not isinstance(bias, list) or not 1 <= len(bias) <= 4:
        raise NetError("bias must be a list of one to four whole numbers, one for each set")
    sets = len(bias)
    _whole_rows(net, "att", sets, PAIRS)
    _whole_rows(net, "def", sets, PAIRS)
    _whole_rows(net, "king", sets, PAIRS)
    _whole_rows(net, "input_w", sets, len(INPUTS))
    _whole_rows({"bias": [bias]}, "bias", 1, sets)
    set_of = net.get("set_of")
    if (not isinstance(set_of, list) or len(set_of) != len(KING_CAPTURES)
            or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < sets for s in set_of)):
        raise NetError(f"set_of must give each of the {len(KING_CAPTURES)} king_capture modes a set from 0 to {sets - 1}")
    scale = net.get("scale")
    if not isinstance(scale, (int, float)) or isinstance(scale, bool) or not 1 <= scale <= 100_000:
        raise NetError(f"scale must be a number from 1 to 100000, not {quote(scale)}")
    return net


def load_net(path: Union[str, "os.PathLike[str]"]) -> dict:
    """The net a file holds, checked; NetError when it cannot."""
    where = os.fspath(path)
    try:
        with open_regular(where, "net file") as f:
            net = json.loads(f.read().decode("utf-8"))
    except ArgumentError as exc:
        raise NetError(str(exc)) from None
    except OSError as exc:
        raise NetError(f"cannot read the net file {quote(where, 300)}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise NetError(f"the net file {quote(where, 300)} is not JSON: {exc}") from None
    try:
        return check_net(net)
    except NetError as exc:
        raise NetError(f"the net file {quote(where, 300)}: {exc}") from None


def save_net(path: Union[str, "os.PathLike[str]"], net: Mapping[str, Any]) -> None:
    """Write the net (checked first: nothing is written for a bad one)
    whole or not at all (:func:`brandubh.files.write_whole`): a reader
    never sees half a file, and a full disk leaves the old one."""
    check_net(dict(net))
    write_whole(path, json.dumps(net, separators=(",", ":"), sort_keys=True) + "\n")


def board_of(position: str) -> tuple[list[str], int]:
    """A position string read here: the piece letter (``a``, ``d``, ``k``
    or ``.``) on each square, and 1 when the attackers are to move, else 0.
    Ranks are written from the seventh down, as the engine writes them.

    >>> board, to_move = board_of('a6/7/7/3k3/7/7/6d d')
    >>> board[42], board[24], board[6], to_move
    ('a', 'k', 'd', 0)
    """
    try:
        rows, side = position.split()
        ranks = rows.split("/")
        board = ["."] * SQUARES
        for i, text in enumerate(ranks):
            f = 0
            for ch in text:
                if ch.isdigit():
                    f += int(ch)
                else:
                    board[(N - 1 - i) * N + f] = {"a": "a", "d": "d", "k": "k"}[ch]
                    f += 1
            if f != N:
                raise ValueError
        if len(ranks) != N or side not in ("a", "d"):
            raise ValueError
    except (ValueError, KeyError):
        raise NetError(f"{quote(position)} is not a position string") from None
    return board, int(side == "a")


def _slide(square: int, dr: int, df: int, blocked: set) -> list[int]:
    out = []
    r, f = divmod(square, N)
    r, f = r + dr, f + df
    while 0 <= r < N and 0 <= f < N and r * N + f not in blocked:
        out.append(r * N + f)
        r, f = r + dr, f + df
    return out


def counts(variant: Any, position: str) -> list[int]:
    """The four counts of :data:`INPUTS` for a position string, worked out
    here in Python from the rules of docs/rules.md (the king's slides), not
    by the engine: what tests hold the engine's counts to.

    >>> counts('brandubh', '3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a')
    [0, 0, 0, 1]
    >>> counts('brandubh', '7/7/7/3k3/7/7/1a5 d')   # four corners in two moves, none in one
    [0, 4, 12, 0]
    """
    from ..variant import as_variant

    v = as_variant(variant)
    board, to_move = board_of(position)
    king = next((s for s in range(SQUARES) if board[s] == "k"), None)
    if king is None:
        return [0, 0, 0, 0]
    corners = {0, 6, 42, 48}
    edge = {s for s in range(SQUARES) if s // N in (0, N - 1) or s % N in (0, N - 1)}
    escapes = corners if v.escape == "corner" else edge
    pieces = {s for s in range(SQUARES) if board[s] != "."}

    def reach(frm: int, blocked: set) -> set:
        out = set()
        for dr, df in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            line = _slide(frm, dr, df, blocked)
            if not v.throne_pass and 24 in line:  # the throne stops slides through it
                line = line[: line.index(24) + 1] if v.throne_reentry and 24 not in pieces else line[: line.index(24)]
            out.update(line)
        if not v.throne_reentry:
            out.discard(24)
        return out

    blocked = pieces - {king}
    one = reach(king, blocked)
    lane_one = one & escapes
    two: set = set()
    for s in one - escapes:
        two |= reach(s, blocked) & escapes
    two -= lane_one
    return [len(lane_one), len(two), len(one), to_move]


def _set_of(net: Mapping[str, Any], variant: Any) -> int:
    from ..variant import as_variant

    return net["set_of"][KING_CAPTURES.index(as_variant(variant).king_capture)]


def evaluate(net: Mapping[str, Any], variant: Any, position: str) -> int:
    """The learned evaluation of a position string under a variant, in
    Python, from the net's tables and :func:`counts`: what
    ``Rules(position).evaluate({'eval': 'learned'})`` gives when ``net``
    is the net compiled in (tests hold the two to each other)."""
    board, _ = board_of(position)
    king = next((s for s in range(SQUARES) if board[s] == "k"), None)
    if king is None:
        return 100 * (board.count("a") - board.count("d"))
    k = _set_of(net, variant)
    score = net["bias"][k] + net["king"][k][PAIR[king][king]]
    for s, piece in enumerate(board):
        if piece == "a":
            score += net["att"][k][PAIR[king][s]]
        elif piece == "d":
            score += net["def"][k][PAIR[king][s]]
    score += sum(w * x for w, x in zip(net["input_w"][k], counts(variant, position)))
    win = 29_000 - 1
    return max(-win, min(win, score))


def _rows(name: str, ctype: str, rows: Sequence[Sequence[int]], width: str) -> str:
    body = ",\n".join("  {" + ",".join(str(int(x)) for x in row) + "}" for row in rows)
    return f"const {ctype} {name}[{len(rows)}][{width}] = {{\n{body}\n}};\n"


def c_source(net: Mapping[str, Any], header: str = "") -> str:
    """The text of csrc/learned_weights.c for a net (checked first):
    ``header`` goes into its opening comment."""
    check_net(dict(net))
    lines = ["/* Generated by tools/gen_learned.py: do not edit by hand.",
             *(f" * {line}" if line else " *" for line in header.splitlines()), " */",
             '#include "learned.h"', "",
             "const uint16_t BD_LEARNED_PAIR[BD_SQUARES][BD_SQUARES] = {",
             ",\n".join("  {" + ",".join(map(str, row)) + "}" for row in PAIR), "};", "",
             "const uint8_t BD_LEARNED_SET_OF[4] = {" + ",".join(map(str, net["set_of"])) + "};", ""]
    out = "\n".join(lines) + "\n"
    out += _rows("BD_LEARNED_ATT", "int16_t", net["att"], "BD_LEARNED_PAIRS")
    out += _rows("BD_LEARNED_DEF", "int16_t", net["def"], "BD_LEARNED_PAIRS")
    out += _rows("BD_LEARNED_KING", "int16_t", net["king"], "BD_LEARNED_PAIRS")
    out += _rows("BD_LEARNED_INPUT_W", "int16_t", net["input_w"], "BD_LEARNED_INPUTS")
    out += f"const int16_t BD_LEARNED_BIAS[{len(net['bias'])}] = {{" + ",".join(map(str, net["bias"])) + "};\n"
    return out


def read_c_tables(text: str) -> dict:
    """The tables of a csrc/learned_weights.c text (as :func:`c_source`
    writes it), as a net's ``set_of``, ``att``, ``def``, ``king``,
    ``input_w`` and ``bias``."""
    import re

    def rows(name: str) -> list:
        m = re.search(r"\b" + name + r"\[[^=]*=\s*\{(.*?)\};", text, re.S)
        if m is None:
            raise NetError(f"no table {name} in the learned weights")
        inner = re.findall(r"\{([^{}]*)\}", m.group(1)) or [m.group(1)]
        return [[int(x) for x in row.split(",")] for row in inner]

    return {"set_of": rows("BD_LEARNED_SET_OF")[0], "att": rows("BD_LEARNED_ATT"), "def": rows("BD_LEARNED_DEF"),
            "king": rows("BD_LEARNED_KING"), "input_w": rows("BD_LEARNED_INPUT_W"),
            "bias": rows("BD_LEARNED_BIAS")[0]}

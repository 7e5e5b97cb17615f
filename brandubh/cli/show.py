"""``brandubh show``: a position of a saved game, as text or as a picture.

    brandubh show game.txt                 # the board at the end of the game
    brandubh show game.txt --ply 12        # after the first 12 moves
    brandubh show game.txt --ply -1        # one move before the end
    brandubh show game.txt --svg end.svg   # the same board as an SVG picture
    brandubh show games.txt --game 3       # game 3 of a file of several
    brandubh show record.otg               # an OpenTafl game record

The game file is any game text this package reads
(:func:`brandubh.records.read_texts`; docs/records.md): a game text
(docs/rules.md, "Game text") as ``Game.as_text()``, ``brandubh play``'s
``save FILE`` and the arena's logs write it, annotated or not; a file of
several games after ``#`` lines, as ``brandubh match --games-out`` writes
it (``--game N`` picks one, the first by default); a ``referee --save``
record; an OpenTafl game record (``.otg``). ``-`` reads it from standard
input. The board is drawn by
:func:`brandubh.views.text.diagram` (Unicode when the output can write it, ASCII
with ``--ascii``) and :func:`brandubh.views.svg.board`, with the last move
marked and what it captured.

>>> from brandubh.cli import main
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), 'game.txt')
>>> with open(path, 'w') as f:
...     _ = f.write('variant brandubh\\nstart 7/7/7/3k3/7/7/a6 d\\nmoves d4d1 a1a2 d1g1\\n')
>>> main(['show', path, '--ply', '1', '--ascii'])
    a  b  c  d  e  f  g
  +---------------------+
7 | #  .  .  .  .  .  # | 7
6 | .  .  .  .  .  .  . | 6
5 | .  .  .  .  .  .  . | 5
4 | .  .  . [+] .  .  . | 4
3 | .  .  .  .  .  .  . | 3
2 | .  .  .  .  .  .  . | 2
1 | A  .  . [K] .  .  # | 1
  +---------------------+
    a  b  c  d  e  f  g
attackers (p1) to move; ply 1; last move Kd4-d1
rules brandubh; ply 1 of 3
moves: Kd4-d1
0
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TYPE_CHECKING, Any, Optional, TextIO

from ..errors import ArgumentError
from ..words import plural

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["register", "run", "at_ply"]

_DESCRIPTION = """\
Print the board of a saved game at its end or after any number of its
moves, with whose move it is, the last move and what it captured; or draw
it as an SVG picture. The game file is a game text (as 'brandubh play'
saves it and Game.as_text() writes it), a file of several games (as
'brandubh match --games-out' writes it: --game N picks one), a 'brandubh
referee --save' record, or an OpenTafl game record (.otg)."""

_EPILOG = """\
examples:
  brandubh show game.txt
  brandubh show game.txt --ply 12
  brandubh show game.txt --ply -1 --ascii
  brandubh show game.txt --svg board.svg --flipped
  brandubh show games.txt --game 3
  brandubh show record.otg --ply 10

Exit status: 0, 2 for a file that cannot be read, is not a game or has no
game N, or a ply out of range."""


def register(subparsers: Any) -> None:
    """Add the ``show`` command to the ``brandubh`` command's subparsers."""
    p = subparsers.add_parser(
        "show", help="print or draw a position of a saved game",
        description=_DESCRIPTION, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    from ..argtypes import whole

    p.add_argument("game_file", metavar="GAME_FILE",
                   help="a game file: a game text, a file of games, a referee record or an OpenTafl "
                        "record ('-' reads standard input)")
    p.add_argument("--game", type=whole(1), default=1, metavar="N",
                   help="game N of a file of several (default 1, the first)")
    p.add_argument("--ply", type=int, default=None, metavar="N",
                   help="the board after the first N moves (default: the end); a negative N counts "
                        "back from the end")
    p.add_argument("--svg", metavar="OUT", default=None,
                   help="write the board as an SVG picture to OUT ('-' for standard output) "
                        "instead of printing it")
    p.add_argument("--size", type=int, default=400, metavar="PIXELS",
                   help="the picture's width and height (default 400)")
    p.add_argument("--flipped", action="store_true", help="the board seen from the other side")
    p.add_argument("--ascii", action="store_true", help="print the board in plain ASCII")
    p.add_argument("--score", action="store_true",
                   help="also search the position shown (48,000 positions) and print its score for the side "
                        "to move, as a centred score and a win chance, with the best line (docs/review.md)")
    p.set_defaults(run=run)


def at_ply(game: "Game", ply: Optional[int]) -> "Game":
    """The game as it stood after its first ``ply`` moves: the same game
    for None or its own ply (a resignation or agreed draw kept), a replay
    otherwise. A negative ``ply`` counts back from the end. An
    :class:`~brandubh.errors.ArgumentError` for a ply it never reached.

    >>> from brandubh import Game
    >>> game = Game.replay(['d1c1', 'd3c3']).game
    >>> at_ply(game, 1).log, at_ply(game, -2).log
    (['d1c1'], [])
    >>> at_ply(game, 3)
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: --ply must be from -2 to 2 (the game has 2 moves), not 3
    """
    total = game.ply
    if ply is None:
        return game
    if not -total <= ply <= total:
        raise ArgumentError(f"--ply must be from {-total} to {total} (the game has "
                            f"{plural(total, 'move')}), not {ply}")
    return game.after(ply + total if ply < 0 else ply)


def run(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    """Run ``brandubh show`` with parsed arguments; the exit status."""
    from ..records import load_game
    from .play import can_write_unicode
    from ..files import write_whole
    from ..views.svg import board
    from ..views.text import diagram

    stream = sys.stdout if out is None else out
    game = load_game(args.game_file, number=args.game)
    total = game.ply
    shown = at_ply(game, args.ply)
    if args.svg is not None:
        picture = board(shown, size=args.size, flipped=args.flipped)
        if args.svg == "-":
            stream.write(picture)
            return 0
        write_whole(args.svg, picture)
        print(f"wrote {args.svg}: the board at ply {shown.ply} of {total}", file=stream)
        return 0
    unicode = not args.ascii and can_write_unicode(stream)
    print(diagram(shown, unicode=unicode, flipped=args.flipped), file=stream)
    print(f"rules {game.variant.as_string()}; ply {shown.ply} of {total}", file=stream)
    if shown.ply:
        print(textwrap.fill("moves: " + " ".join(shown.shown), width=78, subsequent_indent="  "), file=stream)
    if args.score:
        from ..session import analyse

        if shown.status != "active":
            print("score: the game is over", file=stream)
        else:
            print(textwrap.fill(analyse(shown).sentence, width=78, subsequent_indent="  "), file=stream)
    return 0

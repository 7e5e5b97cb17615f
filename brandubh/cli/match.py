"""``brandubh match``: players play each other, as a match of two or a
round robin of more. A front door to :mod:`brandubh.arena`: the games are
played by its one game loop, and reported by its one report.

    brandubh match "level=5" "level=4" --games 200
    brandubh match "budget=20000,ring=45" "budget=20000" --games 2000 --sprt 0,10
    brandubh match "level=2" "level=1" "budget=5000"          # a round robin
    brandubh match "level=4" "cmd=./my_bot" "cmd=python3 other.py" --gauntlet

A player is an engine setting (:mod:`brandubh.arena.bot_player`: ``level``,
``budget``, ``depth``, a weight, ``off=``) or a program, ``cmd=COMMAND``,
speaking the CodinGame protocol. An engine is held by its node budget, so
its games are the same on every run; programs have no clock unless
``--first-ms`` and ``--turn-ms`` give one.

>>> parse_setting('budget=5000,ring=40')
{'budget': 5000, 'weights': {'ring': 40}}
"""

from __future__ import annotations

import argparse
from typing import Optional, TextIO

from ..arena.command import add_event_arguments, parse_player, play_from_args
from ..arena.bot_player import make_bot, parse_setting
from ..arena.event import player_names

__all__ = ["parse_setting", "make_bot", "register", "run"]

_DESCRIPTION = """\
Players play each other over opening positions with colours swapped, in
parallel: two players a match, more a round robin (or, with --gauntlet, the
first against each of the others). Prints each player's wins, draws and
losses (in all and by side), its score and Elo with a 95% interval, a
crosstable when there are more than two, how the games ended and the
answer times.

A player is an engine setting, key=value pairs: level (1-6), budget
(positions a move), depth, time_ms (a clock a move, alone when neither
level nor budget is given) and threads (1-64), neither of these two
deterministic, an evaluation weight (attacker, defender, lane_one,
lane_two, freedom, corner_guard, ring), weights=FILE (a weights file that
'brandubh tune' wrote), or off=FEATURE+FEATURE to turn search features off
(tt, killers, history, pvs, threats, qsearch, blocks, lmr). Or
a program: cmd=COMMAND (the rest of the text is the command), speaking the
CodinGame puzzle's protocol, or protocol=opentafl,cmd=COMMAND, an engine for
OpenTafl speaking its engine protocol. Players are named A, B, C... in the
order given.

The CodinGame protocol cannot tell a program the rules: such a program is
taken to play the puzzle's (the codingame preset), which is then the
match's default, and a match under other rules refuses it unless
rules=RULES,cmd=COMMAND says the program plays those (repetitions and the
move cap, which a program is never shown, may differ). OpenTafl's protocol
tells its engines the match's rules.

Each opening is played twice, the sides swapped; with --sprt the test
counts such pairs (five counts: the pair's points for the first player, 0
to 2), and plays the rules' balanced book (bench/book-PRESET.txt of the
source tree: openings the engine gives either side 40% to 60%) unless
--openings or --random-plies says otherwise. Every strength claim of this
project is made that way (docs/arena.md).

This is a front door to the same arena as 'brandubh referee'."""

_EPILOG = """\
examples:
  brandubh match "level=5" "level=4" --games 200
  brandubh match "budget=4000,off=tt" "budget=4000" --games 2000 --sprt 0,10    # the balanced book
  brandubh match "time_ms=50" "time_ms=50,off=lmr" --jobs 1 --sprt 0,10 --variant codingame
  brandubh match "budget=20000,weights=tuned.json" "budget=20000" --sprt 0,10
  brandubh match "level=4" "level=3" --games 2000 --ray auto
  brandubh match "level=2" "level=1" "budget=5000" --games 20
  brandubh match "level=3" "cmd=python3 my_bot.py" --first-ms 100 --turn-ms 50
  brandubh match "level=3" "cmd=brandubh codingame --level 2"     # codingame rules
  brandubh match "level=3" "rules=brandubh,cmd=brandubh codingame --variant brandubh" --variant brandubh
  brandubh match "protocol=opentafl,cmd=brandubh opentafl --level 3" "level=2"

Exit status: 0, 1 when the arena itself failed a game or an output could
not be written (a full disk: the match stops, the games finished by then
are reported), 2 for bad arguments, 130 when interrupted (the games finished
by then are reported)."""


def register(subparsers) -> None:
    """Add the ``match`` command to the ``brandubh`` command's subparsers."""
    p = subparsers.add_parser(
        "match", help="engine settings and programs play each other (a match or a round robin)",
        description=_DESCRIPTION, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("players", metavar="PLAYER", nargs="+",
                   help='a setting ("level=5", "budget=20000,ring=45"), "cmd=COMMAND" or '
                        '"protocol=opentafl,cmd=COMMAND"; two or more')
    add_event_arguments(p, games=200, jobs=None, variant=None, first_ms=None, turn_ms=None,
                        random_plies=2)
    p.set_defaults(run=run)


def run(args: argparse.Namespace, stdout: Optional[TextIO] = None,
        stderr: Optional[TextIO] = None) -> int:
    """Run ``brandubh match`` with parsed arguments; the exit status."""
    from ..errors import ArgumentError

    if len(args.players) < 2:
        raise ArgumentError("a match needs at least two players")
    players = [parse_player(text, name) for text, name in zip(args.players, player_names(len(args.players)))]
    return play_from_args(args, players, stdout, stderr)

"""``brandubh referee``: two programs against each other over the CodinGame
puzzle's protocol, the time limits enforced (:mod:`brandubh.codingame.referee`
for a program that runs it from Python). A front door to the arena, as
``brandubh match`` is.
"""

from __future__ import annotations

import argparse
from typing import Optional, TextIO

from ..arena.command import add_event_arguments, play_from_args
from ..arena.process_player import ProcessPlayer
from ..codingame.referee import DEFAULT_FIRST_MS, DEFAULT_TURN_MS

__all__ = ["register", "run"]


_DESCRIPTION = """\
Play two programs against each other over the protocol of the CodinGame
puzzle "Brandubh", as the puzzle's referee would, with the time limits
enforced.

Each BOT is a command, quoted as one argument ("python3 my_bot.py",
"./my_bot --depth 3"). Each game starts a process for each program, in a
process group of its own, and keeps it for the whole game. The program
that crashes, answers late, answers something that is not a move, or plays
an illegal move loses that game at once (an ending of its own in the game
text: "result timeout defenders"); its processes are killed. What each
program wrote on standard error is kept with the game (--save). Answers are
read as the puzzle's referee reads them: "d2c2", "D2C2" and "d2 c2" alike.

The rules are the codingame preset unless --variant says otherwise; every
ending, repetition included, is the rule set's. The CodinGame protocol
cannot tell a program the rules: --variant says which rules the two
programs play, and both are held to them. Colours alternate: A (the
first BOT) attacks in games 1, 3, 5..., B in games 2, 4, 6..., and each
opening is played twice, once each way.

Time: a first answer is due 100 ms after its input (--first-ms), each later
answer 50 ms after its input (--turn-ms). Starting a process is not a turn:
a program has --startup-ms (1000) after its start to get ready before its
first turn's clock runs.

This is a front door to the same arena as 'brandubh match', which also
takes engine settings and more than two players."""


_EPILOG = """\
examples:
  brandubh referee "python3 bot_a.py" "./bot_b" --games 200 --jobs 2
  brandubh referee "brandubh codingame" "python3 my_bot.py" --games 100 --sprt 0,50
  brandubh referee "python3 new.py" "python3 old.py" --random-plies 4 --save runs/1
  brandubh referee "./bot_v2" "./bot_v1" --openings openings.txt --json > result.json

The summary gives each program's wins, draws and losses, in all and by side,
the score, the Elo difference A - B with a 95% interval, how the games
ended, the faults, and each program's answer times (median and worst). Exit
status: 0, 1 when the referee itself failed a game or an output could not
be written (a full disk: the run stops with its summary), 2 for bad arguments,
130 when interrupted (the games finished by then are reported)."""


def register(subparsers) -> None:
    """Add the ``referee`` command to the ``brandubh`` command's subparsers."""
    p = subparsers.add_parser(
        "referee", help="play two programs against each other over the CodinGame protocol",
        description=_DESCRIPTION, epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bot_a", metavar="BOT_A", help="the first program's command (A), quoted")
    p.add_argument("bot_b", metavar="BOT_B", help="the second program's command (B), quoted")
    add_event_arguments(p, games=2, jobs=1, variant="codingame", first_ms=DEFAULT_FIRST_MS,
                        turn_ms=DEFAULT_TURN_MS, random_plies=0)
    p.set_defaults(run=run)


def run(args: argparse.Namespace, stdout: Optional[TextIO] = None,
        stderr: Optional[TextIO] = None) -> int:
    """Run ``brandubh referee`` with parsed arguments; the exit status."""
    # Two programs and no one else: --variant is the rules they are said to play.
    players = [ProcessPlayer(args.bot_a, name="A", rules=args.variant),
               ProcessPlayer(args.bot_b, name="B", rules=args.variant)]
    return play_from_args(args, players, stdout, stderr)

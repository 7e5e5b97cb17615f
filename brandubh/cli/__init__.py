"""The ``brandubh`` command.

    brandubh bench [--depth N] [--budget N] [--threads N] [--eval classical|learned] [--verbose]
    brandubh selfplay --out FILE [--positions N] [--seed S] [--variant V] [--budget B]
    brandubh train DATA --out NET [--epochs N] [--blend L]
    brandubh perft DEPTH [--variant NAME] [--position STR] [--divide] [--slides] [--full]
    brandubh solve POSITION_OR_GAME [--variant V] [--budget N] [--proof FILE] [--json [OUT]]
    brandubh solve --check FILE
    brandubh match A B [--games N] [--jobs N] [--ray ADDRESS] ...
    brandubh tune --out FILE [--steps N] [--budget N] [--ray ADDRESS] ...
    brandubh codingame [--level N] [--budget N] [--seed N]
    brandubh opentafl [--level N] [--budget N] [--seed N] [--write-ini DIR]
    brandubh referee "BOT A" "BOT B" [--games N] [--jobs N] ...
    brandubh show GAME_FILE [--ply N] [--svg OUT]
    brandubh play [--level N] [--side attackers|defenders] [--variant V] [--load FILE]
    brandubh serve [--host H] [--port N]
    brandubh host [--host H] [--port N] [--db FILE]
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from ..errors import BrandubhError


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="brandubh",
        description="The Irish 7x7 tafl game: engine, perft and tools.",
    )
    parser.add_argument("--version", action="version", version=f"brandubh {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    # One module a command, in the order --help lists them.
    from . import (analyse, bench, codingame, host, match, opentafl, perft, play, referee, selfplay, serve, show,
                   solve, train, tune)

    for command in (perft, solve, bench, match, tune, selfplay, train, codingame, opentafl, referee, show, play,
                    analyse, serve, host):
        command.register(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``brandubh`` command with ``argv`` (by default the process's
    arguments); the exit status. With no command it prints the help."""
    try:
        # Ctrl-C while the commands load is an interruption like any other.
        parser = build_parser()
    except KeyboardInterrupt:
        return 130
    given = sys.argv[1:] if argv is None else list(argv)
    if not given:
        parser.print_help()
        return 0
    args = parser.parse_args(given)
    if argv is None and args.command in ("match", "referee", "tune"):
        # The command's own process (not a caller's, which may start
        # children of its own): what its programs leave behind is its to end.
        from ..arena.process import own_process

        own_process()
    try:
        return args.run(args)
    except BrandubhError as exc:
        print(f"brandubh {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (brandubh perft 6 --divide | head)
        sys.stderr.close()
        return 0

"""The ``brandubh`` command.

    brandubh bench [--depth N] [--budget N] [--threads N] [--eval classical|learned] [--verbose]
    brandubh selfplay --out FILE [--positions N] [--seed S] [--variant V] [--budget B]
    brandubh train DATA --out NET [--epochs N] [--blend L]
    brandubh perft DEPTH [--variant NAME] [--position STR] [--divide] [--slides] [--full]
    brandubh solve POSITION_OR_GAME [--variant V] [--budget N] [--proof FILE] [--json [OUT]] [--threads N]
    brandubh solve --check FILE
    brandubh tables build --pieces N [--variant V] --out DIR
    brandubh tables probe POSITION --dir DIR [--variant V]
    brandubh match A B [--games N] [--jobs N] [--ray ADDRESS] ...
    brandubh tune --out FILE [--steps N] [--budget N] [--ray ADDRESS] ...
    brandubh codingame [--level N] [--budget N] [--seed N]
    brandubh opentafl [--level N] [--budget N] [--seed N] [--write-ini DIR]
    brandubh referee "BOT A" "BOT B" [--games N] [--jobs N] ...
    brandubh show GAME_FILE [--ply N] [--svg OUT]
    brandubh play [--level N] [--side attackers|defenders] [--variant V] [--load FILE]
    brandubh serve [--host H] [--port N]
    brandubh host [--host H] [--port N] [--db FILE]
    brandubh puzzles make --from GAMES_OR_SELFPLAY --out FILE [--variant V] [--count N] [--jobs N]
    brandubh puzzles list [--variant V] [--json]
    brandubh puzzle [--variant V] [--rating-file FILE]
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import sys
from typing import Optional, Sequence

from ..errors import BrandubhError


#: Every command, one module of this package each, in the order --help
#: lists them.
COMMANDS = ("perft", "solve", "tables", "bench", "match", "tune", "selfplay", "train", "codingame", "opentafl",
            "referee", "show", "play", "analyse", "serve", "host", "puzzles", "puzzle")
#: Other names of a command (the module that registers it knows them too).
ALIASES = {"analyze": "analyse"}


def build_parser(only: Optional[str] = None) -> argparse.ArgumentParser:
    """The ``brandubh`` command's parser, with every command; or, given the
    name of one, with that one only, so that ``brandubh perft 5`` imports
    perft's module and not the arena's, the servers' or the trainer's (a
    quarter of a second of every run; the test suite starts the command
    hundreds of times)."""
    import importlib

    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="brandubh",
        description="The Irish 7x7 tafl game: engine, perft and tools.",
    )
    parser.add_argument("--version", action="version", version=f"brandubh {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    only = ALIASES.get(only or "", only)
    for name in COMMANDS if only not in COMMANDS else (only,):
        importlib.import_module(f".{name}", __name__).register(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``brandubh`` command with ``argv`` (by default the process's
    arguments); the exit status. With no command it prints the help.

    Every command's errors end here: the package's (a sentence, exit 2),
    Ctrl-C (exit 130), and an output that cannot be written, standard
    output on a full disk (``> /dev/full``: a sentence, exit 1) or a
    closed pipe (``| head``: quietly, exit 141): never a traceback."""
    given = sys.argv[1:] if argv is None else list(argv)
    command = given[0] if given and not given[0].startswith("-") else ""
    try:
        # Ctrl-C while the commands load is an interruption like any other.
        parser = build_parser(command)
    except KeyboardInterrupt:
        return 130
    try:
        status = _run(parser, given, argv is None)
        # What the output still holds goes now, so that a full disk or a
        # closed pipe is met here, not in the interpreter's exit.
        sys.stdout.flush()
    except OSError as error:
        return _output_failed(command, error)
    return status


def _run(parser: argparse.ArgumentParser, given: list, own: bool) -> int:
    """The command ``given`` asks for, its package's errors and Ctrl-C
    turned into exit statuses; ``own``: the process is the command's own."""
    if not given:
        parser.print_help()
        return 0
    args = parser.parse_args(given)
    if own and args.command in ("match", "referee", "tune"):
        # The command's own process (not a caller's, which may start
        # children of its own): what its programs leave behind is its to end.
        from ..arena.reaping import own_process

        own_process()
    try:
        return int(args.run(args))
    except BrandubhError as exc:
        _say(f"brandubh {args.command}: {exc}")
        return 2
    except KeyboardInterrupt:
        return 130


#: The exit status after a closed pipe: a Unix tool's, ended by SIGPIPE
#: (128 + 13), as the shell reports ``yes | head``.
CLOSED_PIPE = 141

#: The errors of a write to an output that cannot take it: a full disk, a
#: quota, a file size limit, a device that fails.
_OUTPUT_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)


def _say(text: str) -> None:
    """A line on standard error, if it can take one."""
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _output_failed(command: str, error: OSError) -> int:
    """The exit status, and a sentence, for an error the command did not
    handle: a closed pipe ends it quietly (``brandubh perft 6 --divide |
    head``), a full disk or any other failure of a system call is said in a
    sentence (exit 1), never as a traceback. The standard output is then
    pointed at nothing, so that the interpreter's exit does not try again
    to write what it holds."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass  # a stand-in for the standard output (a test's): nothing to point elsewhere
    if isinstance(error, BrokenPipeError):
        return CLOSED_PIPE
    reason = error.strerror or str(error)
    name = f"brandubh {command}".rstrip()
    if error.filename is None and error.errno in _OUTPUT_ERRORS:
        _say(f"{name}: cannot write the output: {reason}")
    elif error.filename is not None:
        _say(f"{name}: {error.filename}: {reason}")
    else:
        _say(f"{name}: {reason}")
    return 1

"""``brandubh serve``: the page in a browser, to play the engine and to
look at saved games (:mod:`brandubh.serve`)."""

from __future__ import annotations

import argparse
import errno
import sys
from typing import Any, Callable, Optional, TextIO

from ..argtypes import whole
from ..errors import BrandubhError
from ..serve.api import DEFAULT_PORT, Api
from ..serve.http import IDLE_TIMEOUT, MAX_CONNECTIONS, REQUEST_TIMEOUT, Server, host_warning
from ..serve.puzzles import read_sets_ahead

__all__ = ["register", "run", "add_server_parser", "warn_off_the_loopback", "listen", "serve_until_stopped"]


_DESCRIPTION = """\
Serve a page to play brandubh against the engine in a browser, and to step
through saved games: click a piece to see where it may go, click a target;
undo, resign, offer a draw, ask for the score and best line, copy or
download the game text; open a saved game (a game text, a 'brandubh match
--games-out' file, a 'brandubh referee --save' record or an OpenTafl game
record, .otg) and step through it move by move, or play on from any move
of it.

The server listens on 127.0.0.1 only, unless --host says otherwise; Ctrl-C
stops it. It serves at most {connections} connections at once (the next wait their
turn), closes one that sends nothing for {idle:g} seconds, and gives a request
{request:g} seconds to arrive whole.""".format(connections=MAX_CONNECTIONS, idle=IDLE_TIMEOUT,
                                                 request=REQUEST_TIMEOUT)


_EPILOG = f"""\
examples:
  brandubh serve                      (then open http://127.0.0.1:{DEFAULT_PORT}/)
  brandubh serve --port 0             (any free port: the URL is printed)
  brandubh serve --host 0.0.0.0       (other machines may reach it: no password!)
  brandubh serve --tables tables/     (the endgame tables' values in the page)

Exit status: 0 once stopped, 2 when the address cannot be taken."""


def register(subparsers: Any) -> None:
    """Add the ``serve`` command to the ``brandubh`` command's subparsers."""
    p = add_server_parser(subparsers, "serve", "play the engine and look at saved games in a browser", _DESCRIPTION,
                          _EPILOG, port=DEFAULT_PORT, seeded="the engines play the same way again")
    p.add_argument("--tables", metavar="DIR", default=None,
                   help="endgame tables (brandubh tables build), read at the start: the engine plays the positions "
                        "they hold perfectly, and a position they hold, looked at or reviewed, shows their value "
                        "and the move that keeps a win")
    p.set_defaults(run=run)


def add_server_parser(subparsers: Any, name: str, help: str, description: str, epilog: str, *, port: int,
                      seeded: str, port_note: str = "", verbose_note: str = "") -> argparse.ArgumentParser:
    """The parser of a command that serves the page (``serve``, and
    ``host``, which is built on it): ``--host``, ``--port`` (``port`` by
    default), ``--seed`` (what it makes play the same way again:
    ``seeded``), ``--open`` and ``--verbose``; the command adds its own."""
    p = subparsers.add_parser(name, help=help, description=description, epilog=epilog,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1, this machine only; another "
                        "address is warned about)")
    p.add_argument("--port", type=whole(0, 65535), default=port, metavar="N",
                   help=f"the port (default {port}; 0 takes any free port{port_note})")
    p.add_argument("--seed", default=None, metavar="S",
                   help=f"any text: {seeded} (default: a fresh one each start)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--verbose", "-v", action="store_true", help=f"log every request on standard error{verbose_note}")
    return p


def warn_off_the_loopback(host: str) -> None:
    """Say on standard error when ``--host`` lets other machines in."""
    warning = host_warning(host)
    if warning:
        print(warning, file=sys.stderr)


def listen(args: argparse.Namespace, make: Callable[[str, int], Server]) -> Server:
    """The command's server, ``make(host, port)`` at ``--host`` and
    ``--port``; a sentence (exit status 2) when the address cannot be taken."""
    try:
        return make(args.host, args.port)
    except OSError as error:
        hint = " (choose another with --port, or --port 0 for any free one)" if error.errno == errno.EADDRINUSE else ""
        raise BrandubhError(f"cannot listen on {args.host} port {args.port}: "
                            f"{error.strerror or error}{hint}") from None


def serve_until_stopped(server: Server, args: argparse.Namespace, name: str, where: str,
                        out: Optional[TextIO] = None) -> int:
    """Say ``where`` the page is, open it with ``--open``, and serve until
    Ctrl-C (the shipped puzzle sets read meanwhile:
    :func:`~brandubh.serve.puzzles.read_sets_ahead`); the server closed,
    exit status 0."""
    stream = sys.stdout if out is None else out
    print(f"brandubh {name}: {where}", file=stream, flush=True)
    if args.open:
        import webbrowser

        try:
            opened = webbrowser.open(server.url)
        except webbrowser.Error:
            opened = False
        if not opened:  # no browser here (a server without a screen): say so, not nothing
            print(f"brandubh {name}: --open: no browser could be started here; open {server.url} by hand",
                  file=sys.stderr, flush=True)
    read_sets_ahead()   # not at the first puzzle asked for
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print(f"\nbrandubh {name}: stopped", file=stream, flush=True)
    finally:
        server.server_close()
    return 0


def run(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    """Run ``brandubh serve`` with parsed arguments until Ctrl-C; the exit status."""
    warn_off_the_loopback(args.host)
    api = Api(seed=args.seed, tables=args.tables)  # the tables read before the port is taken
    server = listen(args, lambda host, port: Server(host, port, api=api, verbose=args.verbose))
    return serve_until_stopped(server, args, "serve", f"the board is at {server.url} (Ctrl-C stops the server)",
                               out)

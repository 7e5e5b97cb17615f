"""``brandubh host``: a club, and a server where two people, or a person
and a bot, play brandubh over the network (:mod:`brandubh.host`,
docs/host.md)."""

from __future__ import annotations

import argparse
import os
from typing import Any, Optional, TextIO

from ..argtypes import whole
from ..errors import ArgumentError, quote
from .serve import add_server_parser, listen, serve_until_stopped, warn_off_the_loopback

__all__ = ["register", "run", "DEFAULT_DB"]

#: The store's file unless --db names another: in the current folder.
DEFAULT_DB = "brandubh.sqlite"

_DESCRIPTION = """\
Run a brandubh club: its page (/club) has accounts, a lobby of open seeks
taken with one click, Glicko-2 ratings per rule set and speed, player
pages, correspondence games (days a move), round-robin tournaments, and
bots as accounts (--bot-account, --new-bot-token).

Host games of brandubh between two seats over the network: open the page,
make a game (rules, your side, a clock: untimed or minutes+seconds added a
move, as 5+3), and send the invitation link to the other player, or give
the seat to the server's bot at a level, or to an outside program through
the bot interface (docs/host.md). Moves, clocks, draw offers, resignations
and take-backs reach both players and everyone watching as they happen.

Every game is stored in one SQLite file (--db) as it is played: a server
stopped in any way and started again on the same file resumes every game
and its clocks (a flag that fell meanwhile falls at once).

One server a store: a second one started on the same file refuses to,
naming the process that holds it. A change the store cannot write (a full
disk) is answered 503, saying that nothing changed; a store that cannot be
written is refused at start. A game whose record cannot be read is set
aside (named on standard error, left in the file) and the others served.

The server listens on 127.0.0.1 only, unless --host says otherwise; Ctrl-C
stops it. Behind an HTTPS proxy, name it with --trust-proxy: each user then
has limits of their own, and the page's https:// is believed. A seat's
token is in its link's fragment (after the #), which browsers never send to
a server; only that seat's page and program hold it."""

_EPILOG = """\
examples:
  brandubh host                       (then open the address it prints)
  brandubh host --port 0 --db games.sqlite
  brandubh host --host 0.0.0.0        (other machines may reach it)
  brandubh host --trust-proxy 127.0.0.1   (behind a proxy on this machine)
  brandubh host --bot-account engine3=3 --bot-account engine6=6
  brandubh host --new-bot-token mybot (prints the token, and stops)

Exit status: 0 once stopped (or the token printed), 2 when the address or
the file cannot be taken, or a --bot-account is not NAME=LEVEL."""


def register(subparsers: Any) -> None:
    """Add the ``host`` command to the ``brandubh`` command's subparsers."""
    from ..host.http import DEFAULT_PORT, MAX_STREAMS_PER_CLIENT, PROXY_HEADERS
    from ..host.hub import BURST, MAX_OPEN_PER_CLIENT, RATE

    p = add_server_parser(subparsers, "host", "two people, or a person and a bot, play over the network",
                          _DESCRIPTION, _EPILOG, port=DEFAULT_PORT, port_note=", and the address is printed",
                          seeded="the server's bots play the same way again",
                          verbose_note=" (never a token: they travel in a header)")
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE",
                   help=f"the SQLite file the games are kept in (default {DEFAULT_DB} in the current folder; "
                        "made when missing)")
    p.add_argument("--games-per-client", type=whole(1, 100_000), default=None, metavar="N",
                   help=f"games in play one client (address) may have at once (default {MAX_OPEN_PER_CLIENT})")
    p.add_argument("--rate", type=whole(1, 100_000), default=None, metavar="N",
                   help=f"requests that change something one client may make a second, on average (default "
                        f"{RATE:g}, {BURST} at once)")
    p.add_argument("--streams-per-client", type=whole(1, 100_000), default=None, metavar="N",
                   help=f"games one client (address) may follow live at once (default {MAX_STREAMS_PER_CLIENT})")
    p.add_argument("--trust-proxy", action="append", default=[], metavar="ADDR",
                   help="a proxy in front of the server (an address or a network, 127.0.0.1 or 10.0.0.0/8; "
                        "again, or with commas, for several): from it alone, the client's address and the "
                        "page's scheme and host are read from the proxy's headers (default: none, every "
                        "such header ignored)")
    p.add_argument("--proxy-header", choices=PROXY_HEADERS, default=PROXY_HEADERS[0],
                   help=f"the headers the proxy writes: {PROXY_HEADERS[0]} (X-Forwarded-For, -Proto, -Host; "
                        f"the default) or {PROXY_HEADERS[1]} (the standard Forwarded header); the others are "
                        "a client's, and not believed")
    p.add_argument("--bot-account", action="append", default=[], metavar="NAME=LEVEL",
                   help="an account played by the package's engine at LEVEL (1 to 6), rated like any other, with "
                        "a rated 5+3 seek always open in the lobby (again for several)")
    p.add_argument("--new-bot-token", metavar="NAME",
                   help="make (or give a new token to) the account NAME for an outside program, print its bot "
                        "token, and stop: the program sends it as its Bearer token (docs/host.md)")
    p.set_defaults(run=run)


def _engine(given: str) -> tuple[str, int]:
    """``--bot-account NAME=LEVEL`` read: the name and the level."""
    from ..host.hub import MAX_LEVEL

    name, _, level = given.partition("=")
    if not level.isdigit() or not 1 <= int(level) <= MAX_LEVEL:
        raise ArgumentError(f"--bot-account is NAME=LEVEL with a level from 1 to {MAX_LEVEL}, not {quote(given)}")
    return name, int(level)


def run(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    """Run ``brandubh host`` until Ctrl-C; the exit status."""
    from ..host.api import HostApi
    from ..host.http import MAX_STREAMS_PER_CLIENT, HostServer, Proxies
    from ..host.hub import Hub
    from ..host.store import Store
    from ..serve.api import RequestError

    warn_off_the_loopback(args.host)
    Proxies(args.trust_proxy, args.proxy_header)   # one that is no address: a sentence, before anything is opened
    engines = [_engine(given) for given in args.bot_account]
    store = Store(args.db)   # a StoreError (a sentence, exit 2) when held by another server or not writable
    if args.new_bot_token is not None:
        try:
            from ..host.accounts import Accounts

            try:
                account, token = Accounts(store).make_bot(args.new_bot_token)
            except RequestError as error:
                raise ArgumentError(f"--new-bot-token: {error}") from None
            print(f"the bot account {account.name}'s token (shown once; keep it secret): {token}", file=out)
            return 0
        finally:
            store.close()
    limits: dict[str, Any] = {}
    if args.games_per_client is not None:
        limits["max_open"] = args.games_per_client
    if args.rate is not None:
        limits["rate"], limits["burst"] = float(args.rate), max(args.rate * 2, 2)
    try:
        hub = Hub(store, seed=args.seed, **limits)
        try:
            api = HostApi(hub)
            for name, level in engines:
                try:
                    api.club.stand(api.accounts.make_bot(name, level=level)[0])
                except RequestError as error:
                    raise ArgumentError(f"--bot-account {name}={level}: {error}") from None
            server = listen(args, lambda host, port: HostServer(
                host, port, api=api, verbose=args.verbose,
                streams_per_client=args.streams_per_client or MAX_STREAMS_PER_CLIENT,
                trusted_proxies=args.trust_proxy, proxy_header=args.proxy_header))
            aside = f", {len(hub.set_aside)} set aside (named above)" if hub.set_aside else ""
            return serve_until_stopped(server, args, "host", f"the games are at {server.url}, the club at "
                                       f"{server.url}club (store {os.path.abspath(args.db)}, {hub.open_games()} "
                                       f"in play{aside}; Ctrl-C stops the server)", out)
        finally:
            hub.close()
    finally:
        store.close()

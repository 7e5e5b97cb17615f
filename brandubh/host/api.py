"""The JSON interface of ``brandubh host``, without HTTP.

=========================================  ================================================
``GET /``                                  the page (serve's, in its host mode)
``GET /api/host``                          the rules presets, clocks, levels
``POST /api/host/games``                   a new game: ``side``, ``variant``, ``clock``,
                                           ``opponent`` (``invite`` or ``bot``), ``level``
``GET /api/host/games``                    the games finished last
``GET /api/host/games/ID[?ply=N]``         a game's state (anyone with its id), or how it
                                           stood after N moves
``GET /api/host/games/ID/events``          the game's states as they change (server-sent
                                           events; the last one when it ends)
``GET /api/host/games/ID/text``            the game text, to download
``GET /api/host/games/ID/seat``            the seat a token holds (token)
``POST /api/host/games/ID/ACTION``         a seat acts (token, or its account's session or
                                           bot token): ``move`` (``move``), ``resign``,
                                           ``draw-offer``, ``draw-accept``, ``draw-decline``,
                                           ``takeback-offer``, ``takeback-accept``,
                                           ``takeback-decline``
``GET /club``                              the club's page: lobby, login, player pages
``GET /api/host/me``                       the account logged in (or ``name`` null)
``POST /api/host/register``                a new account (``name``, ``password``), logged in
``POST /api/host/login``                   a session (``name``, ``password``): its cookie
``POST /api/host/logout``                  the session ended
``POST /api/host/password``                ``old``, ``new``: every other session ended
``GET /api/host/lobby``                    the open seeks, the club's games in play and the
                                           daily puzzle
``GET /api/host/lobby/events``             the lobby as it changes (server-sent events)
``POST /api/host/seeks``                   a seek (``variant``, ``clock``, ``side``,
                                           ``rated``, ``range``) (session or bot token)
``POST /api/host/seeks/ID/take``           take a seek: the game begins (session or bot token)
``POST /api/host/seeks/ID/cancel``         withdraw one's own seek
``GET /api/host/tournaments``              the tournaments; ``POST``: a new one (``name``,
                                           ``variant``, ``clock``, ``size``, ``rated``,
                                           ``starts``, ``engines``, ``join``) (account)
``GET /api/host/tournaments/ID``           its players, games by round, standings
``POST /api/host/tournaments/ID/join``     enter it (account)
``GET /api/host/players/NAME``             a player's page: ratings, games, record, your move
``GET /api/host/players/NAME/rating.svg``  the rating's history in ``?pool=``, as SVG
                                           (``puzzles``: the puzzle rating's)
``POST /api/puzzles``                      a puzzle: the next near the account's puzzle
                                           rating (a guest's: unrated), or ``puzzle`` (an id)
``GET /api/puzzles/ID``                    the attempt as it stands (its account's)
``POST /api/puzzles/ID/ACTION``            ``move`` (``move``), ``hint``, ``solution``
=========================================  ================================================

An account's session is a cookie (:data:`~.accounts.COOKIE`: HttpOnly,
SameSite=Lax, Secure when the page came over HTTPS); an outside program
playing as a bot account sends its bot token as the Bearer token instead.

A seat's token goes in the ``Authorization: Bearer TOKEN`` header, never
in the address; following and watching need no token (a game's state holds
none). Every body and answer is a JSON object; an error is
``{"error": sentence}`` with 400 (unreadable), 403 (no seat for the token),
404, 409 (the game refuses; ``game`` is its unchanged state), 413 or 429
(over a limit), or 503 (``code`` ``not_stored``: the store could not write
the change, so nothing changed; ``game`` is the game as it was).

>>> from .store import Store
>>> from .hub import Hub
>>> api = HostApi(Hub(Store(':memory:'), seed='doc'))
>>> made = api.call('POST', '/api/host/games', b'{"clock": "5+3"}', client='me').json()
>>> sorted(made['links'])
['invite', 'play', 'watch']
>>> path = '/api/host/games/' + made['id']
>>> api.call('POST', path + '/move', b'{"move": "d2c2"}', client='me').json()['error']
'this token holds no seat in this game'
>>> api.call('POST', path + '/move', b'{"move": "d2c2"}', token=made['token'], client='me').json()['moves']
['d2-c2']
>>> api.hub.close()
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple, Optional, Union
from urllib.parse import parse_qs, urlsplit

from ..serve.api import Reply, RequestError, _fields, only, puzzle_route, query_ply
from .accounts import COOKIE, SESSION_DAYS, Account, Accounts, LoggedIn
from .club import Club
from .clock import DAYS, PRESETS as CLOCKS
from .hub import ACTIONS, MAX_LEVEL, Follower, Hub, Sent

__all__ = ["HostApi", "Stream", "MAX_BODY"]

#: The largest request body read, in bytes: a move or a new game's fields.
MAX_BODY = 4096
_PATH = re.compile(r"/api/host/games/([^/]+)(?:/([a-z-]+))?")
_SEEK = re.compile(r"/api/host/seeks/([^/]+)/(take|cancel)")
_TOURNAMENT = re.compile(r"/api/host/tournaments/([^/]+?)(/join)?")
_PLAYER = re.compile(r"/api/host/players/([^/]+?)(/rating\.svg)?")
#: The club page's content security policy: its script and style are files
#: of this server's (no inline script at all), pictures from here only.
CLUB_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_CLUB_FILES = {"/club": ("club.html", "text/html; charset=utf-8"), "/club.js": ("club.js", "text/javascript; charset=utf-8"),
               "/club.css": ("club.css", "text/css; charset=utf-8")}


class Stream(NamedTuple):
    """An answer that goes on: the follower whose states are sent as they come."""

    follower: Follower
    first: Sent


class HostApi:
    """The interface over a :class:`~.hub.Hub`: :meth:`call` takes a
    method, a path, a body, the request's token (or None) and the client
    (its address, for the limits), and gives a
    :class:`~brandubh.serve.api.Reply` or a :class:`Stream`."""

    def __init__(self, hub: Hub, accounts: Optional[Accounts] = None) -> None:
        self.hub = hub
        self.accounts = accounts if accounts is not None else Accounts(hub.store)
        self.club = Club(hub, self.accounts)
        self._page: Optional[bytes] = None
        self._files: dict[str, bytes] = {}

    def call(self, method: str, target: str, body: bytes = b"", *, token: Optional[str] = None,
             client: str = "", session: Optional[str] = None, secure: bool = False) -> Union[Reply, Stream]:
        """Answer one request; never raises for anything a client sends.
        ``session``: the session cookie's token, if any; ``secure``: the
        page came over HTTPS (the cookie is then marked Secure)."""
        try:
            return self._route(method.upper(), target, body, token, client, session, secure)
        except RequestError as error:
            return Reply.refusal(error)

    def _account(self, session: Optional[str], token: Optional[str]) -> Optional[Account]:
        """The account acting: the session's, or a bot's by its bot token."""
        return self.accounts.who(session) or self.accounts.bot(token)

    def _member(self, session: Optional[str], token: Optional[str]) -> Account:
        account = self._account(session, token)
        if account is None:
            raise RequestError("log in first (or, for a bot, send its bot token)", 403)
        return account

    @staticmethod
    def _cookie(value: str, secure: bool, age: int = SESSION_DAYS * 86400) -> tuple[str, str]:
        return ("Set-Cookie", f"{COOKIE}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax"
                + ("; Secure" if secure else ""))

    def _logged_in(self, done: LoggedIn, secure: bool, status: int = 200) -> Reply:
        reply = Reply.of({"name": done.account.name, "kind": done.account.kind}, status)
        return reply._replace(headers=(self._cookie(done.token, secure),))

    def _club(self, method: str, path: str, query: str, body: bytes, token: Optional[str], client: str,
              session: Optional[str], secure: bool) -> Optional[Union[Reply, Stream]]:
        """The club's requests (None: not one of them)."""
        if path in _CLUB_FILES:
            only(method, "GET")
            name, kind = _CLUB_FILES[path]
            return Reply(200, kind, self._file(name), (("Content-Security-Policy", CLUB_POLICY),))
        if path == "/api/host/me":
            only(method, "GET")
            account = self._account(session, token)
            return Reply.of({"name": account.name if account else None, "kind": account.kind if account else None})
        if path in ("/api/host/register", "/api/host/login"):
            only(method, "POST")
            self.hub.allow(client)
            fields = _fields(body, ("name", "password"))
            if path.endswith("register"):
                return self._logged_in(self.accounts.register(fields.get("name"), fields.get("password"),
                                                              address=client, old=session), secure, 201)
            return self._logged_in(self.accounts.login(fields.get("name"), fields.get("password"), address=client,
                                                       old=session), secure)
        if path == "/api/host/logout":
            only(method, "POST")
            _fields(body, ())
            self.accounts.logout(session)
            return Reply.of({"name": None})._replace(headers=(self._cookie("", secure, 0),))
        if path == "/api/host/password":
            only(method, "POST")
            self.hub.allow(client)
            fields = _fields(body, ("old", "new"))
            return self._logged_in(self.accounts.change_password(session, fields.get("old"), fields.get("new"),
                                                                 address=client), secure)
        if path == "/api/host/lobby":
            only(method, "GET")
            return Reply.of(self.club.lobby())
        if path == "/api/host/lobby/events":
            only(method, "GET")
            return Stream(*self.club.follow())
        if path == "/api/host/seeks":
            only(method, "POST")
            self.hub.allow(client)
            account = self._member(session, token)
            return Reply.of(self.club.seek(account, _fields(body, None), address=client), 201)
        m = _SEEK.fullmatch(path)
        if m is not None:
            only(method, "POST")
            self.hub.allow(client)
            _fields(body, ())
            account = self._member(session, token)
            if m.group(2) == "cancel":
                self.club.cancel(account, m.group(1))
                return Reply.of({"cancelled": m.group(1)})
            return Reply.of(self.club.take(account, m.group(1), address=client), 201)
        if path == "/api/host/tournaments":
            if method == "GET":
                return Reply.of({"tournaments": self.club.tournaments.list()})
            only(method, "POST")
            self.hub.allow(client)
            account = self._member(session, token)
            return Reply.of(self.club.tournaments.create(account, _fields(body, None), address=client), 201)
        m = _TOURNAMENT.fullmatch(path)
        if m is not None:
            if m.group(2) is None:
                only(method, "GET")
                return Reply.of(self.club.tournaments.view(m.group(1)))
            only(method, "POST")
            self.hub.allow(client)
            _fields(body, ())
            return Reply.of(self.club.tournaments.join(self._member(session, token), m.group(1), address=client))
        m = _PLAYER.fullmatch(path)
        if m is not None:
            only(method, "GET")
            from urllib.parse import unquote

            name = unquote(m.group(1))
            if m.group(2):
                pool = (parse_qs(query).get("pool") or ["brandubh blitz"])[0]
                svg = self.club.graph(name, pool).encode("utf-8")
                return Reply(200, "image/svg+xml; charset=utf-8", svg, (("Content-Security-Policy",
                                                                           "default-src 'none'; style-src 'unsafe-inline'"),))
            return Reply.of(self.club.player(name, self._account(session, token)))
        return None

    def _file(self, name: str) -> bytes:
        """A file of the club's page, beside this module, read once; the
        club's page with ``brandubh serve``'s icon (one definition, inline:
        else the browser asks for /favicon.ico)."""
        if name not in self._files:
            from importlib import resources

            found = resources.files("brandubh.host").joinpath(name).read_bytes()
            if name.endswith(".html"):
                page = resources.files("brandubh.serve").joinpath("page.html").read_text(encoding="utf-8")
                icon = re.search(r'<link rel="icon"[^>]*>', page)
                assert icon is not None and b"</head>" in found
                found = found.replace(b"</head>", icon.group().encode("utf-8") + b"\n</head>", 1)
            self._files[name] = found
        return self._files[name]

    def _route(self, method: str, target: str, body: bytes, token: Optional[str],
               client: str, session: Optional[str] = None, secure: bool = False) -> Union[Reply, Stream]:
        parts = urlsplit(target)
        path = parts.path
        if len(body) > MAX_BODY:
            raise RequestError(f"the request body is {len(body)} bytes; the most read here is {MAX_BODY}", 413)
        if path == "/":
            only(method, "GET")
            return Reply.page(self.page())
        if path == "/api/host":
            only(method, "GET")
            from ..serve import api as serve_api
            from ..variant import PRESETS

            return Reply.of({"presets": list(PRESETS), "clocks": ["untimed", *CLOCKS], "days": DAYS,
                             "levels": list(range(1, MAX_LEVEL + 1)), "actions": list(ACTIONS),
                             "level_notes": {str(k): v for k, v in serve_api.LEVEL_NOTES.items()}})
        if path == "/api/host/games":
            if method == "GET":
                return Reply.of({"finished": self.hub.finished()})
            only(method, "POST")
            self.hub.allow(client)
            fields = _fields(body, ("side", "variant", "clock", "opponent", "level"))
            return Reply.of(self.hub.create(fields, client=client), 201)
        if path == "/api/puzzles" or path.startswith("/api/puzzles/"):
            # The page's puzzle routes, as brandubh serve answers them, for the account logged in (or a guest).
            if method == "POST":
                self.hub.allow(client)
            puzzled = puzzle_route(self.club.puzzles, method, path, body, self._account(session, token))
            if puzzled is not None:
                return puzzled
        club = self._club(method, path, parts.query, body, token, client, session, secure)
        if club is not None:
            return club
        m = _PATH.fullmatch(path)
        if m is None:
            raise RequestError(f"nothing at {json.dumps(path)[:80]}: the page is at / and the interface under "
                               "/api/host", 404)
        game_id, action = m.group(1), m.group(2)
        if action is None:
            only(method, "GET")
            # ?ply=N: how the game stood after N moves, read as brandubh serve reads it.
            return Reply.of(self.hub.state(game_id, query_ply(parse_qs(parts.query, keep_blank_values=True))))
        if action == "events":
            only(method, "GET")
            return Stream(*self.hub.follow(game_id))
        if action == "text":
            only(method, "GET")
            hg = self.hub.game(game_id)
            return Reply.download(hg.id, hg.session.text())
        account = self._account(session, token)
        if action == "seat":
            only(method, "GET")
            return Reply.of(self.hub.whoami(game_id, token, account.id if account else None))
        only(method, "POST")
        self.hub.allow(client)
        return Reply.of_json(self.hub.act_json(game_id, token, action, _fields(body, None),   # the hub reads it
                                               account.id if account else None))

    def page(self) -> bytes:
        """``brandubh serve``'s page with the host mode's style and script
        added (host.css, host.js beside this module), read once."""
        if self._page is None:
            from importlib import resources

            page = resources.files("brandubh.serve").joinpath("page.html").read_text(encoding="utf-8")
            here = resources.files("brandubh.host")
            style = here.joinpath("host.css").read_text(encoding="utf-8")
            script = here.joinpath("host.js").read_text(encoding="utf-8")
            body = re.search(r"<body[^>]*>", page)
            assert body is not None and "</head>" in page and "</body>" in page
            page = (page[:body.end()] + "\n<script>window.BRANDUBH_HOST = true;</script>" + page[body.end():])
            page = page.replace("</head>", f"<style>\n/* brandubh host */\n{style}</style>\n</head>", 1)
            page = page.replace("</body>", f"<script>\n\"use strict\";\n{script}</script>\n</body>", 1)
            self._page = page.encode("utf-8")
        return self._page

"""The JSON interface of ``brandubh host``, without HTTP.

=========================================  ================================================
``GET /``                                  the page (serve's, in its host mode)
``GET /api/host``                          the rules presets, clocks, levels
``POST /api/host/games``                   a new game: ``side``, ``variant``, ``clock``,
                                           ``opponent`` (``invite`` or ``bot``), ``level``
``GET /api/host/games``                    the games finished last
``GET /api/host/games/ID``                 a game's state (anyone with its id)
``GET /api/host/games/ID/events``          the game's states as they change (server-sent
                                           events; the last one when it ends)
``GET /api/host/games/ID/text``            the game text, to download
``GET /api/host/games/ID/seat``            the seat a token holds (token)
``POST /api/host/games/ID/ACTION``         a seat acts (token): ``move`` (``move``),
                                           ``resign``, ``draw-offer``, ``draw-accept``,
                                           ``draw-decline``, ``takeback-offer``,
                                           ``takeback-accept``, ``takeback-decline``
=========================================  ================================================

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
from urllib.parse import urlsplit

from ..serve.api import Reply, RequestError, _fields, only
from .clock import PRESETS as CLOCKS
from .hub import ACTIONS, MAX_LEVEL, Follower, Hub, Sent

__all__ = ["HostApi", "Stream", "MAX_BODY"]

#: The largest request body read, in bytes: a move or a new game's fields.
MAX_BODY = 4096
_PATH = re.compile(r"/api/host/games/([^/]+)(?:/([a-z-]+))?")


class Stream(NamedTuple):
    """An answer that goes on: the follower whose states are sent as they come."""

    follower: Follower
    first: Sent


class HostApi:
    """The interface over a :class:`~.hub.Hub`: :meth:`call` takes a
    method, a path, a body, the request's token (or None) and the client
    (its address, for the limits), and gives a
    :class:`~brandubh.serve.api.Reply` or a :class:`Stream`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._page: Optional[bytes] = None

    def call(self, method: str, target: str, body: bytes = b"", *, token: Optional[str] = None,
             client: str = "") -> Union[Reply, Stream]:
        """Answer one request; never raises for anything a client sends."""
        try:
            return self._route(method.upper(), target, body, token, client)
        except RequestError as error:
            return Reply.refusal(error)

    def _route(self, method: str, target: str, body: bytes, token: Optional[str],
               client: str) -> Union[Reply, Stream]:
        path = urlsplit(target).path
        if len(body) > MAX_BODY:
            raise RequestError(f"the request body is {len(body)} bytes; the most read here is {MAX_BODY}", 413)
        if path == "/":
            only(method, "GET")
            return Reply.page(self.page())
        if path == "/api/host":
            only(method, "GET")
            from ..serve import api as serve_api
            from ..variant import PRESETS

            return Reply.of({"presets": list(PRESETS), "clocks": ["untimed", *CLOCKS],
                             "levels": list(range(1, MAX_LEVEL + 1)), "actions": list(ACTIONS),
                             "level_notes": {str(k): v for k, v in serve_api.LEVEL_NOTES.items()}})
        if path == "/api/host/games":
            if method == "GET":
                return Reply.of({"finished": self.hub.finished()})
            only(method, "POST")
            self.hub.allow(client)
            fields = _fields(body, ("side", "variant", "clock", "opponent", "level"))
            return Reply.of(self.hub.create(fields, client=client), 201)
        m = _PATH.fullmatch(path)
        if m is None:
            raise RequestError(f"nothing at {json.dumps(path)[:80]}: the page is at / and the interface under "
                               "/api/host", 404)
        game_id, action = m.group(1), m.group(2)
        if action is None:
            only(method, "GET")
            return Reply.of(self.hub.state(game_id))
        if action == "events":
            only(method, "GET")
            return Stream(*self.hub.follow(game_id))
        if action == "text":
            only(method, "GET")
            hg = self.hub.game(game_id)
            return Reply.download(hg.id, hg.session.text())
        if action == "seat":
            only(method, "GET")
            return Reply.of(self.hub.whoami(game_id, token))
        only(method, "POST")
        self.hub.allow(client)
        return Reply.of_json(self.hub.act_json(game_id, token, action, _fields(body, None)))   # the hub reads it

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

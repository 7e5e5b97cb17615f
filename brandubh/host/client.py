"""A program's seat at ``brandubh host``, in a few lines: :class:`BotClient`
(standard library only; it needs nothing else of the package).

Give it the seat's link (the invitation link the game's maker sends), then
:meth:`BotClient.play` with a function that chooses a move from the game's
state (a dict: ``legal`` holds the legal moves, ``position``, ``moves``,
``clocks``...). It follows the game's events, moves when it is its turn,
declines draw offers and take-backs unless told otherwise, and returns the
last state when the game ends.

>>> import threading
>>> from brandubh.host.store import Store
>>> from brandubh.host.hub import Hub
>>> from brandubh.host.api import HostApi
>>> from brandubh.host.http import HostServer
>>> server = HostServer(port=0, api=HostApi(Hub(Store(':memory:'), seed='doc')))
>>> threading.Thread(target=server.serve_forever, daemon=True).start()
>>> url = server.url.rstrip('/')
>>> made = BotClient.create(url, {'side': 'defenders', 'opponent': 'invite'})
>>> me = BotClient.from_link(url + made['links']['invite'])   # the attackers' seat, for a program
>>> me.seat()['side']
'attackers'
>>> def first_legal(state):
...     move = state['legal'][0]
...     return move['from'] + move['to']
>>> player = threading.Thread(target=lambda: me.play(first_legal), daemon=True)
>>> player.start()
>>> maker = BotClient(url, made['id'], made['token'])
>>> state = maker.wait(lambda s: s['ply'] == 1)          # the program has moved
>>> maker.resign()['result']
'the defenders resigned'
>>> player.join(60); player.is_alive()   # the program saw the end, and stopped
False
>>> server.shutdown(); server.server_close(); server.api.hub.close()

A program that plays as a bot account of a club (its token made with
``brandubh host --new-bot-token NAME``) is a :class:`ClubBot`: it reads
the lobby, posts and takes seeks, and plays each game through a
:class:`BotClient` that holds its seat by the bot token
(:meth:`ClubBot.seat`).
"""

from __future__ import annotations

import http.client
import itertools
import json
import time
from typing import Any, Callable, Iterator, Optional
from urllib.parse import parse_qs, urlsplit

__all__ = ["BotClient", "ClubBot", "HostError"]


class HostError(ValueError):
    """A request the server refused: ``status`` and its sentence;
    ``answer`` the whole JSON answer (a refusal's ``game`` in it)."""

    def __init__(self, status: int, answer: dict) -> None:
        super().__init__(str(answer.get("error", f"the server answered {status}")))
        self.status = status
        self.answer = answer


class BotClient:
    """A seat (or only a watcher, with no token) of one game at a
    ``brandubh host`` server at ``url`` (``http://127.0.0.1:8422``)."""

    def __init__(self, url: str, game_id: str, token: Optional[str] = None, *, timeout: float = 60.0) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"the server's address must be an http:// address, not {url!r}")
        self.scheme = parts.scheme
        self.netloc = parts.netloc
        self.game_id = game_id
        self.token = token
        self.timeout = timeout
        self._side: Optional[str] = None
        #: Tries, a second apart, to follow the game again when the server does not answer.
        self.retries = 60

    @classmethod
    def from_link(cls, link: str, *, timeout: float = 60.0) -> "BotClient":
        """The seat of a play link, ``http://host:port/#play=ID&token=T``."""
        parts = urlsplit(link)
        fields = parse_qs(parts.fragment)
        if "play" not in fields and "watch" not in fields:
            raise ValueError(f"not a link to a game: {link!r}")
        game_id = (fields.get("play") or fields["watch"])[0]
        token = fields.get("token", [None])[0]
        return cls(f"{parts.scheme}://{parts.netloc}", game_id, token, timeout=timeout)

    @classmethod
    def create(cls, url: str, fields: dict[str, Any], *, timeout: float = 60.0) -> dict[str, Any]:
        """Make a game (the fields of ``POST /api/host/games``); its answer:
        ``id``, ``token``, ``invite_token``, ``links``."""
        return cls(url, "", timeout=timeout)._ask("POST", "/api/host/games", fields)

    # -- requests ---------------------------------------------------------------------

    def _connection(self, timeout: Optional[float]) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        return kind(self.netloc, timeout=timeout)

    def _ask(self, method: str, path: str, body: Optional[dict] = None) -> Any:
        headers = {"Accept": "application/json"}
        data = None
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if method == "POST":
            headers["Content-Type"] = "application/json"
            data = json.dumps(body or {}).encode("utf-8")
        connection = self._connection(self.timeout)
        try:
            connection.request(method, path, data, headers)
            answer = connection.getresponse()
            raw = answer.read()
        finally:
            connection.close()
        try:
            payload = json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            payload = {"error": raw.decode("utf-8", "replace")[:200]}
        if answer.status >= 400:
            raise HostError(answer.status, payload)
        return payload

    @property
    def _path(self) -> str:
        return f"/api/host/games/{self.game_id}"

    def seat(self) -> dict[str, Any]:
        """``{'id', 'seat', 'side'}``: the seat this client's token holds."""
        answer = self._ask("GET", self._path + "/seat")
        self._side = answer["side"]
        return answer

    def state(self) -> dict[str, Any]:
        """The game's state now."""
        return self._ask("GET", self._path)

    def act(self, action: str, **fields: Any) -> dict[str, Any]:
        """One of the seat's actions (``move``, ``resign``, ``draw-offer``...): the new state."""
        return self._ask("POST", f"{self._path}/{action}", fields)

    def move(self, move: str) -> dict[str, Any]:
        """Play a move (``d1d3`` or ``d1-d3``): the new state."""
        return self.act("move", move=move)

    def resign(self) -> dict[str, Any]:
        return self.act("resign")

    def offer_draw(self) -> dict[str, Any]:
        return self.act("draw-offer")

    def events(self) -> Iterator[dict[str, Any]]:
        """The game's states as they change (the one now first), until the
        game ends or the server closes the stream."""
        connection = self._connection(None)
        try:
            connection.request("GET", self._path + "/events", headers={"Accept": "text/event-stream"})
            answer = connection.getresponse()
            if answer.status != 200:
                raw = answer.read()
                raise HostError(answer.status, json.loads(raw.decode("utf-8")) if raw else {})
            data: list[str] = []
            while True:
                line = answer.readline()
                if not line:
                    return
                text = line.decode("utf-8").rstrip("\r\n")
                if text.startswith("data:"):
                    data.append(text[5:].lstrip(" "))
                elif not text and data:
                    yield json.loads("\n".join(data))
                    data = []
        finally:
            connection.close()

    def wait(self, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first state (now or later) for which ``condition`` is true,
        or the last one when the game ends first."""
        last: dict[str, Any] = {}
        for state in self.events():
            last = state
            if condition(state):
                return state
        return last

    # -- playing -------------------------------------------------------------------------

    def play(self, choose: Callable[[dict[str, Any]], str], *, accept_draw: Callable[[dict], bool] = lambda s: False,
             allow_takeback: Callable[[dict], bool] = lambda s: False) -> dict[str, Any]:
        """Play the game to its end: ``choose(state)`` gives the move when
        it is this seat's turn; ``accept_draw(state)`` and
        ``allow_takeback(state)`` answer the other side's offers (no by
        default). The last state."""
        side = self._side or self.seat()["side"]
        done = -1
        last: dict[str, Any] = {}
        failures = 0
        while True:
            try:
                stream = self.events()
                first = next(stream)
            except (OSError, StopIteration):
                failures += 1   # the server is starting again: try for a while
                if failures > self.retries:
                    raise
                time.sleep(1.0)
                continue
            failures = 0
            for state in itertools.chain([first], stream):
                last = state
                if state["status"] != "active":
                    return state
                if state["version"] <= done:
                    continue
                try:
                    if state.get("draw_offer") not in (None, side):
                        done = state["version"]
                        self.act("draw-accept" if accept_draw(state) else "draw-decline")
                    elif state.get("takeback") not in (None, side):
                        done = state["version"]
                        self.act("takeback-accept" if allow_takeback(state) else "takeback-decline")
                    elif state["to_move"] == side:
                        done = state["version"]
                        self.move(choose(state))
                except HostError as error:
                    if error.status != 409:
                        raise
                    # The game moved on meanwhile (an offer withdrawn, a flag): its next state comes.
            if last.get("status", "active") != "active":
                return last
            # The stream ended with the game on (the server restarted): follow it again.


class ClubBot:
    """A bot account of a club at ``url``, acting with its ``bot_token``
    (the club's calls; a game's seat is :meth:`seat`).

    >>> bot = ClubBot('http://127.0.0.1:8422', 'TOKEN')
    >>> bot.seat('0123456789ab').token
    'TOKEN'
    """

    def __init__(self, url: str, bot_token: str, *, timeout: float = 60.0) -> None:
        self.url = url
        self._client = BotClient(url, "", bot_token, timeout=timeout)
        self.timeout = timeout

    def me(self) -> dict[str, Any]:
        """The account the token is (``name``, ``kind``)."""
        return self._client._ask("GET", "/api/host/me")

    def lobby(self) -> dict[str, Any]:
        """The open ``seeks`` and the club's games in play (``playing``)."""
        return self._client._ask("GET", "/api/host/lobby")

    def seek(self, **fields: Any) -> dict[str, Any]:
        """Post a seek (``variant``, ``clock``, ``side``, ``rated``, ``range``)."""
        return self._client._ask("POST", "/api/host/seeks", fields)

    def take(self, seek_id: str) -> dict[str, Any]:
        """Take a seek: the new game's state (its ``id``)."""
        return self._client._ask("POST", f"/api/host/seeks/{seek_id}/take")

    def cancel(self, seek_id: str) -> dict[str, Any]:
        """Withdraw one's own seek."""
        return self._client._ask("POST", f"/api/host/seeks/{seek_id}/cancel")

    def player(self, name: str) -> dict[str, Any]:
        """A player's page: ``ratings``, ``games``, ``record``, ``your_move``."""
        from urllib.parse import quote

        return self._client._ask("GET", f"/api/host/players/{quote(name)}")

    def tournaments(self) -> list[dict[str, Any]]:
        """The club's tournaments (``id``, ``name``, ``state``, ``players``, ``size``)."""
        return self._client._ask("GET", "/api/host/tournaments")["tournaments"]

    def tournament(self, tournament_id: str) -> dict[str, Any]:
        """A tournament: ``players``, ``games`` by round, ``standings``."""
        return self._client._ask("GET", f"/api/host/tournaments/{tournament_id}")

    def join(self, tournament_id: str) -> dict[str, Any]:
        """Enter a tournament not yet begun; its games are then this
        account's seats (their ids in :meth:`tournament`)."""
        return self._client._ask("POST", f"/api/host/tournaments/{tournament_id}/join")

    def seat(self, game_id: str) -> BotClient:
        """This account's seat in a game, to :meth:`~BotClient.play`."""
        return BotClient(self.url, game_id, self._client.token, timeout=self.timeout)

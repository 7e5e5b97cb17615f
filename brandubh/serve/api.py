"""``brandubh serve``: the board in a browser, to play the engine and to
look at saved games.

    brandubh serve                      # http://127.0.0.1:8421/
    brandubh serve --port 0             # any free port; the URL is printed

The server is the standard library's :class:`http.server.ThreadingHTTPServer`
(one person on one machine needs no more) in front of :class:`Api`, a small
JSON interface over :class:`~brandubh.Game` and :class:`~brandubh.Bot`:
every legal target, refusal, capture and ending comes from the game, and
the page (``brandubh/serve/page.html``, one file with its script and style,
loading nothing from anywhere) only shows them. The board is the package's
own SVG picture (:func:`brandubh.views.svg.board`).

The interface, every body and answer a JSON object (an error is
``{"error": sentence}``):

=====================================  ======================================
``GET /``                              the page
``GET /api``                           the presets, the levels, the sides
``POST /api/games``                    a new game: ``side``, ``level``, ``variant``
``GET /api/games/ID[?ply=N]``          the game, or how it stood after N moves
``POST /api/games/ID/move``            your move: ``move`` (``d1d3`` or ``d1-d3``)
``POST /api/games/ID/reply``           the engine's move, when it is its turn
``POST /api/games/ID/undo``            your last move and the reply taken back
``POST /api/games/ID/resign``          you give the game up
``POST /api/games/ID/draw``            you offer a draw; the engine answers
``POST /api/games/ID/analysis``        the score and best line: ``ply`` (optional)
``POST /api/games/ID/continue``        play on from ``ply`` as ``side`` at ``level``
``GET /api/games/ID/text``             the game text, to download
``POST /api/open``                     saved games to look at: ``text``
``POST /api/puzzles``                  the next puzzle (:mod:`brandubh.serve.puzzles`)
``POST /api/puzzles/ID/ACTION``        a puzzle's ``move``, ``hint``, ``solution``
=====================================  ======================================

A request the interface cannot read gets a 400 with a sentence saying what
was wrong, a move or an offer the game refuses a 409 with the game's own
sentence (and nothing changed), an unknown game a 404; no answer is ever a
traceback. Nothing but the page is served from the disk, and only by its
own path. Each game has its own lock, held while the engine thinks, and the
search releases the GIL, so one game's engine does not hold up another's
requests.

>>> api = Api(seed='doc')
>>> new = api.call('POST', '/api/games', b'{"side": "attackers", "level": 1}')
>>> new.status, new.json()['your_turn'], len(new.json()['legal'])
(201, True, 40)
>>> game_id = new.json()['id']
>>> refused = api.call('POST', f'/api/games/{game_id}/move', b'{"move": "d1d4"}')
>>> refused.status, refused.json()['error']
(409, 'd1 to d4: the attacker on d1 is blocked by the piece on d2')
>>> api.call('POST', '/api/games', b'{"level": 9}').json()['error']
'level must be a whole number from 1 to 6, not 9'
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple, Optional, Union
from urllib.parse import parse_qs, urlsplit

from ..core.endgame import rules_key
from ..endgame import table_view
from ..errors import ArgumentError, BrandubhError, quote
from .. import notation
from ..session import HINT_BUDGET, Said, Session, analyse, result_sentence, table_state

if TYPE_CHECKING:
    from ..bot import Bot
    from ..core.endgame import EndgameTables
    from ..game import Game

__all__ = ["Api", "RequestError", "Reply", "Table", "puzzle_route", "MAX_LEVEL", "LEVEL_NOTES", "MAX_TABLES", "MAX_REVIEWS",
           "DEFAULT_PORT", "read_games", "query_ply"]

#: The port ``brandubh serve`` listens on unless told otherwise.
DEFAULT_PORT = 8421
#: The strongest level the server offers: all of ``brandubh play``'s. Level 5
#: thinks a few hundredths of a second a move on the project's machine; level
#: 6, eight times as many positions, a few tenths there and a second or more
#: on a slower one, and the page says so beside it (:data:`LEVEL_NOTES`).
MAX_LEVEL = 6
#: What the page says beside a level, where there is something to say.
LEVEL_NOTES = {6: "slow: a second or more a move"}
#: The most games in play kept at once; past it the one used longest ago
#: goes. Saved games opened to look at are kept apart and never push out a
#: game in play.
MAX_TABLES = 100
#: The most saved games opened to look at kept at once; past it the ones
#: used longest ago go (never one of those a request has just opened, nor a
#: game in play). A text holding more games than this is refused.
MAX_REVIEWS = 500
#: The largest request body read, in bytes (a long saved file fits many times).
MAX_BODY = 1 << 20
#: The search budget of an analysis: a hint's, in ``brandubh play`` too.
ANALYSIS_BUDGET = HINT_BUDGET
#: The most positions a review may search in each position.
MAX_REVIEW_BUDGET = 1_000_000
SIDES = notation.SIDES

# What the page may do, and nothing more: its own script and style, requests
# to this server, no other origin, no frames.
PAGE_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

_ID = re.compile(r"[0-9a-f]{12}")
_GAME_PATH = re.compile(r"/api/games/([^/]+)(?:/([a-z]+))?")
_ACTIONS = ("move", "reply", "undo", "resign", "draw", "analysis", "review", "continue")
_PUZZLE_PATH = re.compile(r"/api/puzzles/([^/]+)(?:/([a-z]+))?")


class RequestError(BrandubhError):
    """A request the interface will not carry out: ``status`` is the HTTP
    status (400 for one it cannot read, 404, 405, 409, 413, 415), and the
    text a sentence saying what was wrong. ``game`` is the game's state
    for a refusal (409), which changed nothing.

    >>> RequestError('no game here', 404).status
    404
    """

    def __init__(self, message: str, status: int = 400, *, code: Optional[str] = None,
                 game: Optional[dict] = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.game = game


class Reply(NamedTuple):
    """One answer: the HTTP ``status``, the ``content_type``, the ``body``
    and any further ``headers``.

    >>> Reply.of({'a': 1}).body
    b'{"a": 1}'
    """

    status: int
    content_type: str
    body: bytes
    headers: tuple = ()

    @classmethod
    def of(cls, payload: dict, status: int = 200) -> "Reply":
        """A JSON answer."""
        return cls.of_json(json.dumps(payload).encode("utf-8"), status)

    @classmethod
    def of_json(cls, data: bytes, status: int = 200) -> "Reply":
        """A JSON answer written already."""
        return cls(status, "application/json; charset=utf-8", data)

    @classmethod
    def page(cls, body: bytes) -> "Reply":
        """The page, under its content security policy (:data:`PAGE_POLICY`)."""
        return cls(200, "text/html; charset=utf-8", body, (("Content-Security-Policy", PAGE_POLICY),))

    @classmethod
    def download(cls, game_id: str, text: str) -> "Reply":
        """A game's text, as a file to save (``brandubh-ID.txt``)."""
        return cls(200, "text/plain; charset=utf-8", text.encode("utf-8"),
                   (("Content-Disposition", f'attachment; filename="brandubh-{game_id}.txt"'),))

    @classmethod
    def refusal(cls, error: "RequestError") -> "Reply":
        """The answer to a request refused: ``{"error": sentence}`` with its
        status, and the refusal's ``code`` and ``game`` where it has them
        (``brandubh serve``'s and ``brandubh host``'s interfaces alike).

        >>> Reply.refusal(RequestError('no such game', 404)).json()
        {'error': 'no such game'}
        """
        payload: dict[str, Any] = {"error": str(error)}
        if error.code is not None:
            payload["code"] = error.code
        if error.game is not None:
            payload["game"] = error.game
        return cls.of(payload, error.status)

    def json(self) -> Any:
        """The body read back as JSON.

        >>> Reply.of({'ok': True}).json()
        {'ok': True}
        """
        return json.loads(self.body.decode("utf-8"))


class Table:
    """One game at the server: the :class:`~brandubh.Game`, and the
    :class:`~brandubh.session.Session` of the person playing it against the
    engine (None for a saved game opened to look at). ``lock`` makes each
    request on it one step, the engine's thinking included; ``said`` is
    what the last request said (the session's, for a game in play).

    >>> from brandubh import Bot, Game
    >>> table = Table('0123456789ab', Game(), 'defenders', Bot(1))
    >>> table.engine_side, table.engine_to_move
    ('attackers', True)
    """

    def __init__(self, table_id: str, game: "Game", you: Optional[str], bot: Optional["Bot"],
                 label: str = "") -> None:
        self.id = table_id
        self._game = game
        self.session = Session(game, bot, you, hint_budget=ANALYSIS_BUDGET) if you is not None and bot else None
        self.label = label
        self._said = ""
        self.review: Optional[tuple[Any, dict]] = None  # the last review: (its game text and budget, its fields)
        self.lock = self.session.lock if self.session is not None else threading.RLock()
        self.used = time.monotonic()

    @property
    def game(self) -> "Game":
        return self.session.game if self.session is not None else self._game

    @property
    def said(self) -> str:
        return self.session.said if self.session is not None else self._said

    @said.setter
    def said(self, text: str) -> None:
        if self.session is not None:
            self.session.said = text
        else:
            self._said = text

    @property
    def you(self) -> Optional[str]:
        """The person's side, or None for a game opened to look at."""
        return self.session.side if self.session is not None else None

    @property
    def bot(self) -> Optional["Bot"]:
        return self.session.bot if self.session is not None else None

    @property
    def engine_side(self) -> Optional[str]:
        """The engine's side, or None for a game opened to look at."""
        return self.session.other if self.session is not None else None

    @property
    def engine_to_move(self) -> bool:
        """Whether the game is on and waits for the engine."""
        return self.session is not None and self.session.engine_to_move


def read_games(text: str, most: Optional[int] = None) -> list[tuple[str, "Game"]]:
    """The games in a saved text, each with a label: any text
    :func:`brandubh.records.read_records` reads (one game text, as
    :meth:`Game.as_text <brandubh.Game.as_text>`, ``brandubh play``'s
    ``save`` and ``brandubh referee --save`` write it; several after ``#``
    lines, as ``brandubh match --games-out`` writes them; a game record of
    ``referee --save``, its JSON; an OpenTafl game record). A
    :class:`RequestError` saying which game, which line and what is wrong
    otherwise, or, when the text holds more than ``most`` games, how many
    it holds (before any is played through).

    >>> games = read_games('# the first\\nvariant brandubh\\nmoves d2c2\\n\\nvariant codingame\\nmoves d1c1 d3c3\\n')
    >>> [(label, game.ply) for label, game in games]
    [('the first', 1), ('game 2', 2)]
    >>> read_games('variant brandubh\\nmoves d1d4\\n')
    Traceback (most recent call last):
    ...
    brandubh.serve.api.RequestError: line 2: move 1 (d1d4) is refused: d1 to d4: the attacker on d1 is blocked by the piece on d2
    >>> read_games('variant brandubh\\nmoves\\n\\n' * 3, most=2)
    Traceback (most recent call last):
    ...
    brandubh.serve.api.RequestError: the text holds 3 games; at most 2 saved games are kept open at once: open it in parts
    """
    from ..records import read_game_texts, read_texts

    try:
        found = read_texts(text)
        if most is not None and len(found) > most:
            raise RequestError(f"the text holds {len(found)} games; at most {most} saved games are kept open at "
                               "once: open it in parts")
        records = read_game_texts(found)
    except RequestError:
        raise
    except BrandubhError as error:
        raise RequestError(str(error)) from None
    return [(record.label or f"game {number}", record.game) for number, record in enumerate(records, 1)]


# -- reading a request ------------------------------------------------------------


def _fields(body: bytes, allowed: Optional[tuple[str, ...]]) -> dict:
    """The request body as a JSON object with only the ``allowed`` keys
    (any, for None: the caller reads them)."""
    if not body.strip():
        return {}
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise RequestError("the request body is not UTF-8 text") from None
    except RecursionError:
        raise RequestError("the request body is nested too deeply to read: a request here is one JSON object "
                           "of plain fields") from None
    except ValueError as error:
        raise RequestError(f"the request body is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise RequestError(f"the request body must be a JSON object, not {type(data).__name__}")
    unknown = sorted(set(data) - set(allowed)) if allowed is not None else []
    if unknown:
        known = ", ".join(allowed) if allowed else "none"
        raise RequestError(f"unknown field {quote(unknown[0])} (the fields here are: {known})")
    return data


def only(method: str, allowed: str) -> None:
    """A 405 for a request sent with another method than ``allowed`` (HEAD
    is answered where GET is)."""
    if method != allowed and not (method == "HEAD" and allowed == "GET"):
        raise RequestError(f"{method} is not answered here: send {allowed}", 405)


def move_text(value: object) -> str:
    """A request's ``move`` field: a move as text (read by the game, in
    either written form); a :class:`RequestError` for anything else.

    >>> move_text(12)
    Traceback (most recent call last):
    ...
    brandubh.serve.api.RequestError: move must be a move as text, d1d3 or d1-d3, not 12
    """
    if not isinstance(value, str) or not 1 <= len(value) <= 24:
        raise RequestError(f"move must be a move as text, d1d3 or d1-d3, not {quote(value)}")
    return value


def puzzle_route(room: Any, method: str, path: str, body: bytes, who: Any = None) -> Optional[Reply]:
    """The page's puzzle requests (``/api/puzzles...``) answered by
    ``room`` (a :class:`~brandubh.serve.puzzles.PuzzleRoom`: ``brandubh
    serve``'s, or ``brandubh host``'s, which keeps its accounts' ratings),
    for the solver ``who`` (None here); None for a path that is not one.
    The room's refusals are the interface's own."""
    from .puzzles import ACTIONS, PuzzleRefusal

    m = _PUZZLE_PATH.fullmatch(path)
    if path != "/api/puzzles" and m is None:
        return None
    try:
        if m is None:
            only(method, "POST")
            return Reply.of(room.new(_fields(body, room.FIELDS), who), 201)
        table = room.attempt(m.group(1), who)
        action = m.group(2)
        if action is None:
            only(method, "GET")
            with table.lock:
                return Reply.of(room.state(table))
        if action not in ACTIONS:
            raise RequestError(f"a puzzle has no {quote(action)}: the actions are {', '.join(ACTIONS)} (POST)", 404)
        only(method, "POST")
        fields = _fields(body, ("move",) if action == "move" else ())
        if action == "move":
            fields["move"] = move_text(fields.get("move"))
        answer = {"move": room.move, "hint": room.give_hint, "solution": room.give_up}
        with table.lock:
            return Reply.of(answer[action](table, fields))
    except PuzzleRefusal as error:
        raise RequestError(str(error), error.status) from None


def _whole(value: object, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RequestError(f"{name} must be a whole number from {low} to {high}, not {quote(value)}")
    return value


def _side(value: object) -> str:
    if value not in SIDES:
        raise RequestError(f"side must be 'attackers' or 'defenders', not {quote(value)}")
    return str(value)


# -- the interface ------------------------------------------------------------------


def _read_tables(folder: Union[str, "os.PathLike[str]"]) -> dict[str, "EndgameTables"]:
    """Every preset's endgame tables that a folder holds, by their rules'
    key (presets whose tables are the same share them); an
    :class:`~brandubh.errors.ArgumentError` when it holds none."""
    from ..endgame import load_tables, table_path
    from ..variant import PRESETS

    if not os.path.isdir(folder):
        raise ArgumentError(f"{quote(os.fspath(folder), 200)} is not a folder of endgame tables")
    found: dict[str, "EndgameTables"] = {}
    for name in PRESETS:
        key = rules_key(name)
        if key not in found and os.path.exists(table_path(folder, name, 0, 0)):
            found[key] = load_tables(folder, name)
    if not found:
        raise ArgumentError(f"{quote(os.fspath(folder), 200)} holds no endgame tables for any preset (build them: "
                            "brandubh tables build --pieces N --variant V --out DIR)")
    return found


def query_ply(query: dict[str, list[str]]) -> Optional[int]:
    """The position asked for in a game's address (``?ply=N``: how the game
    stood after N moves), or None for its end; the one reading of it, for
    ``brandubh serve`` and ``brandubh host``. ``query``: the address's
    fields, as :func:`urllib.parse.parse_qs` reads them. Any other field, or
    a ply that is not a whole number, is a :class:`RequestError`.

    >>> query_ply({'ply': ['3']}), query_ply({})
    (3, None)
    >>> query_ply({'ply': ['x']})
    Traceback (most recent call last):
    ...
    brandubh.serve.api.RequestError: ply must be a whole number, not 'x'
    """
    unknown = sorted(set(query) - {"ply"})
    if unknown:
        raise RequestError(f"unknown query field {quote(unknown[0])} (the field here is: ply)")
    if "ply" not in query:
        return None
    raw = query["ply"][-1]
    if not re.fullmatch(r"-?[0-9]{1,6}", raw):
        raise RequestError(f"ply must be a whole number, not {quote(raw)}")
    return int(raw)


class Api:
    """The JSON interface, without HTTP: :meth:`call` takes a method, a
    path (with its query) and a body, and gives a :class:`Reply`. It keeps
    the games (:class:`Table`) by id: at most :data:`MAX_TABLES` games in
    play and, apart from them, :data:`MAX_REVIEWS` saved games opened to
    look at.

    ``seed``: any text, so that the engines play the same way again (a
    fresh one each start by default). ``make_bot``: how a game's engine is
    made from a level and a seed (:class:`~brandubh.Bot` by default).
    ``tables``: a folder of endgame tables (``brandubh tables build``),
    read at once for every preset it holds tables of (:func:`load_tables
    <brandubh.endgame.load_tables>`; an :class:`~brandubh.errors.ArgumentError`
    when it holds none): each game of those rules searches with them, its
    review says what they say of each move, and its state has ``table``
    (:func:`table_view <brandubh.endgame.table_view>`, or None) wherever a
    person is not at the live position of a game in play.

    >>> api = Api()
    >>> info = api.call('GET', '/api').json()
    >>> info['levels'], info['level_notes'], info['presets'][:2]
    ([1, 2, 3, 4, 5, 6], {'6': 'slow: a second or more a move'}, ['brandubh', 'codingame'])
    >>> api.call('GET', '/api/games/nothing').json()['error']
    "no game 'nothing' here: a game's id is 12 hexadecimal digits"
    """

    def __init__(self, *, seed: Optional[str] = None,
                 make_bot: Optional[Callable[[int, str], "Bot"]] = None,
                 tables: Optional[Union[str, "os.PathLike[str]"]] = None) -> None:
        self.seed = seed if seed is not None else secrets.token_hex(8)
        self._make_bot = make_bot
        #: The endgame tables by their rules' key (``tables``), or {}.
        self.endgame: dict[str, "EndgameTables"] = {} if tables is None else _read_tables(tables)
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._count = 0
        self._page: Optional[bytes] = None
        from .puzzles import PuzzleRoom

        self.puzzles = PuzzleRoom(seed=seed)

    # -- the games ----------------------------------------------------------------

    def _bot(self, level: int) -> "Bot":
        with self._lock:
            self._count += 1
            seed = f"{self.seed}|{self._count}"
        if self._make_bot is not None:
            return self._make_bot(level, seed)
        from ..bot import Bot

        return Bot(level, seed=seed)

    def _keep(self, game: "Game", you: Optional[str], bot: Optional["Bot"], label: str = "") -> Table:
        """A game in play (``you`` and ``bot``) or one opened to look at, kept."""
        return self._keep_all([(game, you, bot, label)])[0]

    def _keep_all(self, games: list[tuple["Game", Optional[str], Optional["Bot"], str]]) -> list[Table]:
        """Keep games, all of one kind, under one hold of the lock; past the
        most of that kind, those of that kind used longest ago go, never
        one of these."""
        with self._lock:
            made = []
            for game, you, bot, label in games:
                if self.endgame:
                    game.endgame = self.endgame.get(rules_key(game.variant))
                table_id = secrets.token_hex(6)
                while table_id in self._tables:  # pragma: no cover - one chance in 2**48
                    table_id = secrets.token_hex(6)
                table = Table(table_id, game, you, bot, label)
                self._tables[table_id] = table
                made.append(table)
            review = made[0].session is None
            most = MAX_REVIEWS if review else MAX_TABLES
            new = {table.id for table in made}
            kind = [t for t in self._tables.values() if (t.session is None) == review and t.id not in new]
            kind.sort(key=lambda t: t.used)
            for table in kind[:max(0, len(kind) + len(made) - most)]:
                del self._tables[table.id]
            return made

    def table(self, table_id: str) -> Table:
        """The game with this id; a :class:`RequestError` (404) for none."""
        if not _ID.fullmatch(table_id):
            raise RequestError(f"no game {quote(table_id)} here: a game's id is 12 hexadecimal digits", 404)
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                raise RequestError(f"no game {quote(table_id)} here: it was never made, or it was closed "
                                   f"(the server keeps the {MAX_TABLES} games in play and the {MAX_REVIEWS} "
                                   "saved games used last)", 404)
            table.used = time.monotonic()
            return table

    def __len__(self) -> int:
        with self._lock:
            return len(self._tables)

    # -- answering ------------------------------------------------------------------

    def call(self, method: str, target: str, body: bytes = b"") -> Reply:
        """Answer one request; never raises for anything a client sends."""
        try:
            return self._route(method.upper(), target, body)
        except RequestError as error:
            reply = Reply.refusal(error)
            if error.status == 405:
                reply = reply._replace(headers=(("Allow", "GET, POST" if "/api" in target else "GET"),))
            return reply

    def _route(self, method: str, target: str, body: bytes) -> Reply:
        parts = urlsplit(target)
        path, query = parts.path, parse_qs(parts.query, keep_blank_values=True)
        if path == "/":
            only(method, "GET")
            return Reply.page(self.page())
        if path == "/api":
            only(method, "GET")
            return Reply.of(self._info())
        if path == "/api/games":
            only(method, "POST")
            return Reply.of(self._new(_fields(body, ("side", "level", "variant"))), 201)
        if path == "/api/open":
            only(method, "POST")
            return Reply.of(self._open(_fields(body, ("text",))), 201)
        puzzled = puzzle_route(self.puzzles, method, path, body)
        if puzzled is not None:
            return puzzled
        m = _GAME_PATH.fullmatch(path)
        if m is None:
            raise RequestError(f"nothing at {quote(path)}: the page is at / and the interface under /api", 404)
        table = self.table(m.group(1))
        action = m.group(2)
        if action is None:
            only(method, "GET")
            ply = query_ply(query)
            with table.lock:
                return Reply.of(self.state(table, ply))
        if action == "text":
            only(method, "GET")
            with table.lock:
                return Reply.download(table.id, table.game.as_text())
        if action not in _ACTIONS:
            raise RequestError(f"a game has no {quote(action)}: the actions are {', '.join(_ACTIONS)} "
                               "(POST) and text (GET)", 404)
        only(method, "POST")
        with table.lock:
            payload = getattr(self, "_" + action)(table, body)
        return Reply.of(payload, 201 if action == "continue" else 200)

    def page(self) -> bytes:
        """The page, read once from the package's data."""
        if self._page is None:
            from importlib import resources

            self._page = resources.files("brandubh.serve").joinpath("page.html").read_bytes()
        return self._page

    # -- what a game looks like ------------------------------------------------------

    def state(self, table: Table, ply: Optional[int] = None, *, arrows: Iterable[Any] = ()) -> dict:
        """What the page shows of a game (at ``ply``, its end by default):
        :func:`~brandubh.session.table_state`, with the table's own fields."""
        game, session = table.game, table.session
        try:
            shown = (session.state(ply, arrows=arrows) if session is not None
                     else table_state(game, ply, said=table.said, arrows=arrows))
        except ArgumentError as error:
            raise RequestError(str(error)) from None
        at_end = shown["ply"] == game.ply
        if self.endgame:
            # Not at the live position of a game in play: the tables would
            # be a hint nobody asked for.
            live = at_end and session is not None and game.status == "active"
            view = None if live else table_view(game if at_end else game.after(shown["ply"]))
            shown = {**shown, "table": None if view is None else view.as_dict()}
        return {
            "id": table.id,
            "mode": "review" if session is None else "play",
            "label": table.label,
            "you": table.you,
            "level": table.bot.level if table.bot is not None else None,
            "plies": game.ply,
            "your_turn": at_end and session is not None and session.your_turn,
            "engine_to_move": at_end and table.engine_to_move,
            **shown,
        }

    def _info(self) -> dict:
        from .. import __version__
        from ..variant import PRESETS

        return {"version": __version__, "presets": list(PRESETS), "levels": list(range(1, MAX_LEVEL + 1)),
                "level_notes": {str(level): note for level, note in LEVEL_NOTES.items()},
                "sides": list(SIDES), "default_level": 3}

    # -- the actions -------------------------------------------------------------------

    def _new(self, fields: dict) -> dict:
        from ..game import Game

        side = _side(fields.get("side", "attackers"))
        level = _whole(fields.get("level", 3), "level", 1, MAX_LEVEL)
        variant = fields.get("variant", "brandubh")
        if not isinstance(variant, str):
            raise RequestError(f"variant must be a preset's name or a line of field=value pairs, not {quote(variant)}")
        try:
            game = Game("p1" if side == "attackers" else "p2", variant=variant.strip() or "brandubh")
        except BrandubhError as error:
            raise RequestError(str(error)) from None
        table = self._keep(game, side, self._bot(level))
        table.said = (f"You have the {side}; the engine, level {level}, has the {table.engine_side}. "
                      + ("Your move." if side == "attackers" else "The engine moves first."))
        with table.lock:
            return self.state(table)

    def _open(self, fields: dict) -> dict:
        text = fields.get("text")
        if not isinstance(text, str):
            raise RequestError("give the saved game as \"text\", a string")
        games = read_games(text, most=MAX_REVIEWS)
        tables = self._keep_all([(game, None, None, label) for label, game in games])
        return {"games": [{"id": table.id, "label": table.label, "plies": table.game.ply,
                           "variant": table.game.variant.as_string(), "result": result_sentence(table.game)}
                          for table in tables]}

    @staticmethod
    def _playing(table: Table) -> Session:
        if table.session is None:
            raise RequestError("this is a saved game opened to look at: play on from a move of it "
                               "(continue) to play it", 409)
        return table.session

    def _done(self, table: Table, said: Optional[Said]) -> dict:
        """The game's state after a request: what it did said under the
        board, or a 409 with the sentence when it was refused."""
        if said is not None and said.refused:
            raise RequestError(said.text, 409, code=said.code, game=self.state(table))
        return self.state(table)

    def _move(self, table: Table, body: bytes) -> dict:
        move = move_text(_fields(body, ("move",)).get("move"))
        return self._done(table, self._playing(table).move(move))

    def _asked(self, table: Table, body: bytes, request: str) -> dict:
        """A request with no fields: the session's method of that name (a
        reply asked twice, or too late, does nothing and changes nothing)."""
        _fields(body, ())
        return self._done(table, getattr(self._playing(table), request)())

    def _reply(self, table: Table, body: bytes) -> dict:
        return self._asked(table, body, "reply")

    def _undo(self, table: Table, body: bytes) -> dict:
        return self._asked(table, body, "undo")

    def _resign(self, table: Table, body: bytes) -> dict:
        return self._asked(table, body, "resign")

    def _draw(self, table: Table, body: bytes) -> dict:
        return self._asked(table, body, "offer_draw")

    def _analysis(self, table: Table, body: bytes) -> dict:
        fields = _fields(body, ("ply",))
        ply = fields.get("ply")
        if ply is not None:
            _whole(ply, "ply", 0, table.game.ply)
        try:
            found = analyse(table.game, ply, budget=ANALYSIS_BUDGET, you=table.you)
        except ArgumentError as error:
            raise RequestError(str(error), 409, code="game_over", game=self.state(table, ply)) from None
        state = self.state(table, ply, arrows=[(found.best[:2], found.best[2:], "#1f7a1f")])
        return {"best": found.best, "shown": found.shown, "raw": found.raw, "for": found.side,
                "outlook": found.outlook.as_dict(), "depth": found.depth, "nodes": found.nodes, "mate_in": found.mate_in, "line": list(found.line),
                "sentence": found.sentence, "game": state}

    def _review(self, table: Table, body: bytes) -> dict:
        """The game reviewed move by move (brandubh.review), kept on the
        table for the same moves and budget, so stepping through it asks
        nothing more of the engine."""
        from ..review import analyse_game

        fields = _fields(body, ("budget",))
        budget = _whole(fields.get("budget", ANALYSIS_BUDGET), "budget", 1, MAX_REVIEW_BUDGET)
        key = (table.game.as_text(), budget)
        if table.review is None or table.review[0] != key:
            table.review = (key, analyse_game(table.game, budget=budget).as_dict())
        return {"review": table.review[1], "game": self.state(table)}

    def _continue(self, table: Table, body: bytes) -> dict:
        from ..game import Game

        fields = _fields(body, ("ply", "side", "level"))
        ply = _whole(fields.get("ply", table.game.ply), "ply", 0, table.game.ply)
        side = _side(fields.get("side", "attackers"))
        level = _whole(fields.get("level", 3), "level", 1, MAX_LEVEL)
        old = table.game
        game = Game.replay(old.log[:ply], attackers="p1" if side == "attackers" else "p2",
                           variant=old.variant, position=old.start).game
        new = self._keep(game, side, self._bot(level))
        new.said = (f"Playing on from move {ply}: you have the {side}; the engine, level {level}, "
                    f"has the {new.engine_side}.")
        if game.status != "active":
            new.said += f" The game is over there: {game.result_sentence}."
        with new.lock:
            return self.state(new)


# -- HTTP ---------------------------------------------------------------------------


# -- the command ------------------------------------------------------------------------

"""The people at one table: what ``brandubh play`` does at a terminal,
``brandubh serve`` in a browser and ``brandubh host`` over the network,
written once.

A :class:`Session` holds a :class:`~brandubh.Game` and who sits at each
side: a person against the :class:`~brandubh.Bot` that plays the other
(play, serve), or a seat for each side, a person's, a program's or a bot's
(host). Each thing a seat asks for (a move, a bot's reply, an undo or a
take-back, a draw offer and its answer, a resignation, a hint) is one
method, and each answers with a :class:`Said`: the sentences that say what
happened, or why nothing did. The front ends only show them: the terminal
prints them round the board, the pages put them under it, from one account
of the table (:func:`table_state`).

>>> from brandubh import Bot, Game
>>> session = Session(Game(), Bot(1, seed='doc'), 'attackers')
>>> print(session.move('d1d4'))
d1 to d4: the attacker on d1 is blocked by the piece on d2
>>> print(session.move('d2c2'))
You play d2-c2.
>>> session.engine_to_move, session.reply().text.startswith('The engine (defenders) plays ')
(True, True)
>>> print(session.undo())
Took back 2 moves.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Protocol, Union

from . import notation
from .chances import Outlook
from .errors import ArgumentError, quote
from .words import plural

if TYPE_CHECKING:
    from .bot import Bot
    from .core.search import SearchResult
    from .game import Game, Played, Refusal
    from .moves import Move

__all__ = ["Session", "Said", "Analysis", "ClockLike", "HINT_BUDGET", "analyse", "judged", "result_sentence",
           "table_state"]

#: The search budget of a hint or an analysis, whatever the engine's level:
#: level 4's, a few hundredths of a second.
HINT_BUDGET = 48_000
SIDES = notation.SIDES


@dataclass(frozen=True)
class Said:
    """What one request did. ``text``: the sentences saying so (or why
    nothing was done); ``ending``: how the game ended, when this request
    ended it at a table of one person (``'Game over: the king reached a
    corner, the defenders (p2) won. You win.'``), else empty; ``code``:
    None when the request was carried out, else why it was refused and
    nothing changed (a :class:`~brandubh.RefusalCode`'s value, or
    ``'nothing_to_undo'``; a flag that fell as the request began is a
    change of its own, said and handed on before the refusal).
    ``str()`` is the text and the ending together.

    >>> str(Said('You resign.', 'Game over: the attackers resigned. The engine wins.'))
    'You resign. Game over: the attackers resigned. The engine wins.'
    """

    text: str
    ending: str = ""
    code: Optional[str] = None

    @property
    def refused(self) -> bool:
        """True when nothing changed."""
        return self.code is not None

    def __str__(self) -> str:
        return f"{self.text} {self.ending}" if self.ending and self.text else self.text or self.ending


@dataclass(frozen=True)
class Analysis:
    """The search's view of a position: the ``best`` move (stored) and as
    ``shown``, the ``side`` to move, the ``outlook`` (a
    :class:`~brandubh.chances.Outlook`: the centred score and the chance,
    for the person's side when one was given, else for the side to move),
    the ``raw`` score (the engine's, for the side to move), the ``depth``,
    the ``nodes`` searched, ``mate_in`` (plies to a forced end, both
    sides' counted, or None), the expected ``line`` as shown, what the
    score means (``judged``: ``+1.3 for you: a 62% chance, 6 moves
    deep``) and a ``sentence`` for a person."""

    best: str
    shown: str
    raw: int
    side: str
    depth: int
    nodes: int
    mate_in: Optional[int]
    line: tuple[str, ...]
    judged: str
    sentence: str
    outlook: Outlook


def judged(outlook: Outlook, whose: str, depth: int) -> str:
    """What an outlook says, for ``whose`` side (``'you'``, ``'the
    attackers'``, whose view the outlook is from): ``+1.3 for you: a 62%
    chance, 6 moves deep``, or a forced end (the winner's own moves).

    >>> from brandubh import Rules
    >>> found = Rules('7/7/7/3k3/7/7/a6 d').search(budget=5_000)
    >>> judged(Outlook.of(found.score, found.mate_in, side_to_move='defenders', viewer='defenders'),
    ...        'the defenders', found.depth)
    'the defenders win in 2 moves'
    """
    if outlook.wins_in is not None or outlook.loses_in is not None:
        moves = outlook.wins_in if outlook.wins_in is not None else outlook.loses_in
        verb = "win" if outlook.wins_in is not None else "lose"
        if outlook.wins_in == 1:
            return f"{whose} {verb} at once"
        return f"{whose} {verb} in {plural(int(moves or 0), 'move')}"
    return f"{outlook.words} for {whose}: {_a(outlook.percent)}% chance, {plural(depth, 'move')} deep"


def _a(percent: int) -> str:
    """``a 62`` or ``an 18``: the article read aloud before a number.

    >>> _a(62), _a(18), _a(8), _a(80), _a(11), _a(100)
    ('a 62', 'an 18', 'an 8', 'an 80', 'an 11', 'a 100')
    """
    return f"{'an' if str(percent).startswith('8') or percent in (11, 18) else 'a'} {percent}"


class ClockLike(Protocol):
    """What a table needs of a clock (``brandubh host``'s Fischer clocks,
    :class:`brandubh.host.clock.Clock`, are one): the side whose clock
    ``running`` (None when neither), and, at a wall-clock time ``now``,
    starting one side's, stopping it, pressing it after a move, and which
    side's flag has fallen."""

    running: Optional[str]

    def start(self, side: str, now: float) -> None: ...

    def stop(self, now: float) -> None: ...

    def press(self, side: str, now: float) -> bool: ...

    def flagged(self, now: float) -> Optional[str]: ...


def result_sentence(game: "Game", clocked: bool = False) -> Optional[str]:
    """How ``game`` ended, for the people at its table (None while it is
    on): the game's own sentence without the seats' names
    (:meth:`brandubh.Game.describe_result` with ``seats=False``: ``p1`` and ``p2``
    are the API's, which a person at a page or a terminal never chose), and, at
    a table with a clock (``clocked``), a timeout is the clock that ran
    out, not a program that answered too late.

    >>> from brandubh import Game
    >>> game = Game()
    >>> _ = game.play('d2c2'), game.forfeit('p2', 'timeout')
    >>> result_sentence(game, clocked=True)
    "the defenders' time ran out, the attackers won"
    >>> result_sentence(game)
    'the defenders ran out of time (timeout), the attackers won'
    >>> game.result_sentence
    'the defenders ran out of time (timeout), the attackers (p1) won'
    """
    result = game.result
    if clocked and result is not None and result.how == "timeout" and result.side is not None:
        return f"the {_other(str(result.side))}' time ran out, the {result.side} won"
    return game.describe_result(seats=False)


def table_state(game: "Game", ply: Optional[int] = None, *, said: str = "", movers: Iterable[str] = (),
                clocked: bool = False, text: Optional[str] = None, arrows: Iterable[Any] = ()) -> dict[str, Any]:
    """What a page shows of a game at a table, as JSON's fields: the one
    account of a game that ``brandubh serve``, ``brandubh host`` and the
    static page's back end (``web/backend.js``, in the browser) give, each
    adding what is its own (the table's id, its seats, its clocks).

    The board as it stood after ``ply`` moves (its end by default; an
    :class:`~brandubh.errors.ArgumentError` for a ply it never reached):
    its ``position`` and ``pieces``, the ``last`` move, the ``status``,
    who is ``to_move``, the ``result`` (:func:`result_sentence`, ``clocked``
    as there) and the ``winner``, the ``board`` drawn (with ``arrows``);
    the ``checks`` on the king (:func:`checks`);
    and of the whole game, its ``variant``, its ``moves`` as shown, its
    game ``text`` (``text`` when the caller has it written already). At
    the game's end, the ``legal`` moves when the side to move is one of
    ``movers`` (the sides that move by request at this table), and what
    was ``said`` last.

    >>> from brandubh import Game
    >>> state = table_state(Game(), movers=['attackers'], said='Your move.')
    >>> state['to_move'], len(state['legal']), state['legal'][0], state['said']
    ('attackers', 40, {'from': 'd1', 'to': 'b1', 'piece': 'attacker', 'captures': [], 'wins': False}, 'Your move.')
    """
    from .views.svg import board

    shown = game if ply is None else game.after(ply)
    at_end = shown is game
    seen = shown.snapshot()
    active = shown.status == "active"
    result = shown.result
    legal = [{"from": m.from_square, "to": m.to_square, "piece": m.piece, "captures": list(m.captures),
              "wins": m.wins} for m in game.legal()] if at_end and active and seen.side in set(movers) else []
    return {
        "variant": game.variant.as_string(),
        "ply": shown.ply,
        "status": shown.status,
        "to_move": seen.side if active else None,
        "result": result_sentence(shown, clocked),
        "winner": result.side if result is not None else None,
        "position": seen.position,
        "pieces": seen.pieces,
        "last": None if seen.last is None else {"move": seen.last, "shown": seen.shown,
                                                "captured": list(seen.captured)},
        "moves": game.shown,
        "legal": legal,
        "said": said if at_end else "",
        "checks": checks(shown),
        "board": board(seen, size=None, arrows=arrows),
        "text": text if text is not None else game.as_text(),
    }


def _other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


#: What a side could do to win at once, as a page marks it on the board: the
#: defenders' king's way out, the attackers' taking of the king.
CHECK_WORDS = {"defenders": "the king can reach {where}", "attackers": "the king can be taken"}


def checks(game: "Game") -> list[dict[str, Any]]:
    """The checks on the king in ``game``'s position, for a page to mark:
    for each side (the one to move and the other, as if it were its move),
    the moves that would win at once, when there are any, with the king's
    square and a sentence ("the king can reach a corner", "the king can be
    taken"). Nothing once the game is over.

    >>> from brandubh import Game
    >>> for check in checks(Game(position='7/7/7/7/a6/6k/7 a')):
    ...     print(check['says'], check['moves'])
    the king can be taken ['a3g3']
    the king can reach a corner ['g2g1', 'g2g7']
    """
    from .game import Game

    if game.status != "active":
        return []
    position = game.position
    king = next((name for name, piece in game.pieces.items() if piece == "king"), None)
    found = []
    for side in SIDES:
        seen = game if position.endswith(" " + side[0]) else \
            Game(variant=game.variant, position=position[:-1] + side[0])
        wins = [m for m in seen.legal() if m.wins]
        if side == "attackers":   # the king taken, not a win of another kind (the last defender taken)
            wins = [m for m in wins if king in m.captures]
        if wins and king is not None:
            corners = all(m.to_square in ("a1", "g1", "a7", "g7") for m in wins)
            found.append({"side": side, "king": king, "moves": [m.move for m in wins],
                          "says": CHECK_WORDS[side].format(where="a corner" if corners else "the edge")})
    return found


class Session:
    """The people at one table and the bots among them: the ``game``, who
    sits at each side, and what each asks for. Two ways to seat them:

    - ``Session(game, bot, side)``: a person at ``side`` against ``bot``
      (``brandubh play``, ``brandubh serve``). Said to the person: "You
      play d2-c2.", "The engine (defenders) plays d3-c3."; the engine
      answers a draw offer at once, and :meth:`undo` takes back the
      person's move with the reply to it.
    - ``Session(game, seats={'attackers': None, 'defenders': bot},
      clock=clock)`` (``brandubh host``): each side a seat, ``None`` for a
      person or a program who acts by request, a :class:`~brandubh.Bot`
      for the package's bot, which acts through :meth:`reply`. Said of the
      sides, for everyone following the table: "The attackers play d2-c2.";
      a draw offer or a take-back asked for waits for the other seat's
      answer. ``clock`` (a :class:`ClockLike`, or None) is pressed after
      every move, and a flag that has fallen falls before anything a
      request asks for.

    Every request is one method (the acting ``side`` the person's by
    default), which checks what it needs once and answers with a
    :class:`Said`; what it changed is said in :attr:`said`, counted in
    :attr:`changes`, and handed to ``on_change`` (under the lock, before
    the method returns: a server stores and sends the change there, and
    what it raises is the method's). ``hint_budget``: the positions a hint
    or an analysis searches.

    Every method takes :attr:`lock` for its whole step, a bot's thinking
    included unless :meth:`reply` is told to ``release`` it, so two
    requests on one table take turns.

    >>> from brandubh import Game
    >>> table = Session(Game(), seats={'attackers': None, 'defenders': None})
    >>> print(table.move('d2c2', 'attackers'))
    The attackers play d2-c2.
    >>> print(table.move('d3c3', 'attackers'))
    it is the defenders' move, not yours
    >>> print(table.offer_takeback('attackers'), table.accept_takeback('defenders'), sep='\\n')
    The attackers ask to take back their last move.
    The defenders allow the take-back: 1 move taken back.
    """

    def __init__(self, game: "Game", bot: Optional["Bot"] = None, side: Optional[str] = None, *,
                 seats: Optional[Mapping[str, Optional["Bot"]]] = None, clock: Optional[ClockLike] = None,
                 hint_budget: int = HINT_BUDGET, on_change: Optional[Callable[["Session"], None]] = None) -> None:
        if seats is None:
            if side not in SIDES:
                raise ArgumentError(f"side must be 'attackers' or 'defenders', not {quote(side)}")
            if bot is None:
                raise ArgumentError("a person at a table plays a bot: give the bot, or seat the table with seats=")
            seats = {side: None, _other(side): bot}
        elif bot is not None or side is not None:
            raise ArgumentError("seat a table either with a bot and the person's side, or with seats=, not both")
        elif sorted(seats) != sorted(SIDES):
            raise ArgumentError(f"seats name each side once, attackers and defenders, not {quote(sorted(seats))}")
        self.game = game
        #: Each side's seat: None for one who acts by request, else the bot playing it.
        self.seats: dict[str, Optional["Bot"]] = dict(seats)
        #: The person's side at a table of one person against the engine; None at a table of seats.
        self.you = side
        self.clock = clock
        self.hint_budget = hint_budget
        self.on_change = on_change
        self.lock = threading.RLock()
        #: What the last change at the table said.
        self.said = ""
        #: The side that asked to take back its last move, while the other has not answered.
        self.takeback: Optional[str] = None
        #: How many changes the table has seen.
        self.changes = 0
        self._text: Optional[tuple[Any, str]] = None   # the game text, and the snapshot it was written at
        # The person's side and the engine's, by their old names (brandubh play reads them).
        self.side = side
        self.other = _other(side) if side is not None else None
        self.bot = bot
        self.seat = str(game.seat_of(side)) if side is not None else None
        self.engine_seat = str(game.seat_of(self.other)) if self.other is not None else None

    # -- how it stands ----------------------------------------------------------

    @property
    def your_turn(self) -> bool:
        """Whether the game is on and waits for the person."""
        return self.game.status == "active" and self.game.side_to_move == self.you

    @property
    def engine_to_move(self) -> bool:
        """Whether the game is on and waits for a bot's move."""
        game = self.game
        return game.status == "active" and self.seats[str(game.side_to_move)] is not None

    def waits_for(self, side: str) -> bool:
        """Whether the game waits for ``side``: its move, or its answer to
        an offer the other side made (a draw, a take-back)."""
        game = self.game
        if game.status != "active":
            return False
        offer = game.draw_offered_by
        return ((offer is not None and game.side_of(offer) != side) or self.takeback not in (None, side)
                or game.side_to_move == side)

    def ending(self) -> str:
        """How the game ended and who won, for the person: ``'Game over: the
        attackers resigned. The engine wins.'``; empty while it is on, and
        at a table of seats (whose state says how it ended)."""
        game = self.game
        result = game.result
        if result is None or self.you is None:
            return ""
        who = "A draw." if result.is_draw else "You win." if result.side == self.you else "The engine wins."
        return f"Game over: {self.result_sentence()}. {who}"

    def result_sentence(self) -> Optional[str]:
        """:func:`result_sentence` of the game at this table (None while it is on)."""
        return result_sentence(self.game, self.clock is not None)

    def text(self) -> str:
        """The game text (:meth:`Game.as_text <brandubh.Game.as_text>`),
        written once for each state of the game however often it is asked
        for: by the state sent, and by the record a server stores."""
        with self.lock:
            seen = self.game.snapshot()   # a new one after every change to the game
            if self._text is None or self._text[0] is not seen:
                self._text = (seen, self.game.as_text())
            return self._text[1]

    def state(self, ply: Optional[int] = None, *, arrows: Iterable[Any] = ()) -> dict[str, Any]:
        """:func:`table_state` of this table: the moves listed are the
        person's on their turn, or at a table of seats the side to move's."""
        with self.lock:
            movers = SIDES if self.you is None else (self.you,)
            return table_state(self.game, ply, said=self.said, movers=movers, clocked=self.clock is not None,
                               text=self.text(), arrows=arrows)

    # -- what a seat asks for -----------------------------------------------------

    def move(self, text: str, side: Optional[str] = None) -> Said:
        """A move by ``side`` (the person's by default), typed in either
        written form. Its turn is checked here, once."""
        with self.lock:
            side, now = self._begin(side)
            if self.seats[side] is not None:
                raise ArgumentError(f"the {side}' seat is a bot's: it moves through reply()")
            refused = self._over()
            if refused is not None:
                return refused
            turn = self.game.side_to_move
            if turn != side:
                if self.you is not None:
                    return Said(f"it is the engine's move (the {turn}), not yours: ask it for its reply",
                                code="not_your_turn")
                return Said(f"it is the {turn}' move, not yours", code="not_your_turn")
            return self._play(text, side, now)

    def reply(self, side: Optional[str] = None, *, release: bool = False,
              since: Optional[int] = None) -> Optional[Said]:
        """The turn of the bot at ``side`` (the engine's, at a table of one
        person): it answers an offer made to it (a draw as
        :meth:`Bot.accepts_draw <brandubh.Bot.accepts_draw>` judges it; a
        take-back, which it allows), or else, when it is its move, plays the
        move it chooses. None when it has nothing to do.

        ``release``: choose with the lock released, on a copy of the
        position, so that the other seat may act meanwhile (resign, offer a
        draw); the move is played only when nothing changed at the table
        since. ``since``: do nothing unless :attr:`changes` is still that
        count (the bot's turn was handed on at that change, and a later one
        has handed it on again)."""
        with self.lock:
            if since is not None and since != self.changes:
                return None
            side, now = self._begin(self._bot_side(side))
            bot = self.seats[side]
            assert bot is not None
            answered = self._answer_offer(side, bot)
            if answered is not None or self.game.status != "active" or self.game.side_to_move != side:
                return answered
            if not release:
                return self._bot_plays(side, bot.choose(self.game), now)
            position = self.game.replay(self.game.log).game
            changes = self.changes
        chosen = bot.choose(position)
        with self.lock:
            side, now = self._begin(side)
            if self.changes != changes:
                return None   # the table moved on meanwhile (or a flag fell): the choice is for a position gone
            return self._bot_plays(side, chosen, now)

    def undo(self) -> Said:
        """Take back the person's last move and the engine's reply to it (or
        a resignation, or an agreed draw), at a table of one person."""
        with self.lock:
            you, now = self._begin(None)
            game = self.game
            result = game.result
            if result is not None and result.how in ("resign", "agreed"):
                game.undo()
                return self._changed(Said("Took back the " + ("resignation." if result.how == "resign"
                                                              else "agreed draw.")), now)
            if not self._has_moved(you):
                return Said("nothing to undo: you have not moved yet", code="nothing_to_undo")
            return self._changed(Said(f"Took back {plural(self._take_back(you, now), 'move')}."), now)

    def resign(self, side: Optional[str] = None) -> Said:
        """``side`` (the person's by default) gives the game up."""
        with self.lock:
            side, now = self._begin(side)
            refused = self._over() or self._refused(self.game.resign(self._seat(side)))
            if refused is not None:
                return refused
            return self._changed(Said(f"{self._says(side, 'resign')}.", self.ending()), now)

    def offer_draw(self, side: Optional[str] = None) -> Said:
        """``side`` (the person's by default) offers a draw. At a table of
        one person the engine answers at once: it accepts when its own
        search scores the position :data:`~brandubh.bot.DRAW_MARGIN` or more
        worse for it than the set-up, and declines otherwise. At a table of
        seats the offer waits for the other seat's :meth:`accept_draw` or
        :meth:`decline_draw` (a bot's, through :meth:`reply`)."""
        with self.lock:
            side, now = self._begin(side)
            game = self.game
            refused = self._over() or self._refused(game.offer_draw(self._seat(side)))
            if refused is not None:
                return refused
            if self.you is None:
                return self._changed(Said(f"{self._says(side, 'offer')} a draw."), now)
            engine = _other(side)
            bot = self.seats[engine]
            assert bot is not None
            if bot.accepts_draw(game, engine):
                game.accept_draw(self._seat(engine))
                return self._changed(Said("The engine accepts the draw.", self.ending()), now)
            game.decline_draw(self._seat(engine))
            return self._changed(Said("The engine declines the draw: it thinks it is not behind. Play on."), now)

    def accept_draw(self, side: Optional[str] = None) -> Said:
        """``side`` accepts the other's draw offer: the game ends, drawn."""
        return self._answer_draw(side, True)

    def decline_draw(self, side: Optional[str] = None) -> Said:
        """``side`` declines the other's draw offer; the game goes on."""
        return self._answer_draw(side, False)

    def offer_takeback(self, side: Optional[str] = None) -> Said:
        """``side`` asks to take back its last move (and any reply to it);
        the other seat allows it (:meth:`accept_takeback`) or refuses."""
        with self.lock:
            side, now = self._begin(side)
            refused = self._over()
            if refused is not None:
                return refused
            if self.takeback is not None:
                return Said("a take-back is already asked for: it waits for its answer", code="offer_waiting")
            if not self._has_moved(side):
                return Said("nothing to take back: you have not moved yet", code="nothing_to_undo")
            self.takeback = side
            whose = "your" if side == self.you else "their"
            return self._changed(Said(f"{self._says(side, 'ask')} to take back {whose} last move."), now)

    def accept_takeback(self, side: Optional[str] = None) -> Said:
        """``side`` allows the other's take-back: the moves back to the
        asker's last one are taken back, and it is the asker's move."""
        return self._answer_takeback(side, True)

    def decline_takeback(self, side: Optional[str] = None) -> Said:
        """``side`` refuses the other's take-back; nothing is taken back."""
        return self._answer_takeback(side, False)

    def check_clock(self) -> Optional[Said]:
        """Let the flag fall when the running clock is out of time (a timer
        calls this, whether or not anyone is at the table): what was said,
        or None when no flag fell."""
        with self.lock:
            return self._flag(time.time())

    def resume(self, game: "Game", *, clock: Optional[ClockLike] = None, draw_offer: Optional[str] = None,
               takeback: Optional[str] = None, said: str = "") -> None:
        """The table as it was kept: ``game`` and its ``clock``, the side
        whose ``draw_offer`` waits, the side that asked for a ``takeback``,
        what was ``said`` last (a server's record read back, or the table
        put back after a change that could not be stored). Nothing is said
        or handed on; :attr:`changes` counts it, so that a bot thinking
        meanwhile does not play into it."""
        with self.lock:
            if draw_offer is not None and game.status == "active":
                game.offer_draw(str(game.seat_of(draw_offer)))
            self.game, self.clock, self.takeback, self.said = game, clock, takeback, said
            self.changes += 1

    def analyse(self, ply: Optional[int] = None) -> Analysis:
        """:func:`analyse` of the game, for the person."""
        with self.lock:
            return analyse(self.game, ply, budget=self.hint_budget, you=self.you)

    def hint(self) -> Said:
        """The search's suggestion for the person, and its score."""
        with self.lock:
            game = self.game
            if game.status != "active":
                return Said(f"No hint: the game is over: {game.result_sentence}.", code="game_over")
            analysis = self.analyse()
            return Said(f"Hint: {analysis.shown} ({analysis.judged}).")

    # -- the steps every request shares ---------------------------------------------

    def _begin(self, side: Optional[str]) -> tuple[str, float]:
        """Under the lock, as a request begins: the acting side (the
        person's by default), checked, and the time, read once, by which a
        flag that has fallen falls first."""
        if side is None:
            if self.you is None:
                raise ArgumentError("this table has a seat for each side: say which side acts")
            side = self.you
        elif side not in SIDES:
            raise ArgumentError(f"side must be 'attackers' or 'defenders', not {quote(side)}")
        now = time.time()
        self._flag(now)
        return side, now

    def _bot_side(self, side: Optional[str]) -> str:
        if side is None:
            bots = [seated for seated, bot in self.seats.items() if bot is not None]
            if len(bots) != 1:
                raise ArgumentError("say which bot's turn it is: this table has "
                                    f"{'no bot' if not bots else 'a bot at each side'}")
            return bots[0]
        if side not in SIDES or self.seats[side] is None:
            raise ArgumentError(f"the {side} are not a bot's seat: a person's seat acts by request")
        return side

    def _seat(self, side: str) -> str:
        return str(self.game.seat_of(side))

    def _says(self, side: str, verb: str) -> str:
        """Who did it, as this table says it: ``You resign``, ``The engine
        (defenders) plays``, ``The attackers play``."""
        if self.you is None:
            return f"The {side} {verb}"
        return f"You {verb}" if side == self.you else f"The engine ({side}) {verb}s"

    def _over(self) -> Optional[Said]:
        """The refusal of anything asked of a game that is over."""
        if self.game.status == "active":
            return None
        return Said(f"the game is over: {self.result_sentence()}", code="game_over")

    @staticmethod
    def _refused(refusal: Optional["Refusal"]) -> Optional[Said]:
        return None if refusal is None else Said(str(refusal), code=refusal.code.value)

    def _has_moved(self, side: str) -> bool:
        """Whether ``side`` has a move of its own to take back: the moves
        alternate from the start's side."""
        game = self.game
        first = SIDES["ad".index(game.start[-1])]
        return not (game.ply == 0 or (game.ply == 1 and first != side))

    def _take_back(self, asker: str, now: float) -> int:
        """Undo to the asker's last move, so that it is the asker's turn
        (its clock running again); how many moves were taken back."""
        game = self.game
        taken = 0
        while game.undo():
            taken += 1
            if game.side_to_move == asker:
                break
        if self.clock is not None:
            if game.ply == 0:
                self.clock.stop(now)
            else:
                self.clock.start(asker, now)
        return taken

    def _play(self, move: Union[str, "Move"], side: str, now: float) -> Said:
        """Play ``side``'s move (text a person typed, or a bot's Move, played
        as it is), its turn checked already; its clock pressed."""
        game = self.game
        refused = self._refused(game.play(move))
        if refused is not None:
            return refused
        clock = self.clock
        if clock is not None:
            if clock.running is None and game.ply == 1:
                clock.start(_other(side), now)   # the first move is not timed: the clocks start with it
            else:
                pressed = clock.press(side, now)
                assert pressed, "the flag was looked at by this same time, so it has not fallen"
        self.takeback = None
        played: Optional["Played"] = game.last_played
        assert played is not None
        return self._changed(Said(f"{self._says(side, 'play')} {played.shown + played.capturing}.", self.ending()),
                             now)

    def _bot_plays(self, side: str, chosen: Any, now: float) -> Said:
        said = self._play(chosen, side, now)   # a Move: played as it is, no text read again
        if said.refused:  # pragma: no cover - the bot chose a legal move
            raise AssertionError(f"the game refused the bot's move {chosen}: {said.text}")
        return said

    def _answer_offer(self, side: str, bot: "Bot") -> Optional[Said]:
        """A bot's answer to an offer the other seat made it, if one waits."""
        game = self.game
        offer = game.draw_offered_by
        if game.status != "active":
            return None
        if offer is not None and game.side_of(offer) != side:
            return self._answer_draw(side, bot.accepts_draw(game, side))
        if self.takeback not in (None, side):
            return self._answer_takeback(side, True)   # the package's bot is a good sport
        return None

    def _answer_draw(self, side: Optional[str], accept: bool) -> Said:
        with self.lock:
            side, now = self._begin(side)
            game = self.game
            answer = game.accept_draw if accept else game.decline_draw
            refused = self._over() or self._refused(answer(self._seat(side)))
            if refused is not None:
                return refused
            return self._changed(Said(f"{self._says(side, 'accept' if accept else 'decline')} the draw.",
                                      self.ending()), now)

    def _answer_takeback(self, side: Optional[str], allow: bool) -> Said:
        with self.lock:
            side, now = self._begin(side)
            refused = self._over()
            if refused is not None:
                return refused
            if self.takeback is None:
                return Said("no take-back has been asked for", code="no_offer")
            if self.takeback == side:
                return Said("you asked for the take-back: it is for the other side to answer", code="own_offer")
            asker, self.takeback = self.takeback, None
            if not allow:
                return self._changed(Said(f"{self._says(side, 'refuse')} the take-back."), now)
            taken = self._take_back(asker, now)
            return self._changed(Said(f"{self._says(side, 'allow')} the take-back: {plural(taken, 'move')} "
                                      "taken back."), now)

    def _flag(self, now: float) -> Optional[Said]:
        """Let the flag fall when the running clock is out of time by ``now``."""
        clock = self.clock
        if clock is None or self.game.status != "active":
            return None
        side = clock.flagged(now)
        if side is None:
            return None
        self.game.forfeit(self._seat(side), "timeout")
        return self._changed(Said(f"The {side}' time ran out."), now)

    def _changed(self, said: Said, now: float) -> Said:
        """After every change: a game that ended stops its clock and drops
        a take-back asked for; what was said is kept, the change counted
        and handed on (``on_change``), and only then answered."""
        if self.game.status != "active":
            if self.clock is not None:
                self.clock.stop(now)
            self.takeback = None
        self.said = str(said)
        self.changes += 1
        if self.on_change is not None:
            self.on_change(self)
        return said


def analyse(game: "Game", ply: Optional[int] = None, *, budget: int = HINT_BUDGET,
            you: Optional[str] = None) -> Analysis:
    """The search's view of ``game`` at ``ply`` (its end by default): the
    best move, its score for the side to move there, the line it expects.
    ``you``: the person's side, whose scores are said to be "for you". An
    :class:`~brandubh.errors.ArgumentError` when the game is over there.

    >>> from brandubh import Game
    >>> found = analyse(Game(position='7/7/7/3k3/7/7/a6 d'))   # the king alone against one attacker
    >>> found.best[:2], found.side, found.mate_in, found.judged
    ('d4', 'defenders', 3, 'the defenders win in 2 moves')
    """
    shown = game if ply is None else game.after(ply)
    if shown.status != "active":
        raise ArgumentError(f"nothing to analyse: the game is over: {shown.result_sentence}")
    found = shown.search(budget=budget, salt="analysis")
    assert found is not None
    best = str(found.move)
    line = shown.replay(shown.log + ([str(m) for m in found.pv] or [best])).game.shown[shown.ply:]
    side = str(shown.side_to_move)
    viewer = you if you in notation.SIDES else side
    outlook = Outlook.of(found.score, found.mate_in, side_to_move=side, viewer=str(viewer), variant=shown.variant)
    meaning = judged(outlook, "you" if viewer == you else f"the {viewer}", found.depth)
    table = shown.table_value()
    if table is not None:
        # The tables know where the search guesses: said beside it.
        winner = side if table.value == "win" else [s for s in notation.SIDES if s != side][0] if table.value == "loss" else None
        meaning += f"; a table win in {table.plies} plies for the {winner}" if winner else "; a table draw"
    sentence = f"Best for the {side}: {line[0]} ({meaning}). The line: {' '.join(line)}."
    return Analysis(best, line[0], found.score, side, found.depth, found.nodes, found.mate_in,
                    tuple(line), meaning, sentence, outlook)

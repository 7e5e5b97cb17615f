"""A person against a bot at one table: what ``brandubh play`` does at a
terminal and ``brandubh serve`` does in a browser, written once.

A :class:`Session` holds a :class:`~brandubh.Game`, the side the person
plays and the :class:`~brandubh.Bot` that plays the other. Each thing the
person asks for (a move, the engine's reply, an undo, a draw offer, a
resignation, a hint) is one method, and each answers with a :class:`Said`:
the sentences that say what happened, or why nothing did. The front ends
only show them: the terminal prints them round the board, the page puts
them under it.

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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from . import notation
from .chances import Outlook
from .errors import ArgumentError, quote
from .words import plural

if TYPE_CHECKING:
    from .bot import Bot
    from .core.search import SearchResult
    from .game import Game, Played

__all__ = ["Session", "Said", "Analysis", "HINT_BUDGET", "analyse", "judged"]

#: The search budget of a hint or an analysis, whatever the engine's level:
#: level 4's, a few hundredths of a second.
HINT_BUDGET = 48_000


@dataclass(frozen=True)
class Said:
    """What one request did. ``text``: the sentences saying so (or why
    nothing was done); ``ending``: how the game ended, when this request
    ended it (``'Game over: the king reached a corner, the defenders (p2)
    won. You win.'``), else empty; ``code``: None when the request was
    carried out, else why it was refused and nothing changed (a
    :class:`~brandubh.RefusalCode`'s value, or ``'nothing_to_undo'``).
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


class Session:
    """A person against a bot: ``game``, the person's ``side``
    (``'attackers'`` or ``'defenders'``), the ``bot`` playing the other.
    ``hint_budget``: the positions a hint or an analysis searches.

    Every method takes :attr:`lock` for its whole step, the engine's
    thinking included, so two requests on one table take turns.
    """

    def __init__(self, game: "Game", bot: "Bot", side: str, *, hint_budget: int = HINT_BUDGET) -> None:
        if side not in notation.SIDES:
            raise ArgumentError(f"side must be 'attackers' or 'defenders', not {quote(side)}")
        self.game = game
        self.bot = bot
        self.side = side
        self.other = notation.SIDES[1 - notation.SIDES.index(side)]
        self.seat = str(game.seat_of(side))
        self.engine_seat = str(game.seat_of(self.other))
        self.hint_budget = hint_budget
        self.lock = threading.RLock()

    # -- how it stands ----------------------------------------------------------

    @property
    def your_turn(self) -> bool:
        """Whether the game is on and waits for the person."""
        return self.game.status == "active" and self.game.side_to_move == self.side

    @property
    def engine_to_move(self) -> bool:
        """Whether the game is on and waits for the engine."""
        return self.game.status == "active" and self.game.side_to_move == self.other

    def ending(self) -> str:
        """How the game ended and who won, for the person: ``'Game over: the
        attackers resigned. The engine wins.'``; empty while it is on."""
        game = self.game
        result = game.result
        if result is None:
            return ""
        who = "A draw." if result.is_draw else "You win." if result.side == self.side else "The engine wins."
        return f"Game over: {game.result_sentence}. {who}"

    # -- what the person asks for -------------------------------------------------

    def move(self, text: str) -> Said:
        """The person's move, typed in either written form."""
        with self.lock:
            game = self.game
            if self.engine_to_move:
                return Said(f"it is the engine's move (the {self.other}), not yours: ask it for its reply",
                            code="not_your_turn")
            refused = game.play(text, self.seat)
            if refused is not None:
                return Said(str(refused), code=refused.code.value)
            return Said(f"You play {self._played()}.", self.ending())

    def reply(self) -> Optional[Said]:
        """The engine's move when it is its turn; None when it is not."""
        with self.lock:
            game = self.game
            if not self.engine_to_move:
                return None
            chosen = self.bot.choose(game)   # a Move: played as it is, no text read again
            assert chosen is not None  # the engine's turn: the game is on
            refused = game.play(chosen, self.engine_seat)
            if refused is not None:  # pragma: no cover - the bot chose a legal move
                raise AssertionError(f"the game refused the engine's move {chosen}: {refused}")
            return Said(f"The engine ({self.other}) plays {self._played()}.", self.ending())

    def _played(self) -> str:
        played: Optional["Played"] = self.game.last_played
        assert played is not None
        return played.shown + played.capturing

    def undo(self) -> Said:
        """Take back the person's last move and the engine's reply to it (or
        a resignation, or an agreed draw)."""
        with self.lock:
            game = self.game
            result = game.result
            if result is not None and result.how in ("resign", "agreed"):
                game.undo()
                return Said("Took back the " + ("resignation." if result.how == "resign" else "agreed draw."))
            # The moves alternate from the start's side: is one of them the person's?
            first = notation.SIDES["ad".index(game.start[-1])]
            if game.ply == 0 or (game.ply == 1 and first != self.side):
                return Said("nothing to undo: you have not moved yet", code="nothing_to_undo")
            taken = 0
            while game.undo():
                taken += 1
                if game.side_to_move == self.side:
                    break
            return Said(f"Took back {plural(taken, 'move')}.")

    def resign(self) -> Said:
        """The person gives the game up."""
        with self.lock:
            refused = self.game.resign(self.seat)
            if refused is not None:
                return Said(str(refused), code=refused.code.value)
            return Said("You resign.", self.ending())

    def offer_draw(self) -> Said:
        """The person offers a draw; the engine accepts when its own search
        scores the position :data:`~brandubh.bot.DRAW_MARGIN` or more worse
        for it than the set-up, and declines otherwise."""
        with self.lock:
            game = self.game
            refused = game.offer_draw(self.seat)
            if refused is not None:
                return Said(str(refused), code=refused.code.value)
            if self.bot.accepts_draw(game, self.other):
                game.accept_draw(self.engine_seat)
                return Said("The engine accepts the draw.", self.ending())
            game.decline_draw(self.engine_seat)
            return Said("The engine declines the draw: it thinks it is not behind. Play on.")

    def analyse(self, ply: Optional[int] = None) -> Analysis:
        """:func:`analyse` of the game, for the person."""
        with self.lock:
            return analyse(self.game, ply, budget=self.hint_budget, you=self.side)

    def hint(self) -> Said:
        """The search's suggestion for the person, and its score."""
        with self.lock:
            game = self.game
            if game.status != "active":
                return Said(f"No hint: the game is over: {game.result_sentence}.", code="game_over")
            analysis = self.analyse()
            return Said(f"Hint: {analysis.shown} ({analysis.judged}).")


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
    sentence = f"Best for the {side}: {line[0]} ({meaning}). The line: {' '.join(line)}."
    return Analysis(best, line[0], found.score, side, found.depth, found.nodes, found.mate_in,
                    tuple(line), meaning, sentence, outlook)

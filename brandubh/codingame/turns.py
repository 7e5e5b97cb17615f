"""The CodinGame "Brandubh" puzzle's protocol: what a bot reads each turn,
what it answers, and the game record a bot rebuilds from what it reads.

Each turn a bot reads nine lines on standard input::

    1                <- its role: 0 attackers, 1 defenders
    d2c2             <- the opponent's last move, or NONE on the first turn
    ...A...          <- rank 7
    ...A...
    ...D...
    AADKDAA          <- rank 4
    ...D...
    ..A....
    ...A...          <- rank 1

(``.`` empty, ``A`` attacker, ``D`` defender, ``K`` the king) and answers
one line, the move ``d2d4``. The board is the position the bot must move
from; the side to move is the bot's role.

>>> print(turn_input('defenders', 'd2c2', '3a3/3a3/3d3/aadkdaa/3d3/2a4/3a3 d'), end='')
1
d2c2
...A...
...A...
...D...
AADKDAA
...D...
..A....
...A...
>>> position_of_board(board_lines(SETUP), 'attackers') == SETUP
True

A board says nothing of the history, so repetition cannot be judged from it
alone. :class:`Tracker` keeps the game record a bot needs: it plays its own
moves and the opponent's reported ones, and checks each board it is given
against that record; when they differ it starts again from the board.

Nothing here talks to a process: :mod:`brandubh.codingame.referee` runs bots and
:mod:`brandubh.codingame.bot` is one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Optional, Sequence, Union

from .. import notation
from ..errors import BrandubhError, PositionError, quote
from ..moves import Move
from ..variant import VariantLike

if TYPE_CHECKING:  # pragma: no cover
    from ..core.rules import Rules

__all__ = [
    "NONE",
    "ROLES",
    "ProtocolError",
    "role_of",
    "side_of_role",
    "board_lines",
    "position_of_board",
    "turn_lines",
    "turn_input",
    "Turn",
    "parse_turn",
    "parse_answer",
    "MOVE_RE",
    "game_inputs",
    "Tracker",
]

SETUP = notation.SETUP
NONE = "NONE"
"""The last move on a bot's first turn when nobody has moved yet."""

ROLES = notation.SIDES
"""Role number -> side: ``0`` attackers, ``1`` defenders."""

TURN_LINES = 9
"""Lines a bot reads each turn: the role, the last move, seven board rows."""

MOVE_RE = notation.STORED_MOVE
"""A move as the protocol writes it (the last move of a turn): exactly four
characters, lower case (:data:`brandubh.notation.STORED_MOVE`)."""

_TO_CELL = {"": ".", "a": "A", "d": "D", "k": "K"}
_FROM_CELL = {".": "", "A": "a", "D": "d", "K": "k"}

SideLike = Union[str, int]


class ProtocolError(BrandubhError):
    """Input or an answer that is not what the protocol says."""


def side_of_role(role: SideLike) -> str:
    """``'attackers'`` or ``'defenders'`` from a role number (0 or 1), the
    role's text (``'0'``), a side's name or its letter (``'a'``, ``'d'``).

    >>> side_of_role(0), side_of_role('1'), side_of_role('a')
    ('attackers', 'defenders', 'attackers')
    """
    if isinstance(role, bool):
        raise ProtocolError(f"a role is 0 (attackers) or 1 (defenders), not {quote(role)}")
    if isinstance(role, int):
        if role in (0, 1):
            return ROLES[role]
    elif isinstance(role, str):
        text = role.strip()
        if text in ("0", "1"):
            return ROLES[int(text)]
        if text in ROLES:
            return text
        if text in ("a", "d"):
            return ROLES["ad".index(text)]
    raise ProtocolError(f"a role is 0 (attackers) or 1 (defenders), not {quote(role)}")


def role_of(side: SideLike) -> int:
    """The role number of a side: 0 attackers, 1 defenders.

    >>> role_of('attackers'), role_of('d')
    (0, 1)
    """
    return ROLES.index(side_of_role(side))


def board_lines(position: str) -> list[str]:
    """The seven board lines of a position, rank 7 first.

    >>> board_lines('7/7/7/3k3/7/7/a6 d')[3], board_lines('7/7/7/3k3/7/7/a6 d')[6]
    ('...K...', 'A......')
    """
    cells = notation.position_cells(position)
    if not cells:
        raise PositionError(f"{quote(position)} is not a position")
    rows, _side = cells
    return ["".join(_TO_CELL[c] for c in row) for row in rows]


def _lines(value: object, what: str) -> list[str]:
    """A sequence of lines as a list of str; ProtocolError for anything else
    (None, a number, or one string where lines were wanted)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ProtocolError(f"{what} must be a list of lines, not {type(value).__name__}")
    return [str(x) for x in value]


def _board_error(lines: Sequence[str]) -> Optional[str]:
    """Why seven lines are not a board, or None when they are one."""
    if len(lines) != 7:
        return f"a board is 7 lines, not {len(lines)}"
    kings = 0
    for i, line in enumerate(lines):
        if len(line) != 7:
            return f"board line {i + 1} (rank {7 - i}) is {len(line)} characters, not 7: {quote(line[:20])}"
        bad = [c for c in line if c not in _FROM_CELL]
        if bad:
            return f"board line {i + 1} (rank {7 - i}) has {quote(bad[0])}; a square is one of . A D K"
        kings += line.count("K")
    if kings > 1:
        return f"the board has {kings} kings"
    return None


def position_of_board(lines: Sequence[str], side: SideLike) -> str:
    """The position string of seven board lines (rank 7 first) with the side
    to move; ProtocolError when the lines are not a board. Surrounding white
    space on a line is ignored.

    >>> position_of_board(['.......'] * 3 + ['...K...'] + ['.......'] * 2 + ['A......'], 1)
    '7/7/7/3k3/7/7/a6 d'
    """
    rows = [line.strip() for line in _lines(lines, "a board")]
    why = _board_error(rows)
    if why is not None:
        raise ProtocolError(why)
    out = [notation.row_text(_FROM_CELL[ch] for ch in row) for row in rows]
    return "/".join(out) + " " + side_of_role(side)[0]


def _board_part(position: str) -> str:
    return position.partition(" ")[0]


def turn_lines(side: SideLike, last_action: Optional[str], position: str) -> list[str]:
    """The nine lines a bot reads for one turn, without line ends.
    ``last_action``: a stored move (``'d2c2'``), or None / ``'NONE'`` when
    there is none. The board is ``position``'s; the role line is ``side``'s,
    which is normally the side to move of ``position``.
    """
    last: Optional[str] = NONE
    if last_action is not None and last_action != NONE:
        last = notation.move_parse(last_action)
        if last is None:
            raise ProtocolError(f"{quote(last_action)} is not a move")
    return [str(role_of(side)), str(last), *board_lines(position)]


def turn_input(side: SideLike, last_action: Optional[str], position: str) -> str:
    """:func:`turn_lines` as the text written to the bot, each line ended
    by a newline."""
    return "\n".join(turn_lines(side, last_action, position)) + "\n"


@dataclass(frozen=True)
class Turn:
    """One turn's input, read strictly: the role, the last move (None for
    ``NONE``) and the board lines."""

    role: int
    last_action: Optional[str]
    board: tuple[str, ...]

    @property
    def side(self) -> str:
        return ROLES[self.role]

    @property
    def position(self) -> str:
        """The board with the bot's role as the side to move."""
        return position_of_board(self.board, self.role)


def parse_turn(lines: Sequence[str]) -> Turn:
    """Nine lines read strictly (line ends and surrounding white space
    ignored); ProtocolError saying what is wrong otherwise.

    >>> t = parse_turn(['0', 'NONE', *board_lines(SETUP)])
    >>> t.side, t.last_action, t.position == SETUP
    ('attackers', None, True)
    """
    lines = [x.strip() for x in _lines(lines, "a turn")]
    if len(lines) != TURN_LINES:
        raise ProtocolError(f"a turn is {TURN_LINES} lines, not {len(lines)}")
    if lines[0] not in ("0", "1"):
        raise ProtocolError(f"the role line is 0 or 1, not {quote(lines[0][:20])}")
    last = lines[1]
    if last == NONE:
        action = None
    elif MOVE_RE.fullmatch(last):
        action = last
    else:
        raise ProtocolError(f"the last move is like d2d4 or NONE, not {quote(last[:20])}")
    board = tuple(lines[2:])
    why = _board_error(board)
    if why is not None:
        raise ProtocolError(why)
    return Turn(int(lines[0]), action, board)


def parse_answer(line: Union[str, bytes]) -> Move:
    """The move of a bot's answer line (a :class:`~brandubh.Move`: the
    engine's move number), read as the puzzle's referee
    reads it (:func:`brandubh.notation.answer_parse`: ``d2d4``, ``D2D4`` or
    ``d2 d4``; white space around it, the line end included, is ignored);
    ProtocolError when the line is not a move.

    >>> parse_answer('D2 d4\\n')
    Move('d2d4')
    >>> parse_answer('Kd2-d4')
    Traceback (most recent call last):
    ...
    brandubh.codingame.turns.ProtocolError: the answer is a move like d2d4, not 'Kd2-d4'
    """
    stored = notation.answer_parse(line)
    if stored is None:
        text = (line.decode("utf-8", "replace") if isinstance(line, bytes) else str(line)).strip()
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise ProtocolError(f"the answer is a move like d2d4, not {quote(shown)}")
    return Move(stored)


def game_inputs(moves: Iterable[Union[int, str]] = (), start: str = SETUP,
                variant: VariantLike = "codingame") -> list[tuple[str, str]]:
    """What each bot reads over a game: a list of (side, text), one a turn,
    in order, for the given moves from ``start``. The last item is the turn
    of the side to move after the last move, unless the game is over then.
    The moves are played under ``variant``; an illegal one is an error.

    >>> turns = game_inputs(['d2c2'])
    >>> [side for side, _ in turns]
    ['attackers', 'defenders']
    >>> turns[1][1].splitlines()[:2]
    ['1', 'd2c2']
    """
    from ..core.position import move_text, parse_move
    from ..core.rules import PLAY_OK, Rules

    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
        raise ProtocolError(f"moves must be a list of moves, not {type(moves).__name__}")
    r = Rules(start, variant)
    out: list[tuple[str, str]] = []
    last: Optional[str] = None
    for m in moves:
        if r.is_over():
            raise ProtocolError(f"the game is over before {quote(m)}")
        out.append((r.side, turn_input(r.side, last, r.position)))
        mv = parse_move(m)
        if r.play(mv) != PLAY_OK:
            raise ProtocolError(f"{move_text(mv)} is not legal in {r.position}")
        last = move_text(mv)
    if not r.is_over():
        out.append((r.side, turn_input(r.side, last, r.position)))
    return out


class Tracker:
    """A bot's game record, rebuilt from the turns it reads.

    Give it each turn's nine lines with :meth:`update` (read leniently) and
    each move the bot answers with :meth:`played`. It plays the opponent's
    reported move on its record and checks the result against the board it
    was given. When they agree the record, with its whole history, is what
    the bot searches (so repetition is judged as the referee judges it).
    When they do not, or the input cannot be read, it writes why in
    :attr:`notes` and starts again from the board, with the bot's role to
    move. On the first turn the record starts from the set-up (the last
    move, if any, played on it) or, when the board is not that, from the
    board.

    >>> t = Tracker()
    >>> r = t.update(turn_lines('defenders', 'd2c2', '3a3/3a3/3d3/aadkdaa/3d3/2a4/3a3 d'))
    >>> r.ply, t.notes
    (1, [])
    >>> t.played('d3d2')
    >>> r = t.update(turn_lines('defenders', 'b4b2', '3a3/3a3/3d3/a1dkdaa/7/1aad3/3a3 d'))
    >>> r.ply, t.resyncs
    (3, 0)
    """

    def __init__(self, variant: VariantLike = "codingame") -> None:
        from ..variant import as_variant

        self.variant = as_variant(variant)
        self.record: Optional[Rules] = None  # what the bot plays on; None before its first turn
        self.role: Optional[int] = None
        self.turns = 0
        self.resyncs = 0
        self.notes: list[str] = []

    # -- reading a turn ------------------------------------------------------

    def update(self, lines: Sequence[str]) -> Optional[Rules]:
        """Read one turn (nine lines, as read: line ends allowed) and return
        the record to move from: a :class:`~brandubh.core.rules.Rules` whose side
        to move is the bot's role, or None when nothing could be made of the
        turn. :attr:`notes` holds what went wrong this turn, if anything."""
        from ..core.rules import PLAY_OK, Rules

        self.notes = []
        self.turns += 1
        lines = [x.rstrip("\r\n") for x in _lines(lines, "a turn")]
        while len(lines) < TURN_LINES:
            lines.append("")
        role_text, last_text, board = lines[0].strip(), lines[1].strip(), lines[2:TURN_LINES]

        # The role.
        if role_text in ("0", "1"):
            role = int(role_text)
            if self.role is not None and role != self.role:
                self._note(f"the role changed from {self.role} to {role}")
        elif self.role is not None:
            role = self.role
            self._note(f"the role line is {quote(role_text[:20])}, not 0 or 1; keeping {role}")
        else:
            role = None
            self._note(f"the role line is {quote(role_text[:20])}, not 0 or 1")

        # The last move.
        last: Optional[int] = None
        last_ok = True
        if last_text != NONE:
            # Read as the referee reads an answer (D2C2, d2 c2): the
            # opponent's answer may be passed on as it was written.
            stored = notation.answer_parse(last_text)
            if stored is None:
                last_ok = False
                self._note(f"the last move is {quote(last_text[:20])}, not a move like d2d4 or NONE")
            else:
                from ..core.position import parse_move

                last = parse_move(stored)

        # The board.
        stripped: Optional[list[str]] = [b.strip() for b in board]
        why = _board_error(stripped or [])
        if why is not None:
            self._note(f"the board cannot be read: {why}")
            stripped = None

        if role is None:
            role = self._guess_role(stripped, last)
        side = ROLES[role]
        self.role = role

        # The record as it would be if the opponent played what is reported.
        trial = None
        first = self.record is None
        if last is not None:
            base = Rules(SETUP, self.variant) if self.record is None else self.record.clone()
            if base.side != side and base.play(last) == PLAY_OK:
                trial = base

        if stripped is not None:
            given = position_of_board(stripped, role)
            if trial is not None and trial.side == side and _board_part(trial.position) == _board_part(given):
                self.record = trial
                return trial
            if first and last is None and last_ok:
                return self._start(given, note=None)
            if first and last is not None:
                return self._start(given, note=f"the board is not the set-up after {last_text}: "
                                   "starting from the board")
            if not first and last_text == NONE:
                return self._start(given, note="NONE on a later turn: a new game from the board")
            if trial is None and last is not None and self.record is not None:
                what = f"{last_text} cannot be played on my record ({self.record.position})"
            elif trial is None:
                what = "the last move is unknown"
            else:
                what = f"my record after {last_text} is {trial.position}, not the board given"
            return self._start(given, note=f"{what}: starting again from the board")

        # No board: the record after the reported move is the best guess.
        if trial is not None and trial.side == side:
            self._note("playing on from my record and the reported move")
            self.record = trial
            return trial
        if self.record is not None and self.record.side == side and not self.record.is_over():
            self._note("playing on from my record")
            return self.record
        loose = self._loose_board(board)
        if loose is not None:
            return self._start(position_of_board(loose, role),
                               note="guessing the board from what could be read")
        self._note("nothing to play on")
        return None

    def played(self, move: Union[int, str]) -> None:
        """The bot answered ``move``: play it on the record."""
        from ..core.position import parse_move

        if self.record is None:
            return
        if self.record.play(parse_move(move)) != 0:
            self._note("my own move could not be played on my record; the next board will tell")

    # -- helpers ---------------------------------------------------------------

    def _start(self, position: str, note: Optional[str]) -> Optional[Rules]:
        from ..core.rules import Rules

        if note is not None:
            self._note(note)
            self.resyncs += 1
        try:
            self.record = Rules(position, self.variant)
        except PositionError as exc:
            self._note(f"the board is not a position the engine takes: {exc}")
            self.record = None
        return self.record

    def _note(self, text: str) -> None:
        self.notes.append(f"turn {self.turns}: {text}")

    def _guess_role(self, board: Optional[Sequence[str]], last: Optional[int]) -> int:
        """A role when the role line cannot be read: the side that did not
        make the last move (the piece now on its square is the opponent's);
        with no last move, the attackers, who move first."""
        if board is not None and last is not None:
            to = last & 63
            cell = board[6 - to // 7][to % 7]
            if cell == "A":
                return 1
            if cell in "DK":
                return 0
        return 0

    @staticmethod
    def _loose_board(board: Sequence[str]) -> Optional[list[str]]:
        """Seven lines made into a board however possible: cut or padded to
        seven squares, anything unknown read as empty, one king at most."""
        rows = []
        king = False
        for i in range(7):
            text = board[i].strip() if i < len(board) else ""
            row = ""
            for ch in text[:7].ljust(7, "."):
                ch = ch if ch in _FROM_CELL else "."
                if ch == "K":
                    if king:
                        ch = "."
                    king = True
                row += ch
            rows.append(row)
        if all(r == "......." for r in rows):
            return None
        return rows

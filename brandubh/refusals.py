"""Refusals: why something a player asked of a game was refused.

A refusal is returned, never raised: :meth:`Game.play <brandubh.Game.play>`,
``resign`` and the draw methods give ``None``, or a :class:`Refusal` (a
:class:`RefusalCode` and a sentence), and then nothing has changed.
:meth:`Game.play_or_raise <brandubh.Game.play_or_raise>` raises it instead,
as :class:`Refused`. The game writes the sentences (it knows the board);
this module holds what they are carried in.

Pure Python: it loads without the compiled engine.

>>> Refusal(RefusalCode.NO_OFFER, 'no draw has been offered').code.value
'no_offer'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import BrandubhError

__all__ = ["RefusalCode", "Refusal", "Refused"]


class RefusalCode(str, enum.Enum):
    """Why something a player asked for was refused. The value is the name
    in lower case, so a code travels as a plain string (JSON, a log line).

    The first four are about the request, the next eight are the engine's
    reasons a slide cannot be made (:class:`brandubh.core.position.Why`), the last
    three are about draw offers.

    >>> RefusalCode.BLOCKED.value
    'blocked'
    >>> RefusalCode('game_over') is RefusalCode.GAME_OVER
    True
    """

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_A_SEAT = "not_a_seat"
    NOT_A_MOVE = "not_a_move"
    OFF_BOARD = "off_board"
    NO_PIECE = "no_piece"
    NOT_YOURS = "not_yours"
    SAME_SQUARE = "same_square"
    NOT_A_LINE = "not_a_line"
    BLOCKED = "blocked"
    THRONE = "throne"
    CORNER = "corner"
    OFFER_WAITING = "offer_waiting"
    NO_OFFER = "no_offer"
    OWN_OFFER = "own_offer"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Refusal:
    """What was wrong with a request; nothing was changed. ``code`` is a
    :class:`RefusalCode`, ``message`` a sentence a person can read, naming
    the squares and the piece. ``str()`` gives the message, and a refusal is
    always true, so ``if refused:`` reads as it should.

    >>> from brandubh import Game
    >>> refused = Game().play('d1-a1')
    >>> refused.code
    <RefusalCode.CORNER: 'corner'>
    >>> str(refused)
    'd1 to a1: the king alone may stop on a corner'
    >>> bool(refused)
    True
    """

    code: RefusalCode
    message: str

    def __str__(self) -> str:
        return self.message

    def __bool__(self) -> bool:
        return True


class Refused(BrandubhError):
    """Raised by :meth:`Game.play_or_raise <brandubh.Game.play_or_raise>`; ``refusal`` is the
    :class:`Refusal`, and the exception's text is its message.

    >>> from brandubh import Game
    >>> try:
    ...     Game().play_or_raise('d4d1')
    ... except Refused as e:
    ...     print(e.refusal.code.value, '-', e)
    not_yours - d4 to d1: the king on d4 belongs to the defenders, and it is the attackers' move
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal

    @property
    def code(self) -> RefusalCode:
        """The refusal's code.

        >>> Refused(Refusal(RefusalCode.NO_OFFER, 'no draw has been offered')).code.value
        'no_offer'
        """
        return self.refusal.code

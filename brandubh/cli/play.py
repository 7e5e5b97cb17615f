"""``brandubh play``: a person at a terminal against the engine.

    brandubh play                                # you have the attackers, level 3
    brandubh play --level 5 --side defenders
    brandubh play --variant codingame
    brandubh play --load games.txt --game 3      # go on with game 3 of a file of games

A small loop over :class:`~brandubh.Game` and :class:`~brandubh.Bot`: every
rule, every refusal and every ending is the game's own. The board is drawn
again after every move, the engine's move is shown with what it captured,
and a move is typed in either written form (``d1d3``, ``d1-d3``,
``Kd4-d1``). The commands:

==============  ===============================================================
``moves``       your legal moves
``board``       the board again
``undo``        take back your last move (and the engine's reply to it)
``hint``        the search's suggestion for you and its score
``draw``        offer a draw: the engine accepts when its own search scores the
                position :data:`~brandubh.bot.DRAW_MARGIN` or more worse for it
                than the set-up
``resign``      give the game up
``save FILE``   write the game text (``brandubh show FILE``, ``--load FILE``)
``help``        the commands
``quit``        leave (end of input, Ctrl-D, too)
==============  ===============================================================

A refused move prints the game's sentence and changes nothing. After the
end the prompt stays, for ``undo``, ``save`` and ``quit``.

Colour when the output is a terminal, ``NO_COLOR`` is not set (to anything
but the empty string) and ``TERM`` is not ``dumb``; the Unicode board when
the output's encoding can write it and ``--ascii`` is not given.

:class:`Terminal` is the loop, fed one line at a time, so a program (or a
test) can drive it without a terminal; what it plays and says is
:class:`brandubh.session.Session`'s, which ``brandubh serve`` uses too:

>>> import io
>>> from brandubh import Bot, Game
>>> out = io.StringIO()
>>> session = Terminal(Game(), Bot(1), 'attackers', out=out)
>>> session.begin()
>>> session.handle('d1d4')
True
>>> print(out.getvalue().splitlines()[-1])
Refused: d1 to d4: the attacker on d1 is blocked by the piece on d2
>>> session.handle('quit')
False
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, TextIO

from .. import notation
from ..errors import ArgumentError
from ..files import write_whole
from ..session import HINT_BUDGET, Said, Session, result_sentence
from ..views.text import ASCII, UNICODE, diagram
from ..words import plural

if TYPE_CHECKING:
    from ..bot import Bot
    from ..game import Game

__all__ = ["Terminal", "COMMANDS", "register", "run", "play", "use_colour", "can_write_unicode"]

COMMANDS = ("moves", "board", "undo", "hint", "draw", "resign", "save", "help", "quit")

#: From this budget on the engine says it is thinking (a second or more),
#: after drawing the board with the person's move.
THINKING_BUDGET = 500_000

HELP = """\
Type a move in either form: d1d3 or d1-d3 (Kd4-d1 and d1-d3xc3 are read too).
  moves       your legal moves
  board       the board again
  undo        take back your last move and the engine's reply
  hint        the engine's suggestion for you, and its score
  draw        offer a draw; the engine accepts or declines
  resign      give the game up
  save FILE   write the game text to FILE (brandubh show FILE, brandubh play --load FILE)
  help        this list
  quit        leave (Ctrl-D too)"""

_STYLE = {"refused": "31", "engine": "1", "you": "1", "over": "1;32", "note": "2"}


def use_colour(stream: TextIO, environ: Optional[Mapping[str, str]] = None) -> bool:
    """Whether to colour what goes to ``stream``: a terminal, ``NO_COLOR``
    unset or empty (https://no-color.org), and ``TERM`` not ``dumb``.

    >>> import io
    >>> use_colour(io.StringIO(), {})
    False
    """
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", "") != "" or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def can_write_unicode(stream: TextIO) -> bool:
    """Whether the stream's encoding can write the Unicode board.

    >>> import io
    >>> can_write_unicode(io.TextIOWrapper(io.BytesIO(), encoding='ascii'))
    False
    >>> can_write_unicode(io.TextIOWrapper(io.BytesIO(), encoding='utf-8'))
    True
    """
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "".join(UNICODE).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Terminal:
    """A person against the engine at a terminal, one line of input at a
    time: a :class:`~brandubh.session.Session` (which plays, and says what
    happened) with the board drawn round what it says.

    ``game``: the :class:`~brandubh.Game` (new, or loaded); ``bot``: the
    :class:`~brandubh.Bot` playing the other side; ``side``: the person's
    side, ``'attackers'`` or ``'defenders'``. ``out``: where everything is
    written. ``unicode`` and ``colour``: how the board is drawn.

    :meth:`begin` greets, draws the board and lets the engine move if it is
    its turn; :meth:`handle` takes one line and returns False when the
    person has asked to leave; :attr:`prompt` is what to ask with.
    """

    def __init__(self, game: "Game", bot: "Bot", side: str, *, out: TextIO, unicode: bool = False,
                 colour: bool = False, hint_budget: int = HINT_BUDGET) -> None:
        self.session = Session(game, bot, side, hint_budget=hint_budget)
        self.game = game
        self.bot = bot
        self.out = out
        self.unicode = unicode
        self.colour = colour
        self.saved = self._state()
        self.warned = False

    # -- writing -------------------------------------------------------------

    def say(self, text: str, style: Optional[str] = None) -> None:
        if style and self.colour:
            text = f"\x1b[{_STYLE[style]}m{text}\x1b[0m"
        self.out.write(text + "\n")
        self.out.flush()

    def draw(self) -> None:
        self.say(diagram(self.game, unicode=self.unicode, colour=self.colour))

    def refused(self, said: Said) -> None:
        extra = " (help lists the commands)" if said.code == "not_a_move" else ""
        self.say(f"Refused: {said.text}{extra}", "refused")

    @property
    def prompt(self) -> str:
        """``"your move> "`` while the game is on, ``"game over> "`` after it."""
        return "your move> " if self.game.status == "active" else "game over> "

    # -- the loop ------------------------------------------------------------

    def begin(self) -> None:
        """Greet, draw the board, and let the engine move if it is its turn
        (or say how the game ended, for a loaded game that is over)."""
        s = self.session
        self.say(f"You have the {s.side} ({s.seat}); the engine, level {self.bot.level}, "
                 f"has the {s.other} ({s.engine_seat}). Rules: {self.game.variant.as_string()}.")
        glyphs = UNICODE if self.unicode else ASCII
        self.say(f"Type a move (d1d3 or d1-d3), or help for the commands. "
                 f"{glyphs.attacker} attackers, {glyphs.defender} defenders, {glyphs.king} king.", "note")
        self.draw()
        if self.game.status == "finished":
            self.announce()
        else:
            self.engine_moves()

    def handle(self, line: str) -> bool:
        """Do what one line of input asks; False when it asks to leave."""
        text = line.strip()
        if not text:
            return True
        word, _, rest = text.partition(" ")
        command = word.lower()
        if command in ("quit", "exit"):
            return not self.leave()
        self.warned = False
        if command == "save":
            self.save(rest.strip())
        elif rest.strip() == "" and command in COMMANDS:
            getattr(self, "do_" + command)()
        else:
            self.move(text)
        return True

    # -- moves ---------------------------------------------------------------

    def move(self, text: str) -> None:
        said = self.session.move(text)
        if said.refused:
            self.refused(said)
            return
        self.say(said.text, "you")
        if said.ending:
            self.draw()
            self.announce()
        elif self.session.engine_to_move:
            self.engine_moves(board_first=self.bot.budget >= THINKING_BUDGET)
        else:  # pragma: no cover - the engine moves after the person
            self.draw()

    def engine_moves(self, board_first: bool = False) -> None:
        """The engine's move, when it is its turn, and the board after it
        (``board_first``: the board before too, for a reply that takes a
        while to come)."""
        if not self.session.engine_to_move:
            return
        if board_first:
            self.draw()
        if self.bot.budget >= THINKING_BUDGET:
            self.say("The engine is thinking...", "note")
        said = self.session.reply()
        assert said is not None
        self.say(said.text, "engine")
        self.draw()
        if said.ending:
            self.announce()

    def announce(self) -> None:
        """How the game ended, and who won."""
        ending = self.session.ending()
        if not ending:  # pragma: no cover - called only at the end
            return
        self.say(ending, "over")
        self.say("Type undo to take back your last move, save FILE to keep the game, or quit.", "note")

    # -- commands --------------------------------------------------------------

    def do_help(self) -> None:
        self.say(HELP)

    def do_board(self) -> None:
        self.draw()

    def do_moves(self) -> None:
        game = self.game
        if game.status != "active":
            self.say(f"No moves: the game is over: {result_sentence(game)}.")
            return
        shown = [str(game.shown_of(m)) for m in game.legal()]
        self.say(f"Your {len(shown)} moves:")
        line = " "
        for text in shown:
            if len(line) + len(text) + 1 > 78:
                self.say(line)
                line = " "
            line += " " + text
        self.say(line)

    def do_undo(self) -> None:
        said = self.session.undo()
        if said.refused:
            self.say(said.text[0].upper() + said.text[1:] + ".")
            return
        self.say(said.text)
        self.draw()

    def do_hint(self) -> None:
        self.say(self.session.hint().text)

    def do_draw(self) -> None:
        said = self.session.offer_draw()
        if said.refused:
            self.refused(said)
            return
        self.say(said.text, "engine")
        if said.ending:
            self.announce()

    def do_resign(self) -> None:
        said = self.session.resign()
        if said.refused:
            self.refused(said)
            return
        self.announce()

    def do_save(self) -> None:
        self.save("")

    def save(self, path: str) -> None:
        if not path:
            self.say("Save where? Give a file name: save game.txt", "refused")
            return
        try:
            write_whole(os.path.expanduser(path), self.game.as_text())
        except ArgumentError as error:
            self.say(f"Could not save: {error}", "refused")
            return
        self.saved = self._state()
        self.say(f"Saved the game ({plural(self.game.ply, 'move')}) to {path}.")

    def _state(self) -> tuple:
        """What a save keeps: the moves and how the game ended."""
        return tuple(self.game.log), self.game.result

    @property
    def unsaved(self) -> bool:
        """Whether the game has changed since it was loaded, begun or saved
        (a new game with no move is nothing to lose)."""
        return self._state() != self.saved

    def leave(self) -> bool:
        """Whether the person may leave now: yes when nothing is unsaved or
        they were warned once already (quit, or Ctrl-C, twice)."""
        if not self.unsaved or self.warned:
            return True
        self.warned = True
        self.say("The game is not saved: save FILE keeps it; quit (or Ctrl-C) again leaves without saving.",
                 "note")
        return False


def play(session: Terminal, read: Callable[[str], str] = input) -> int:
    """Run a session to its end: ``read(prompt)`` gives each line (and
    raises EOFError when there are no more). Returns the exit status, 0.

    >>> import io
    >>> from brandubh import Bot, Game
    >>> lines = iter(['d2c2', 'resign'])
    >>> out = io.StringIO()
    >>> play(Terminal(Game(), Bot(1), 'attackers', out=out), lambda prompt: next(lines))
    0
    >>> 'Game over: the attackers resigned. The engine wins.' in out.getvalue()
    True
    """
    session.begin()
    while True:
        try:
            line = read(session.prompt)
        except (EOFError, StopIteration):
            session.say("")
            return 0
        except KeyboardInterrupt:  # Ctrl-C at the prompt: leave on a line of its own, if nothing is lost
            session.say("")
            if session.leave():
                raise
            continue
        if not session.handle(line):
            return 0


# -- the command -----------------------------------------------------------------

_DESCRIPTION = """\
Play brandubh against the engine at a terminal. The board is drawn again
after every move and the engine's move is shown with what it captured. Type
a move in either written form (d1d3, d1-d3, Kd4-d1), or one of the
commands: moves, board, undo, hint, draw, resign, save FILE, help, quit.
A refused move says why and changes nothing.

Colour when the output is a terminal and NO_COLOR is not set; the Unicode
board when the terminal's encoding has it (--ascii for the plain one)."""

_EPILOG = """\
examples:
  brandubh play
  brandubh play --level 5 --side defenders
  brandubh play --variant codingame
  brandubh play --load saved.txt          (a game text, as 'save FILE' writes it)
  brandubh play --load games.txt --game 3 (game 3 of 'match --games-out')
  brandubh play --load record.otg         (an OpenTafl game record)

The engine accepts a draw when its own search scores the position 500 or
more worse for it than the set-up (about two and a half soldiers, or a
loss it sees coming). A hint is
a search of 48,000 positions (level 4's).

Exit status: 0, 2 for bad arguments or a game file that cannot be read,
130 when interrupted."""


def register(subparsers: Any) -> None:
    """Add the ``play`` command to the ``brandubh`` command's subparsers."""
    from ..argtypes import whole
    from ..bot import MAX_LEVEL

    p = subparsers.add_parser(
        "play", help="play against the engine at a terminal",
        description=_DESCRIPTION, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--level", type=whole(1, MAX_LEVEL), default=3, metavar="N",
                   help=f"the engine's level, 1 (a beginner) to {MAX_LEVEL} (default 3)")
    p.add_argument("--side", choices=notation.SIDES, default="attackers",
                   help="your side (default attackers, who move first)")
    p.add_argument("--variant", default=None, metavar="V",
                   help="a preset (brandubh, codingame, modern, opentafl) or a quoted line of "
                        "field=value pairs (default brandubh; a loaded game keeps its own)")
    p.add_argument("--load", metavar="FILE", default=None,
                   help="go on with a saved game: a game text, as 'save FILE' writes it, a file of "
                        "games ('match --games-out'), a 'referee --save' record or an OpenTafl game "
                        "record (.otg); '-' reads standard input")
    p.add_argument("--game", type=whole(1), default=None, metavar="N",
                   help="with --load, game N of a file of several (default the first)")
    p.add_argument("--seed", default=None, metavar="S",
                   help="any text: the engine plays the same way again (default: a fresh one each time)")
    p.add_argument("--ascii", action="store_true", help="draw the board in plain ASCII")
    p.add_argument("--tables", metavar="DIR", default=None,
                   help="endgame tables for the game's rules (brandubh tables build): the engine and the hint "
                        "play and judge the positions they hold exactly")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, read: Callable[[str], str] = input,
        out: Optional[TextIO] = None) -> int:
    """Run ``brandubh play`` with parsed arguments; the exit status."""
    from ..bot import Bot
    from ..game import Game
    from ..records import load_game

    stream = sys.stdout if out is None else out
    attackers = "p1" if args.side == "attackers" else "p2"
    if args.load is not None:
        if args.variant is not None:
            raise ArgumentError("--load takes the rules from the game file: leave out --variant")
        game = load_game(args.load, attackers, args.game)
    else:
        if args.game is not None:
            raise ArgumentError("--game picks a game of the file --load reads: give --load FILE too")
        game = Game(attackers, variant=args.variant)
    if args.tables is not None:
        from ..endgame import load_tables

        game.endgame = load_tables(args.tables, game.variant)
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    bot = Bot(args.level, seed=seed)
    if read is input and sys.stdin.isatty():
        try:
            import readline  # noqa: F401 - input() then edits lines and keeps a history (the arrows)
        except ImportError:  # pragma: no cover - not on every platform
            pass
    session = Terminal(game, bot, args.side, out=stream,
                       unicode=not args.ascii and can_write_unicode(stream), colour=use_colour(stream))
    return play(session, read)

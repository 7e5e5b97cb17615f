"""``brandubh play``: the session fed line by line, and the real command
driven through a pseudo-terminal as a person types."""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from brandubh import Bot, Game
from brandubh.session import result_sentence
from brandubh.cli import build_parser, main
from brandubh.notation import move_parse
from brandubh.cli.play import COMMANDS, Terminal as Session, play, run, use_colour

# docs/rules.md: the attacker's c5-c4 takes the king on the throne from his fourth side.
KING_TAKEN = "7/7/2aa3/3ka2/3a3/7/7 a"
# One move from the end: the king on d1, and g1 free.
NEAR_THE_END = "variant brandubh\nstart 7/7/7/3k3/7/7/a6 d\nmoves d4d1 a1a2\n"


class Typist:
    """Lines for a session, one at a time, and what it wrote since the
    last look."""

    def __init__(self, game, side="attackers", level=1, colour=False, unicode=False):
        self.out = io.StringIO()
        self.session = Session(game, Bot(level, seed="test"), side, out=self.out, colour=colour,
                               unicode=unicode)
        self.seen = 0

    def begin(self) -> str:
        self.session.begin()
        return self.new()

    def type(self, line: str) -> str:
        assert self.session.handle(line) is True
        return self.new()

    def new(self) -> str:
        text = self.out.getvalue()
        fresh, self.seen = text[self.seen:], len(text)
        return fresh


def boards(text: str) -> int:
    return text.count("    a  b  c  d  e  f  g\n") // 2


# -- the session, line by line -----------------------------------------------


def test_a_refused_move_says_why_in_the_games_sentence_and_changes_nothing():
    game = Game()
    typist = Typist(game)
    typist.begin()
    for typed in ("d1d4", "d4d1", "e4e9", "Kd1-a1", "c4c2"):
        before = (game.position, game.log, game.ply)
        said = typist.type(typed)
        assert said == f"Refused: {Game().play(typed, 'p1')}\n", said
        assert (game.position, game.log, game.ply) == before
    assert typist.type("hello") == ("Refused: 'hello' is not written as a move: give it as d1d3 or d1-d3 "
                                    "(help lists the commands)\n")
    assert game.ply == 0 and typist.session.prompt == "your move> "


def test_moves_in_either_written_form_and_one_board_a_turn():
    game = Game()
    typist = Typist(game)
    assert boards(typist.begin()) == 1
    said = typist.type("D2-C2")
    assert said.startswith("You play d2-c2.\n")
    assert re.search(r"\nThe engine \(defenders\) plays [a-gK1-7x,+#-]+(, capturing [^.]+)?\.\n", said), said
    assert boards(said) == 1   # one board a turn: after the engine's reply, both moves marked in text
    assert game.log[0] == "d2c2" and game.ply == 2
    assert typist.type("c2c1").startswith("You play c2-c1.\n")


def test_your_capture_and_the_engines_winning_capture_are_shown():
    game = Game(position="7/7/7/3k3/2ad3/7/4a2 a")
    assert Typist(game).type("e1e3").startswith("You play e1-e3xd3, capturing the defender on d3.\n")
    game = Game("p2", position=KING_TAKEN)  # you (p1) have the defenders
    typist = Typist(game, side="defenders", level=3)
    said = typist.begin()
    assert "\nThe engine (attackers) plays c5-c4xd4#, capturing the king on d4.\n" in said
    assert said.endswith("Game over: the king was captured, the attackers won. The engine wins.\n"
                         "Type undo to take back your last move, save FILE to keep the game, or quit.\n")
    assert typist.session.prompt == "game over> "
    assert typist.type("d4d1") == "Refused: the game is over: the king was captured, the attackers won\n"
    assert typist.type("undo") == "Nothing to undo: you have not moved yet.\n"


def test_undo_takes_back_your_move_and_the_reply():
    game = Game()
    typist = Typist(game)
    typist.begin()
    assert typist.type("undo") == "Nothing to undo: you have not moved yet.\n"
    typist.type("d2c2")
    typist.type("d6f6")
    assert game.ply == 4
    before = game.log
    said = typist.type("undo")
    assert said.startswith("Took back 2 moves.\n") and boards(said) == 1
    assert game.log == before[:2] and game.side_to_move == "attackers"
    # the game you win with your own move: undo takes back just that one
    won = Game.from_text(NEAR_THE_END, attackers="p2").game
    typist = Typist(won, side="defenders")
    typist.begin()
    said = typist.type("d1-g1")
    assert "Game over: the king reached a corner, the defenders won. You win.\n" in said
    assert typist.type("undo").startswith("Took back 1 move.\n")
    assert won.status == "active" and won.ply == 2 and won.side_to_move == "defenders"


def test_hint():
    game = Game()
    typist = Typist(game)
    typist.begin()
    said = typist.type("hint")
    found = re.fullmatch(r"Hint: ([a-gK1-7x,+#-]+) \(([+-]\d+\.\d) for you: an? (\d+)% chance, (\d+) moves deep\)\.\n",
                         said)
    assert found, said
    assert game.play(found.group(1)) is None  # a legal move, in its shown form
    won = Game.from_text(NEAR_THE_END, attackers="p2").game
    typist = Typist(won, side="defenders")
    typist.begin()
    assert typist.type("hint") == "Hint: Kd1-g1++ (you win at once).\n"
    assert won.ply == 2  # a hint plays nothing


def test_draw_declined_and_accepted():
    game = Game()
    typist = Typist(game)
    typist.begin()
    assert typist.type("draw") == "The engine declines the draw: it thinks it is not behind. Play on.\n"
    assert game.status == "active" and game.draw_offered_by is None
    # one attacker against the king: the engine (the attackers) takes the draw
    hopeless = Game("p2", position="7/7/7/3k3/7/7/a6 d")
    typist = Typist(hopeless, side="defenders")
    typist.begin()
    said = typist.type("draw")
    assert said.startswith("The engine accepts the draw.\nGame over: the players agreed a draw. A draw.\n")
    assert hopeless.result.how == "agreed"
    assert typist.type("draw") == "Refused: the game is over: the players agreed a draw\n"


def test_resign_then_take_it_back():
    game = Game()
    typist = Typist(game)
    typist.begin()
    assert typist.type("resign").startswith("Game over: the attackers resigned. The engine wins.\n")
    assert game.winner == "p2"
    assert typist.type("resign") == "Refused: the game is over: the attackers resigned\n"
    assert typist.type("undo").startswith("Took back the resignation.\n")
    assert game.status == "active"


def test_save(tmp_path):
    game = Game()
    typist = Typist(game)
    typist.begin()
    typist.type("d2c2")
    path = tmp_path / "saved game.txt"
    assert typist.type(f"save {path}") == f"Saved the game (2 moves) to {path}.\n"
    assert path.read_text() == game.as_text()
    assert Game.from_text(path.read_text()).game.log == game.log
    assert typist.type("save").startswith("Save where?")
    said = typist.type(f"save {tmp_path}")
    assert said.startswith(f"Could not save: cannot write '{tmp_path}': it is not a regular file")
    assert game.ply == 2
    assert typist.type("save a\0b").startswith("Could not save: ")   # a NUL in the name: a sentence, no traceback
    # A full disk: the earlier save is kept whole, and the sentence says nothing changed.
    if Path("/dev/full").exists():
        link = tmp_path / "full"
        link.symlink_to("/dev/full")
        assert "not a regular file" in typist.type(f"save {link}")
    assert Game.from_text(path.read_text()).game.log == game.log


def test_quit_and_ctrl_c_ask_once_when_the_game_is_not_saved(tmp_path):
    typist = Typist(Game())
    typist.begin()
    assert typist.session.handle("quit") is False        # nothing played: nothing to lose
    typist = Typist(Game())
    typist.begin()
    typist.type("d2c2")
    assert typist.session.handle("quit") is True         # warned, and still here
    assert "not saved" in typist.out.getvalue().splitlines()[-1]
    assert typist.session.handle("quit") is False        # the second quit leaves
    typist = Typist(Game())
    typist.begin()
    typist.type("d2c2")
    typist.type(f"save {tmp_path / 'g.txt'}")
    assert typist.session.handle("quit") is False        # saved: leaves at once


def test_ctrl_c_at_the_prompt_warns_before_leaving_an_unsaved_game():
    out = io.StringIO()
    answers = iter(["d2c2", KeyboardInterrupt, KeyboardInterrupt])

    def read(prompt):
        item = next(answers)
        if item is KeyboardInterrupt:
            raise KeyboardInterrupt
        return item

    with pytest.raises(KeyboardInterrupt):
        play(Session(Game(), Bot(1, seed="t"), "attackers", out=out), read)
    assert out.getvalue().count("The game is not saved") == 1


def test_help_moves_board_and_quit():
    typist = Typist(Game())
    typist.begin()
    said = typist.type("help")
    for command in COMMANDS:
        assert f"\n  {command}" in said, command
    said = typist.type("moves")
    assert said.startswith("Your 40 moves:\n  d1-b1 d1-c1 ")
    assert boards(typist.type("board")) == 1
    assert typist.session.handle("quit") is False
    assert typist.session.handle("  QUIT ") is False


def test_colour_only_when_asked():
    plain = Typist(Game())
    assert "\x1b" not in plain.begin() + plain.type("d2c2") + plain.type("d1d4")
    painted = Typist(Game(), colour=True, unicode=True)
    text = painted.begin() + painted.type("d2c2") + painted.type("d1d4")
    assert "\x1b[" in text and "●" in text


def test_play_ends_at_the_end_of_input():
    lines = iter(["d2c2"])
    out = io.StringIO()

    def read(prompt):
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    assert play(Session(Game(), Bot(1, seed="t"), "attackers", out=out), read) == 0
    assert "You play d2-c2." in out.getvalue()


def test_use_colour():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert use_colour(Tty(), {"TERM": "xterm"}) is True
    assert use_colour(Tty(), {"TERM": "xterm", "NO_COLOR": "1"}) is False
    assert use_colour(Tty(), {"TERM": "xterm", "NO_COLOR": ""}) is True
    assert use_colour(Tty(), {"TERM": "dumb"}) is False
    assert use_colour(io.StringIO(), {"TERM": "xterm"}) is False


def test_the_command_loads_a_game_and_plays_it_to_the_end(tmp_path):
    path = tmp_path / "near.txt"
    path.write_text(NEAR_THE_END)
    args = build_parser().parse_args(["play", "--side", "defenders", "--load", str(path), "--ascii"])
    lines = iter(["d1g1", "quit"])
    out = io.StringIO()
    assert run(args, lambda prompt: next(lines), out) == 0
    said = out.getvalue()
    assert said.startswith("You have the defenders (p1); the engine, level 3, has the attackers (p2). "
                           "Rules: brandubh.\n")
    assert "You play Kd1-g1++.\n" in said and "You win." in said


def test_the_command_refuses_what_it_cannot_use(tmp_path, capsys):
    path = tmp_path / "near.txt"
    path.write_text(NEAR_THE_END)
    assert main(["play", "--load", str(path), "--variant", "modern"]) == 2
    assert "--load takes the rules from the game file" in capsys.readouterr().err
    assert main(["play", "--load", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--level", "7"])
    assert "must be a whole number from 1 to 6" in capsys.readouterr().err


# -- the real command in a pseudo-terminal -------------------------------------

pty_only = pytest.mark.skipif(not hasattr(os, "openpty") or sys.platform == "win32",
                              reason="needs a pseudo-terminal (POSIX)")


class Terminal:
    """``brandubh play`` in a pseudo-terminal: what a person types goes in
    through the terminal (Enter is a carriage return), and everything the
    program writes, the terminal's echo of the typing included, comes
    back."""

    def __init__(self, args, colour: bool):
        env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="xterm")
        env.pop("NO_COLOR", None)
        if not colour:
            env["NO_COLOR"] = "1"
        master, slave = os.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "brandubh", "play", *args],
                                     stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.fd = master
        self.data = b""
        self.at = 0

    def read_until(self, *marks: str, timeout: float = 60) -> str:
        """Everything written from the last look up to and including the
        first of ``marks`` to appear, as text with the terminal's \\r\\n
        made \\n."""
        import select

        wanted = [m.encode() for m in marks]
        deadline = time.monotonic() + timeout
        while True:
            hits = [i for i in (self.data.find(m, self.at) for m in wanted) if i >= 0]
            if hits:
                first = min(hits)
                end = first + len(next(m for m in wanted if self.data.startswith(m, first)))
                text, self.at = self.data[self.at:end], end
                return text.decode("utf-8").replace("\r\n", "\n")
            left = deadline - time.monotonic()
            assert left > 0, f"waited for {marks}; the program wrote: {self.data[self.at:]!r}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # EIO: the program has ended
                    chunk = b""
                assert chunk, f"the program ended while {marks} was awaited: {self.data[self.at:]!r}"
                self.data += chunk

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def finish(self) -> int:
        code = self.proc.wait(timeout=60)
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.data += chunk
        os.close(self.fd)
        return code

    @property
    def everything(self) -> str:
        return self.data.decode("utf-8")


PROMPTS = ("your move> ", "game over> ")
ENGINE_MOVE = re.compile(r"The engine \(attackers\) plays ([a-gK1-7x,+#-]+?)(?:, capturing [^.]*)?\.\n")


def choose(game: Game, rng: random.Random) -> str:
    """A winning move, else a capture, else any move."""
    moves = game.legal()
    best = [m for m in moves if m.wins] or [m for m in moves if m.captures]
    return best[0].move if best else rng.choice(moves).move


@pty_only
def test_a_whole_game_typed_at_a_terminal(tmp_path):
    term = Terminal(["--level", "1", "--side", "defenders", "--seed", "pty"], colour=False)
    mirror = Game("p2")  # the same game, kept here: you (p1) have the defenders
    rng = random.Random(13)
    said = term.read_until(*PROMPTS)
    assert said.startswith("You have the defenders (p1); the engine, level 1, has the attackers (p2).")
    assert "┌─────────────────────┐" in said  # the Unicode board: the terminal writes UTF-8
    rounds = 0
    while True:
        for shown in ENGINE_MOVE.findall(said):
            assert mirror.play(shown, "p2") is None, shown
        assert "\n" + mirror.diagram(unicode=True) + "\n" in said  # the board as it now stands
        if said.endswith("game over> "):
            break
        rounds += 1
        if rounds == 1:
            # a refused move: the game's own sentence, and nothing changes
            term.type("a1a2")
            refused = term.read_until(*PROMPTS)
            sentence = mirror.play("a1a2", "p1")
            assert sentence is not None and mirror.ply == 1
            assert refused == f"a1a2\nRefused: {sentence}\nyour move> "
            term.type("hint")
            hint = re.search(r"Hint: ([a-gK1-7x,+#-]+) \(", term.read_until(*PROMPTS))
            assert hint and move_parse(hint.group(1)) in {m.move for m in mirror.legal()}
        if rounds == 3:
            term.type("undo")
            undone = term.read_until(*PROMPTS)
            assert undone.startswith("undo\nTook back 2 moves.\n"), undone
            mirror.undo()
            mirror.undo()
            assert "\n" + mirror.diagram(unicode=True) + "\n" in undone
        move = choose(mirror, rng)
        term.type(move)
        said = term.read_until(*PROMPTS)
        assert said.startswith(move + "\nYou play "), said
        assert mirror.play(move, "p1") is None
    assert mirror.status == "finished"
    ending = f"Game over: {result_sentence(mirror)}."
    assert ending in said, said
    path = tmp_path / "game.txt"
    term.type(f"save {path}")
    assert term.read_until(*PROMPTS).startswith(f"save {path}\nSaved the game ({mirror.ply} move")
    assert path.read_text() == mirror.as_text()
    term.type("quit")
    assert term.finish() == 0
    assert "\x1b" not in term.everything  # NO_COLOR: not one escape sequence
    assert rounds > 3, rounds
    print(f"the game took {mirror.ply} moves: {mirror.result_sentence}")


@pty_only
def test_a_loaded_game_finished_at_a_colour_terminal(tmp_path):
    path = tmp_path / "near.txt"
    path.write_text(NEAR_THE_END)
    term = Terminal(["--side", "defenders", "--load", str(path)], colour=True)
    said = term.read_until("your move> ")
    assert "\x1b[" in said  # a terminal, and NO_COLOR not set: colour
    plain = re.sub(r"\x1b\[[0-9;]*m", "", said)
    assert "[●] ·  ·  ·  ·  ·  · │ 2" in plain  # the attacker's last move, a1-a2
    term.type("Kd1-g1")
    said = re.sub(r"\x1b\[[0-9;]*m", "", term.read_until("game over> "))
    assert "You play Kd1-g1++.\n" in said
    assert "Game over: the king reached a corner, the defenders won. You win.\n" in said
    term.type("quit")   # the game was not saved: it asks once
    assert "The game is not saved" in term.read_until("game over> ")
    term.type("quit")
    assert term.finish() == 0

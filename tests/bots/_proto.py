"""What the test bots share: reading a turn of the CodinGame protocol,
the legal moves and the boards (from tests/reference.py, which never
imports brandubh), and answering. Standard library only, so a bot starts
fast under ``python -S``.

Options every bot takes (each bot adds its own):
  --seed N        the random choices (default 1)
  --moves "..."   moves to play first, in order, one per turn; then random
  --log FILE      append every line read to FILE
  --check         check each board against the previous board, the bot's
                  own move and the reported move (own captures code); on a
                  mismatch write why on stderr and exit with status 3
  --variant NAME  the preset the moves are generated under (default codingame)
  --at N          the turn (from 1) at which the bot misbehaves, if it does
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import reference as ref  # noqa: E402

PIECE = {"A": "a", "D": "d", "K": "k"}


def options(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    opts = {"seed": 1, "moves": [], "log": None, "check": False, "variant": "codingame",
            "at": 1, "seconds": 5.0, "text": "hello", "child": False, "style": "plain"}
    i = 0
    while i < len(argv):
        key = argv[i]
        if key == "--check":
            opts["check"] = True
        elif key == "--child":
            opts["child"] = True
        elif key in ("--seed", "--at"):
            opts[key[2:]] = int(argv[i + 1])
            i += 1
        elif key == "--seconds":
            opts["seconds"] = float(argv[i + 1])
            i += 1
        elif key == "--moves":
            opts["moves"] = argv[i + 1].split()
            i += 1
        elif key in ("--log", "--variant", "--text", "--style"):
            opts[key[2:]] = argv[i + 1]
            i += 1
        else:
            sys.exit("unknown option %r" % key)
        i += 1
    return opts


class Bot:
    """Reads turns, keeps the last board, and answers."""

    def __init__(self, opts):
        self.opts = opts
        self.rules = ref.make_rules(opts["variant"])
        self.rng = random.Random(opts["seed"])
        self.script = list(opts["moves"])
        self.turn = 0
        self.role = None
        self.last = None
        self.board = None
        self.expect = None  # the board after the bot's own last move

    def read(self):
        """The next turn, or None at the end of the input."""
        lines = []
        for _ in range(9):
            line = sys.stdin.readline()
            if not line:
                return None
            lines.append(line.rstrip("\n"))
        if self.opts["log"]:
            with open(self.opts["log"], "a") as f:
                f.write("\n".join(lines) + "\n")
        self.turn += 1
        self.role = int(lines[0])
        self.last = lines[1]
        board = {}
        for i, row in enumerate(lines[2:]):
            rank = 6 - i
            for f, ch in enumerate(row):
                if ch != ".":
                    board[rank * 7 + f] = PIECE[ch]
        if self.opts["check"]:
            self._check(board)
        self.board = board
        return board

    def _check(self, board):
        if self.expect is None or self.last == "NONE":
            return
        frm, to = ref.square_index(self.last[:2]), ref.square_index(self.last[2:])
        side = "d" if self.role == 0 else "a"
        if (frm, to) not in ref.pseudo_moves_of(self.expect, side, self.rules):
            self.fail("the reported move %s is not legal after my move" % self.last)
        after, _ = ref.apply_move(self.expect, frm, to, self.rules)
        if after != board:
            self.fail("the board is %s, not %s" % (ref.format_position(board, "a"),
                                                   ref.format_position(after, "a")))

    def fail(self, why):
        sys.stderr.write("CHECK FAILED on turn %d: %s\n" % (self.turn, why))
        sys.stderr.flush()
        sys.exit(3)

    @property
    def side(self):
        return "a" if self.role == 0 else "d"

    def legal(self):
        return ref.pseudo_moves_of(self.board, self.side, self.rules)

    def choose(self):
        """The next scripted move, else a random legal one."""
        if self.script:
            return self.script.pop(0)
        moves = self.legal()
        if not moves:
            return "a1a1"
        frm, to = self.rng.choice(moves)
        return ref.move_name(frm, to)

    def answer(self, text):
        if self.opts["check"] and len(text) == 4:
            frm, to = ref.square_index(text[:2]), ref.square_index(text[2:])
            if (frm, to) in self.legal():
                self.expect, _ = ref.apply_move(self.board, frm, to, self.rules)
        # --style: how the move is written; the puzzle's referee takes each.
        if len(text) == 4 and self.opts["style"] != "plain":
            text = {"upper": text.upper(), "space": text[:2] + " " + text[2:],
                    "upper-space": text[:2].upper() + " " + text[2:].upper()}[self.opts["style"]]
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def run(misbehave=None, argv=None):
    """Play until the input ends; ``misbehave(bot)`` is called on turn
    ``--at`` instead of answering."""
    bot = Bot(options(argv))
    while bot.read() is not None:
        if misbehave is not None and bot.turn == bot.opts["at"]:
            misbehave(bot)
            continue
        bot.answer(bot.choose())

"""A small engine speaking OpenTafl's engine protocol: it takes its board
from every position record it is sent (the rules' start, each
opponent-move and each confirmation of its own move) and answers each
play with a random legal move of tests/reference.py. Standard library only.

Options:
  --seed N        the random choices (default 1)
  --variant NAME  the preset its moves are generated under (default opentafl)
  --crash-at N    on the Nth play, exit with status 1 instead of answering
  --hang-at N     on the Nth play, never answer (sleep an hour)
  --child         when hanging, first start a child (sleep 60) and write
                  "child <pid>" on stderr, so a test can check it dies too
  --log FILE      append every line read to FILE
"""

import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import reference as ref  # noqa: E402

LETTERS = {"t": "a", "T": "d", "K": "k"}


def board_of(record):
    """A reference board (square -> piece) from a position record."""
    board = {}
    rows = record.strip("/").split("/")
    for rank, row in enumerate(rows):
        file = 0
        digits = ""
        for ch in row + "/":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                file += int(digits)
                digits = ""
            if ch in LETTERS:
                board[rank * 7 + file] = LETTERS[ch]
                file += 1
    return board


def main(argv):
    opts = {"seed": 1, "variant": "opentafl", "crash-at": 0, "hang-at": 0, "child": False, "log": None}
    i = 0
    while i < len(argv):
        key = argv[i][2:]
        if key == "child":
            opts["child"] = True
        elif key in ("seed", "crash-at", "hang-at"):
            opts[key] = int(argv[i + 1])
            i += 1
        elif key in ("variant", "log"):
            opts[key] = argv[i + 1]
            i += 1
        else:
            sys.exit("unknown option %r" % argv[i])
        i += 1
    rng = random.Random(opts["seed"])
    rules = ref.make_rules(opts["variant"])
    board = {}
    plays = 0
    sys.stdout.write("hello\n")
    sys.stdout.flush()
    for line in sys.stdin:
        if opts["log"]:
            with open(opts["log"], "a") as f:
                f.write(line)
        words = line.split()
        if not words:
            continue
        if words[0] == "rules":
            for word in words[1:]:
                if word.startswith("start:"):
                    board = board_of(word[6:])
        elif words[0] == "opponent-move" and len(words) > 2:
            board = board_of(words[2])
        elif words[0] == "move" and len(words) > 1:
            board = board_of(words[1])
        elif words[0] == "play":
            plays += 1
            if plays == opts["crash-at"]:
                sys.stderr.write("otep_bot: crashing on purpose on play %d\n" % plays)
                sys.exit(1)
            if plays == opts["hang-at"]:
                if opts["child"]:
                    child = subprocess.Popen(["sleep", "60"])
                    sys.stderr.write("child %d\n" % child.pid)
                    sys.stderr.flush()
                time.sleep(3600)
            moves = ref.pseudo_moves_of(board, words[1][0], rules)
            if not moves:
                sys.stdout.write("error -1 no legal move\n")
            else:
                frm, to = rng.choice(moves)
                sys.stdout.write("status thinking\nmove %s-%s\n" % (ref.square_name(frm), ref.square_name(to)))
            sys.stdout.flush()
        elif words[0] == "goodbye":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

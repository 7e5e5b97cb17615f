"""An independent, deliberately plain reference implementation of the brandubh rules.

It follows this project's rule sheet, ``docs/rules.md``, and nothing else.
It never imports the ``brandubh`` package: the tests compare that package
(and its C engine) against this file.  Clarity comes before speed:
the board is a dict ``{square: piece}`` with square ``rank * 7 + file``
(a1 = 0, g7 = 48) and pieces ``'a'`` (attacker), ``'d'`` (defender) and
``'k'`` (the king).  The side to move is ``'a'`` or ``'d'``.
"""

SIZE = 7
FILES = "abcdefg"
THRONE = 24  # d4
CORNERS = (0, 6, 42, 48)  # a1, g1, a7, g7
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))  # (file step, rank step)

SETUP = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"

FIELDS = (
    "escape",
    "throne_pass",
    "throne_reentry",
    "throne_hostile",
    "king_armed",
    "king_capture",
    "encirclement",
    "no_pieces",
    "no_move",
    "repetition",
    "repeat",
    "repeat_counts_start",
    "ply_cap",
    "quiet_cap",
)

PRESETS = {
    "brandubh": {
        "escape": "corner",
        "throne_pass": True,
        "throne_reentry": False,
        "throne_hostile": True,
        "king_armed": True,
        "king_capture": "nielsen",
        "encirclement": False,
        "no_pieces": True,
        "no_move": "draw",
        "repetition": "draw",
        "repeat": 3,
        "repeat_counts_start": True,
        "ply_cap": 400,
        "quiet_cap": 0,
    },
    "codingame": {
        "escape": "corner",
        "throne_pass": True,
        "throne_reentry": True,
        "throne_hostile": True,
        "king_armed": True,
        "king_capture": "four_two",
        "encirclement": True,
        "no_pieces": False,
        "no_move": "loss",
        "repetition": "loss",
        "repeat": 3,
        "repeat_counts_start": False,
        "ply_cap": 200,
        "quiet_cap": 0,
    },
    "modern": {
        "escape": "corner",
        "throne_pass": True,
        "throne_reentry": True,
        "throne_hostile": True,
        "king_armed": True,
        "king_capture": "two",
        "encirclement": False,
        "no_pieces": True,
        "no_move": "loss",
        "repetition": "loss",
        "repeat": 3,
        "repeat_counts_start": True,
        "ply_cap": 4096,
        "quiet_cap": 100,
    },
    "opentafl": {
        "escape": "corner",
        "throne_pass": True,
        "throne_reentry": True,
        "throne_hostile": False,
        "king_armed": True,
        "king_capture": "two",
        "encirclement": False,
        "no_pieces": True,
        "no_move": "loss",
        "repetition": "draw",
        "repeat": 3,
        "repeat_counts_start": True,
        "ply_cap": 4096,
        "quiet_cap": 0,
    },
}

CHOICES = {
    "escape": ("corner", "edge"),
    "king_capture": ("nielsen", "two", "four_two", "four"),
    "no_move": ("draw", "loss"),
    "repetition": ("draw", "loss"),
}
BOOLEAN_FIELDS = (
    "throne_pass",
    "throne_reentry",
    "throne_hostile",
    "king_armed",
    "encirclement",
    "no_pieces",
    "repeat_counts_start",
)
INTEGER_FIELDS = ("repeat", "ply_cap", "quiet_cap")

SIDE_NAME = {"a": "attackers", "d": "defenders"}


# ---------------------------------------------------------------- variants


def make_rules(variant="brandubh"):
    """A full, normalised dict of every field.

    ``variant`` is a preset name, or a dict of fields.  A dict may leave
    fields out; they are taken from the preset named by its optional key
    ``'base'`` (``'brandubh'`` when absent).  That base preset is also the
    one whose ``ply_cap`` replaces an out-of-range ``ply_cap``.
    """
    if isinstance(variant, str):
        if variant not in PRESETS:
            raise ValueError("no preset called %r" % (variant,))
        base_name = variant
        given = {}
    elif isinstance(variant, dict):
        given = dict(variant)
        base_name = given.pop("base", "brandubh")
        if base_name not in PRESETS:
            raise ValueError("no preset called %r" % (base_name,))
        for key in given:
            if key not in FIELDS:
                raise ValueError("no variant field called %r" % (key,))
    else:
        raise ValueError("a variant is a preset name or a dict of fields")

    rules = dict(PRESETS[base_name])
    rules.update(given)

    for key, allowed in CHOICES.items():
        if rules[key] not in allowed:
            raise ValueError("%s must be one of %s" % (key, ", ".join(allowed)))
    for key in BOOLEAN_FIELDS:
        value = rules[key]
        if value is True or value is False:
            continue
        if isinstance(value, int) and value in (0, 1):
            rules[key] = bool(value)
            continue
        raise ValueError("%s must be true or false" % key)
    for key in INTEGER_FIELDS:
        value = rules[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("%s must be a whole number" % key)

    if rules["repeat"] < 2:
        rules["repeat"] = 2
    if rules["ply_cap"] < 1 or rules["ply_cap"] > 4096:
        rules["ply_cap"] = PRESETS[base_name]["ply_cap"]
    if rules["quiet_cap"] < 0 or rules["quiet_cap"] > 4096:
        raise ValueError("quiet_cap must be from 0 to 4096")
    return rules


# ---------------------------------------------------------------- squares


def square_name(sq):
    if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < 49:
        raise ValueError("not a square: %r" % (sq,))
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


def square_index(name):
    """'d4' -> 24 (either case)."""
    if not isinstance(name, str) or len(name) != 2:
        raise ValueError("not a square: %r" % (name,))
    file_char = name[0].lower()
    rank_char = name[1]
    if file_char not in FILES or rank_char not in "1234567":
        raise ValueError("not a square: %r" % (name,))
    return (int(rank_char) - 1) * SIZE + FILES.index(file_char)


def move_name(frm, to):
    return square_name(frm) + square_name(to)


def neighbour(sq, direction):
    """The square one step from ``sq`` in ``direction``, or None off the board."""
    file = sq % SIZE + direction[0]
    rank = sq // SIZE + direction[1]
    if 0 <= file < SIZE and 0 <= rank < SIZE:
        return rank * SIZE + file
    return None


def on_edge(sq):
    file = sq % SIZE
    rank = sq // SIZE
    return file == 0 or file == SIZE - 1 or rank == 0 or rank == SIZE - 1


def other(side):
    return "d" if side == "a" else "a"


def side_of(piece):
    return "a" if piece == "a" else "d"


# ---------------------------------------------------------------- positions


def parse_position(s):
    """'3a3/.../3a3 a' -> ({square: piece}, side).  ValueError if not a position.

    Judges the writing only: seven rows, rank 7 first, each seven squares wide
    (letters a, d, k and digits 1-7 for empty runs), one space, side a or d.
    """
    if not isinstance(s, str):
        raise ValueError("a position is a string")
    parts = s.split(" ")
    if len(parts) != 2:
        raise ValueError("a position is seven rows, one space and a side: %r" % (s,))
    rows_text, side = parts
    if side not in ("a", "d"):
        raise ValueError("the side to move must be 'a' or 'd': %r" % (s,))
    rows = rows_text.split("/")
    if len(rows) != SIZE:
        raise ValueError("a position has seven rows: %r" % (s,))
    board = {}
    for row_number, row in enumerate(rows):
        rank = SIZE - 1 - row_number
        file = 0
        for ch in row:
            if ch in "1234567":
                file += int(ch)
            elif ch in "adk":
                if file >= SIZE:
                    raise ValueError("a row is seven squares wide: %r" % (s,))
                board[rank * SIZE + file] = ch
                file += 1
            else:
                raise ValueError("unexpected character %r in position %r" % (ch, s))
            if file > SIZE:
                raise ValueError("a row is seven squares wide: %r" % (s,))
        if file != SIZE:
            raise ValueError("a row is seven squares wide: %r" % (s,))
    return board, side


def format_position(board, side):
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        row = ""
        empty = 0
        for file in range(SIZE):
            piece = board.get(rank * SIZE + file)
            if piece is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += piece
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + " " + side


def load_position(position):
    """parse_position, then refuse what the engine refuses: more than one king."""
    board, side = parse_position(position)
    kings = [sq for sq, piece in board.items() if piece == "k"]
    if len(kings) > 1:
        raise ValueError("a position may hold at most one king; this one has %d" % len(kings))
    return board, side


# ---------------------------------------------------------------- movement


def piece_destinations(board, frm, rules):
    """Squares the piece on ``frm`` may slide to."""
    piece = board[frm]
    result = []
    for direction in DIRECTIONS:
        sq = frm
        while True:
            sq = neighbour(sq, direction)
            if sq is None or sq in board:
                break
            if sq == THRONE:
                if piece == "k" and rules["throne_reentry"]:
                    result.append(sq)
                if not rules["throne_pass"]:
                    break  # the empty throne blocks like a piece
                continue
            if sq in CORNERS and piece != "k":
                continue  # only the king stops on a corner
            result.append(sq)
    return result


def pseudo_moves_of(board, side, rules):
    """Every (from, to) the pieces of ``side`` may make, sorted."""
    moves = []
    for frm, piece in board.items():
        if side_of(piece) != side:
            continue
        for to in piece_destinations(board, frm, rules):
            moves.append((frm, to))
    moves.sort()
    return moves


# ---------------------------------------------------------------- capture


def is_hostile(board, sq, victim, rules):
    """Is square ``sq`` hostile to a (non-king) piece of kind ``victim``?"""
    piece = board.get(sq)
    if piece is None:
        if sq in CORNERS:
            return True
        if sq == THRONE:
            return rules["throne_hostile"]
        return False
    if victim == "a":
        return piece == "d" or (piece == "k" and rules["king_armed"])
    # victim is a defender: only an attacker is hostile (the king is a friend)
    return piece == "a"


def king_is_captured(board, king_sq, far_sq, rules):
    """An attacker has just moved next to the king on ``king_sq``;
    ``far_sq`` is the square beyond the king on the mover's line (or None)."""

    def attacker(sq):
        return sq is not None and board.get(sq) == "a"

    def empty_corner(sq):
        return sq is not None and sq in CORNERS and sq not in board

    def empty_throne(sq):
        return sq == THRONE and THRONE not in board

    mode = rules["king_capture"]
    sides = [neighbour(king_sq, direction) for direction in DIRECTIONS]

    if mode == "four":
        if None in sides:
            return False  # the edge never closes
        return all(attacker(sq) or empty_throne(sq) for sq in sides)

    if mode in ("nielsen", "four_two") and king_sq == THRONE:
        return all(attacker(sq) for sq in sides)

    if mode == "nielsen" and THRONE in sides:
        if THRONE in board:
            return False  # a throne that holds a piece does not close
        return all(attacker(sq) for sq in sides if sq != THRONE)

    if mode == "two":
        return (
            attacker(far_sq)
            or empty_corner(far_sq)
            or (empty_throne(far_sq) and rules["throne_hostile"])
        )

    # nielsen elsewhere, four_two off the throne
    return attacker(far_sq) or empty_corner(far_sq)


def captures_on(board, to, rules):
    """Squares captured by the piece that has just arrived on ``to``.

    ``board`` is the board after the piece moved, before anything is removed.
    """
    mover = board[to]
    if mover == "k" and not rules["king_armed"]:
        return []
    captured = []
    for direction in DIRECTIONS:
        n = neighbour(to, direction)
        if n is None or n not in board:
            continue
        f = neighbour(n, direction)
        victim = board[n]
        if mover == "a":
            if victim == "d":
                if f is not None and is_hostile(board, f, "d", rules):
                    captured.append(n)
            elif victim == "k":
                if king_is_captured(board, n, f, rules):
                    captured.append(n)
        else:  # a defender, or the armed king
            if victim == "a":
                if f is not None and is_hostile(board, f, "a", rules):
                    captured.append(n)
    captured.sort()
    return captured


def apply_move(board, frm, to, rules, slides=False):
    """A new board after the move, and the sorted list of captured squares."""
    new_board = dict(board)
    piece = new_board.pop(frm)
    new_board[to] = piece
    if slides:
        return new_board, []
    captured = captures_on(new_board, to, rules)
    for sq in captured:
        del new_board[sq]
    return new_board, captured


# ---------------------------------------------------------------- endings


def is_escape(sq, rules):
    if rules["escape"] == "edge":
        return on_edge(sq)
    return sq in CORNERS


def king_square(board):
    for sq, piece in board.items():
        if piece == "k":
            return sq
    return None


def count_attackers(board):
    return sum(1 for piece in board.values() if piece == "a")


def defenders_encircled(board):
    """True when no defender and not the king stands on the edge or can reach
    it through squares holding no attacker (orthogonal steps)."""
    start = [sq for sq, piece in board.items() if piece in ("d", "k")]
    seen = set(start)
    todo = list(start)
    while todo:
        sq = todo.pop()
        if on_edge(sq):
            return False
        for direction in DIRECTIONS:
            n = neighbour(sq, direction)
            if n is not None and n not in seen and board.get(n) != "a":
                seen.add(n)
                todo.append(n)
    return True


def start_ending(board, side, rules):
    """(outcome, winner) for a position set up, not played into; None if none."""
    king = king_square(board)
    if king is None:
        return "capture", "attackers"
    if is_escape(king, rules):
        return "corner", "defenders"
    if rules["no_pieces"] and count_attackers(board) == 0:
        return "no_pieces", "defenders"
    if not pseudo_moves_of(board, side, rules):
        if rules["no_move"] == "draw":
            return "no_move", None
        return "no_move", SIDE_NAME[other(side)]
    return None


def tree_ending_after_move(new_board, moved_piece, to, king_taken, rules):
    """Does a move end the game in perft's sense (endings 1, 2, 3, 5)?
    (A side left with no move is a leaf by itself: it has no children.)"""
    if moved_piece == "k" and is_escape(to, rules):
        return True
    if king_taken:
        return True
    if rules["no_pieces"] and count_attackers(new_board) == 0:
        return True
    if rules["encirclement"] and defenders_encircled(new_board):
        return True
    return False


# ---------------------------------------------------------------- the game


class RefGame:
    """A game: a position, the moves made from it, and how it ended."""

    def __init__(self, position=SETUP, variant="brandubh"):
        self.rules = make_rules(variant)
        board, side = load_position(position)
        self.board = board
        self.side = side
        self.ply = 0
        self._keys = [format_position(board, side)]  # the position after each ply
        self._captures = []  # the squares each move captured
        self._saved = []  # (board, side, outcome, winner) before each move
        ending = start_ending(board, side, self.rules)
        if ending is None:
            self.outcome, self.winner = "ongoing", None
        else:
            self.outcome, self.winner = ending

    # -- looking

    def position(self):
        return format_position(self.board, self.side)

    def pseudo_moves(self):
        return pseudo_moves_of(self.board, self.side, self.rules)

    def moves(self):
        if self.outcome != "ongoing":
            return []
        return self.pseudo_moves()

    def captures_of(self, frm, to):
        if (frm, to) not in self.pseudo_moves():
            raise ValueError("not a move of the side to move: %r" % ((frm, to),))
        _, captured = apply_move(self.board, frm, to, self.rules)
        return captured

    def repeats(self):
        key = self._keys[-1]
        if self.ply == 0:
            return 1
        count = 0
        for index, seen in enumerate(self._keys):
            if seen != key:
                continue
            if index == 0 and not self.rules["repeat_counts_start"]:
                continue
            count += 1
        return count

    def quiet(self):
        count = 0
        for captured in reversed(self._captures):
            if captured:
                break
            count += 1
        return count

    # -- playing

    def play(self, frm, to):
        if (frm, to) not in self.moves():
            raise ValueError("not a legal move: %r" % ((frm, to),))
        self._saved.append((dict(self.board), self.side, self.outcome, self.winner))
        moved_piece = self.board[frm]
        king_before = king_square(self.board)
        new_board, captured = apply_move(self.board, frm, to, self.rules)
        mover = self.side
        self.board = new_board
        self.side = other(mover)
        self.ply += 1
        self._keys.append(format_position(self.board, self.side))
        self._captures.append(captured)
        king_taken = king_before is not None and king_before in captured
        self.outcome, self.winner = self._judge(mover, moved_piece, to, king_taken)
        return list(captured)

    def undo(self):
        if not self._saved:
            raise ValueError("no move to take back")
        board, side, outcome, winner = self._saved.pop()
        self.board = board
        self.side = side
        self.outcome = outcome
        self.winner = winner
        self.ply -= 1
        self._keys.pop()
        self._captures.pop()

    def _judge(self, mover, moved_piece, to, king_taken):
        rules = self.rules
        to_move = self.side
        # 1. the king's move ended where he escapes
        if moved_piece == "k" and is_escape(to, rules):
            return "corner", "defenders"
        # 2. the move captured the king
        if king_taken:
            return "capture", "attackers"
        # 3. no attacker left
        if rules["no_pieces"] and count_attackers(self.board) == 0:
            return "no_pieces", "defenders"
        # 4. repetition
        if self.repeats() >= rules["repeat"]:
            if rules["repetition"] == "draw":
                return "repetition", None
            return "repetition", SIDE_NAME[to_move]  # the side that just moved loses
        # 5. encirclement
        if rules["encirclement"] and defenders_encircled(self.board):
            return "encircled", "attackers"
        no_move = not self.pseudo_moves()
        # 6. no move, as a draw
        if no_move and rules["no_move"] == "draw":
            return "no_move", None
        # 7. the move limit
        if self.ply >= rules["ply_cap"]:
            return "ply_cap", None
        # 8. the limit of moves without capture
        if rules["quiet_cap"] > 0 and self.quiet() >= rules["quiet_cap"]:
            return "quiet_cap", None
        # 9. no move, as a loss
        if no_move:
            return "no_move", SIDE_NAME[mover]
        return "ongoing", None


# ---------------------------------------------------------------- perft


def _perft(board, side, rules, depth, slides):
    if depth == 0:
        return 1
    moves = pseudo_moves_of(board, side, rules)
    if depth == 1:
        return len(moves)
    total = 0
    for frm, to in moves:
        total += _child_count(board, side, rules, frm, to, depth - 1, slides)
    return total


def _child_count(board, side, rules, frm, to, depth, slides):
    """Leaves ``depth`` plies below the position after the move."""
    if depth == 0:
        return 1  # a leaf, whether or not the move ended the game
    moved_piece = board[frm]
    king_before = king_square(board)
    new_board, captured = apply_move(board, frm, to, rules, slides)
    if not slides:
        king_taken = king_before is not None and king_before in captured
        if tree_ending_after_move(new_board, moved_piece, to, king_taken, rules):
            return 0
    return _perft(new_board, other(side), rules, depth, slides)


def _perft_root(position, variant):
    rules = make_rules(variant)
    board, side = load_position(position)
    return board, side, rules


def perft(position, variant, depth, slides=False):
    """Leaves at exactly ``depth`` plies.  An ended position has no moves."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError("depth must be a whole number >= 0")
    board, side, rules = _perft_root(position, variant)
    if depth == 0:
        return 1
    if not slides and start_ending(board, side, rules) is not None:
        return 0
    return _perft(board, side, rules, depth, slides)


def divide(position, variant, depth, slides=False):
    """{'d1c1': leaves below that move, ...} for every root move."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError("depth must be a whole number >= 1")
    board, side, rules = _perft_root(position, variant)
    if not slides and start_ending(board, side, rules) is not None:
        return {}
    result = {}
    for frm, to in pseudo_moves_of(board, side, rules):
        result[move_name(frm, to)] = _child_count(board, side, rules, frm, to, depth - 1, slides)
    return result

"""A bot that plays random moves, then on turn --at (default 1) plays a
well-written move that is not legal: one of the opponent's pieces, moved
one square to an empty square (or a1b1 if there is none)."""
import _proto


def illegal(bot):
    ref = _proto.ref
    theirs = "d" if bot.side == "a" else "a"
    for frm in sorted(bot.board):
        if ref.side_of(bot.board[frm]) != theirs:
            continue
        for direction in ref.DIRECTIONS:
            to = ref.neighbour(frm, direction)
            if to is not None and to not in bot.board:
                bot.answer(ref.move_name(frm, to))
                return
    bot.answer("a1b1")


if __name__ == "__main__":
    _proto.run(illegal)

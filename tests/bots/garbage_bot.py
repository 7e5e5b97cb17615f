"""A bot that plays random moves, then on turn --at (default 1) answers
--text (default "hello") instead of a move."""
import _proto


def garbage(bot):
    bot.answer(bot.opts["text"])


if __name__ == "__main__":
    _proto.run(garbage)

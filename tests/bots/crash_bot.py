"""A bot that plays random moves, then on turn --at (default 1) raises an
exception and dies with a traceback on stderr (exit status 1)."""
import _proto


def crash(bot):
    raise RuntimeError("crash_bot: crashing on purpose on turn %d" % bot.turn)


if __name__ == "__main__":
    _proto.run(crash)

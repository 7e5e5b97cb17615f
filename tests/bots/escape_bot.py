"""A bot that plays random moves and, on turn --at, leaves a process behind
that no environment mark can find: either through a shell, as
``setsid env -i sh -c 'trap "" TERM HUP; sleep SECONDS' &`` (a new session,
an empty environment, deaf to SIGTERM and SIGHUP, holding the bot's pipes),
or by a double fork into a new session that execs ``sleep`` with an empty
environment (--how fork). SECONDS is --seconds: a test gives a number of
its own (``120.482913``) by which it finds what was left, if anything.
--think SECONDS: a pause before each later answer (a long game)."""
import os
import sys
import time

import _proto


def by_shell(bot):
    os.system("setsid env -i sh -c 'trap \"\" TERM HUP; sleep %s' &" % bot.opts["sleep"])
    time.sleep(0.3)  # the escape made before the game goes on


def by_double_fork(bot):
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() == 0:
            for fd in (0, 1, 2):
                os.close(fd)
            os.execve("/bin/sleep", ["sleep", bot.opts["sleep"]], {})
        os._exit(0)
    os.waitpid(first, 0)


def escape(bot):
    (by_double_fork if bot.opts["how"] == "fork" else by_shell)(bot)
    bot.answer(bot.choose())


if __name__ == "__main__":
    argv = sys.argv[1:]
    extra = {"how": "shell", "sleep": "120", "think": "0"}
    for key in ("--how", "--sleep", "--think"):
        if key in argv:
            i = argv.index(key)
            extra[key[2:]] = argv[i + 1]
            del argv[i:i + 2]
    bot = _proto.Bot(_proto.options(argv))
    bot.opts.update(extra)
    while bot.read() is not None:
        if bot.turn == bot.opts["at"]:
            escape(bot)
            continue
        time.sleep(float(bot.opts["think"]))
        bot.answer(bot.choose())

"""A bot that plays random moves, then on turn --at (default 1) sleeps
--seconds (default 5) before answering. With --child it first starts a
child process (sleep 60) in its own process group and writes the child's
pid on stderr as "child <pid>", so a test can check it is killed too."""
import subprocess
import sys
import time

import _proto


def sleep(bot):
    if bot.opts["child"]:
        child = subprocess.Popen(["sleep", "60"])
        sys.stderr.write("child %d\n" % child.pid)
        sys.stderr.flush()
    time.sleep(bot.opts["seconds"])
    bot.answer(bot.choose())


if __name__ == "__main__":
    _proto.run(sleep)

"""A bot that plays random moves and, on its first turn, leaves a process
behind that escapes its process group: a double fork into a new session
(as a daemon does), which sleeps 60 seconds. It writes the escaped
process's pid on stderr as "child <pid>", so a test can check that it is
ended with the game all the same."""
import os
import sys
import time

import _proto


def daemonise(bot):
    read, write = os.pipe()
    first = os.fork()
    if first == 0:
        os.setsid()
        second = os.fork()
        if second == 0:
            os.close(read)
            os.write(write, str(os.getpid()).encode())
            os.close(write)
            for fd in (0, 1, 2):  # a daemon lets go of the pipes
                os.close(fd)
            time.sleep(60)
            os._exit(0)
        os._exit(0)
    os.close(write)
    os.waitpid(first, 0)
    pid = int(os.read(read, 32).decode())
    os.close(read)
    sys.stderr.write("child %d\n" % pid)
    sys.stderr.flush()
    bot.answer(bot.choose())


if __name__ == "__main__":
    _proto.run(daemonise)

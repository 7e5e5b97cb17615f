"""The event streams of ``brandubh host`` on one thread: a :class:`Fanout`
holds every stream once its first state is sent, so that a watcher holds a
socket, not a thread.

A request for a game's (or the lobby's) events is read and answered by
its connection's thread as any other: the head and the state now. The
connection is then handed to the fan-out (:meth:`Fanout.add`) and its
thread ends, giving its place among the server's connections back. The
fan-out's one thread waits on every stream's socket at once
(:mod:`selectors`): a follower that is sent a state wakes it
(``Follower.notify``), and it writes the state to that stream
without waiting for a slow client (a stream takes its next states only
once it has written the last, so a slow client misses states in between,
never the last one, as before). It reads what a client sends to notice that
it closed the stream, writes a comment line after ``keepalive``
seconds of quiet, closes a stream after the state that ends its game, and
closes a stream whose client has taken nothing for ``stuck`` seconds (a
client that stopped reading).
"""

from __future__ import annotations

import queue
import selectors
import socket
import threading
import time
from typing import Callable

from .hub import Follower

__all__ = ["Fanout", "Watch", "SEND_BUFFER"]

#: The send buffer of an event stream's socket, in bytes (a few states).
SEND_BUFFER = 64 * 1024


def _gone(sock: socket.socket) -> bool:
    """Whether the client has closed (or reset) this connection. Nobody
    reads an event stream's connection, so anything readable on it is the
    client's end, or bytes it sent anyway (and then it is there)."""
    import select

    try:
        if hasattr(select, "poll"):   # any descriptor number, unlike select()
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            if not poller.poll(0):
                return False
        elif not select.select([sock], [], [], 0)[0]:  # pragma: no cover - no poll()
            return False
        return not sock.recv(1, socket.MSG_PEEK)
    except (OSError, ValueError):   # reset, or closed already
        return True


class Watch:
    """One event stream at the fan-out: its socket, its follower, and the
    client (address) it counts against."""

    def __init__(self, sock: socket.socket, follower: Follower, client: str) -> None:
        self.sock = sock
        self.follower = follower
        self.client = client
        self.out = bytearray()     # written to the socket as it takes it
        self.ending = False        # the state that ends the game is in ``out``: close once written
        self.quiet = time.monotonic()
        self.closed = False

    def peer_gone(self) -> bool:
        """Whether its client has closed the stream."""
        return self.closed or _gone(self.sock)


class Fanout:
    """The thread that serves every event stream handed to it. ``closed``
    is told each stream it closes (the server counts the client's streams);
    ``keepalive``: seconds of quiet before a comment line; ``stuck``:
    seconds a client may take nothing before its stream is closed."""

    def __init__(self, closed: Callable[[Watch], None], *, keepalive: float, stuck: float) -> None:
        self._closed = closed
        self.keepalive = keepalive
        self.stuck = stuck
        self._selector = selectors.DefaultSelector()
        self._waker, self._wakee = socket.socketpair()
        self._waker.setblocking(False)
        self._wakee.setblocking(False)
        self._selector.register(self._wakee, selectors.EVENT_READ, None)
        self._lock = threading.Lock()
        self._new: list[Watch] = []
        self._ready: set[Watch] = set()
        self._watches: set[Watch] = set()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="host-fanout", daemon=True)
        self._thread.start()

    def __len__(self) -> int:
        return len(self._watches)

    # -- from other threads ----------------------------------------------------------------

    def add(self, watch: Watch) -> None:
        """Serve this stream from now on (its head and first state sent)."""
        watch.sock.setblocking(False)
        try:
            # A small send buffer, not the kernel's autotuned megabytes: a watcher's newest state is
            # what matters, and thousands of slow watchers must not hold gigabytes of kernel memory.
            watch.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        except OSError:  # pragma: no cover - a system that refuses: its own buffer, then
            pass
        watch.follower.notify = lambda: self._notify(watch)
        with self._lock:
            self._new.append(watch)
        self._wake()

    def _notify(self, watch: Watch) -> None:
        with self._lock:
            self._ready.add(watch)
        self._wake()

    def _wake(self) -> None:
        try:
            self._waker.send(b"\0")
        except OSError:   # its buffer is full: the thread is woken already
            pass

    def stop(self) -> None:
        """Close every stream, and end the thread."""
        with self._lock:
            self._stopping = True
        self._wake()
        self._thread.join(timeout=10)

    # -- the thread ------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while True:
                with self._lock:
                    if self._stopping:
                        break
                    new, self._new = self._new, []
                    ready, self._ready = self._ready, set()
                for watch in new:
                    self._watches.add(watch)
                    self._selector.register(watch.sock, selectors.EVENT_READ, watch)
                    self._take(watch)
                for watch in ready:
                    # A stream's wake-up is set before it is added: a state sent in between wakes the
                    # thread for a stream it does not yet hold. It is taken when the stream comes (its
                    # state waits in its queue), not here, where writing it would meet no registration.
                    if watch in self._watches:
                        self._take(watch)
                now = time.monotonic()
                for watch in list(self._watches):
                    if watch.out and now - watch.quiet >= self.stuck:
                        self._close(watch)   # its client stopped reading
                    elif not watch.out and now - watch.quiet >= self.keepalive:
                        watch.out += b": keep\n\n"
                        self._write(watch)
                waits = [watch.quiet + (self.stuck if watch.out else self.keepalive) for watch in self._watches]
                timeout = max(0.0, min(waits) - time.monotonic()) if waits else None
                for key, mask in self._selector.select(timeout):
                    watch = key.data
                    if watch is None:
                        try:
                            while self._wakee.recv(4096):
                                pass
                        except OSError:
                            pass
                        continue
                    if mask & selectors.EVENT_READ and not watch.closed:
                        try:
                            if not watch.sock.recv(4096):
                                self._close(watch)   # the client closed it: its place is free at once
                                continue
                        except BlockingIOError:
                            pass
                        except OSError:
                            self._close(watch)
                            continue
                    if mask & selectors.EVENT_WRITE and not watch.closed:
                        self._write(watch)
        finally:
            for watch in list(self._watches):
                self._close(watch)
            with self._lock:
                left, self._new = self._new, []
            for watch in left:
                self._close(watch)
            self._selector.close()
            self._waker.close()
            self._wakee.close()

    def _take(self, watch: Watch) -> None:
        """The states waiting for this stream, once it has written the last."""
        if watch.closed or watch.out or watch.ending:
            return
        while True:
            try:
                item = watch.follower.queue.get_nowait()
            except queue.Empty:
                break
            watch.out += b"data: " + item.data + b"\n\n"
            if item.last:
                watch.ending = True
                break
        if watch.out:
            self._write(watch)

    def _write(self, watch: Watch) -> None:
        try:
            sent = watch.sock.send(watch.out)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._close(watch)
            return
        if sent:
            del watch.out[:sent]
            watch.quiet = time.monotonic()
        if watch.out:
            self._selector.modify(watch.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, watch)
            return
        if watch.ending:
            self._close(watch)
            return
        self._selector.modify(watch.sock, selectors.EVENT_READ, watch)
        self._take(watch)   # more came while it was writing

    def _close(self, watch: Watch) -> None:
        if watch.closed:
            return
        watch.closed = True
        self._watches.discard(watch)
        try:
            self._selector.unregister(watch.sock)
        except (KeyError, ValueError):
            pass
        try:
            watch.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        watch.sock.close()
        watch.follower.notify = None
        watch.follower.close()
        self._closed(watch)

"""The HTTP side of ``brandubh serve``: the standard library's
:class:`http.server.ThreadingHTTPServer` in front of :class:`~brandubh.serve.api.Api`
(one person on one machine needs no more). It reads a request, checks its
``Host``, its target, its length and its content type, hands it to the
interface and writes the reply; it listens on the loopback address unless
told otherwise.

What a client may cost it is bounded: a connection waits at most
:data:`IDLE_TIMEOUT` seconds for a request to begin and
:data:`REQUEST_TIMEOUT` for it to arrive whole (and for its answer to be
taken), at most :data:`MAX_CONNECTIONS` connections are served at once
(each with a thread; the next wait in the listen queue, :data:`LISTEN_QUEUE`
long, until one closes), and every answer leaves in one write on a socket
without Nagle's delay.

At the cap, room is made only by a connection that has sent nothing yet
(the one waiting longest), and politely: it is sent a 503 saying why
before it is closed, and a request it sent meanwhile is not carried out.
A connection kept alive after an answer keeps its place until it idles
out, so that a client sending its next request on it, as it may, is never
cut off in the middle; and so that such connections cannot fill the cap,
at most half the places are kept for them: past that, an answer says
``Connection: close``.
"""

from __future__ import annotations

import errno
import io
import ipaddress
import math
import socket
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional, TextIO
from urllib.parse import urlsplit

from ..errors import quote
from .api import DEFAULT_PORT, MAX_BODY, Api, Reply

__all__ = ["Handler", "Server", "host_warning", "IDLE_TIMEOUT", "REQUEST_TIMEOUT", "MAX_CONNECTIONS",
           "LISTEN_QUEUE", "SPARE_DESCRIPTORS"]

#: Seconds a connection may wait for a request to begin, a new one or one
#: kept alive after an answer, before the server closes it: a silent client
#: costs a thread for no longer, and a browser simply opens a new connection.
IDLE_TIMEOUT = 5.0
#: Seconds a request may take to arrive whole once it has begun (its line,
#: headers and body), and an answer to be taken by the client: a client
#: that trickles its request, or never reads its answer, is dropped then.
REQUEST_TIMEOUT = 10.0
#: The most connections served at once, each on a thread of its own (a
#: browser opens six at most to one server). Past it new connections wait,
#: unanswered but not refused, in the listen queue until one closes, which
#: an idle one does within :data:`IDLE_TIMEOUT`.
MAX_CONNECTIONS = 32
#: The listen queue (the socket's backlog): connections the system accepts
#: for the server before it takes them, so that a burst of clients at once
#: (a page's requests, a test's) is not reset.
LISTEN_QUEUE = 128
#: Descriptors left free, beyond those open when the server starts, under a
#: low limit on open files (``ulimit -n``): :data:`MAX_CONNECTIONS` is
#: lowered to fit, so the server never runs out of descriptors to accept with.
SPARE_DESCRIPTORS = 8
#: The methods a request is answered for by the interface (which refuses
#: those a path does not take, 405); any other is a 501.
METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH")
#: Seconds the server waits before accepting again when the system has no
#: descriptor left to give (a limit reached elsewhere in the process):
#: retrying at once would spin a processor and help nothing.
ACCEPT_PAUSE = 0.1


def _busy_answer() -> bytes:
    """The 503 sent to a connection closed to make room before it sent a
    request: whole, so that a client that sends one meanwhile reads why."""
    body = ("503 Service Unavailable: the server is serving as many connections as it may, and closed this one, "
            "which had sent no request yet, to make room: send the request again\n").encode("utf-8")
    head = ["HTTP/1.1 503 Service Unavailable", "Content-Type: text/plain; charset=utf-8",
            f"Content-Length: {len(body)}", "Retry-After: 1", "Connection: close"]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


_BUSY = _busy_answer()


def host_warning(host: str) -> Optional[str]:
    """A warning for a ``--host`` that other machines may reach, or None
    for this machine's own loopback address.

    >>> host_warning('127.0.0.1') is None, host_warning('localhost') is None
    (True, True)
    >>> print(host_warning('0.0.0.0'))
    warning: --host 0.0.0.0 lets other machines reach this server; it has no password, and whoever reaches it can play and read its games
    """
    if _loopback(host):
        return None
    return (f"warning: --host {host} lets other machines reach this server; it has no password, "
            "and whoever reaches it can play and read its games")


def _loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _descriptors_free(wanted: int) -> int:
    """``wanted``, lowered so that that many connections and
    :data:`SPARE_DESCRIPTORS` more fit under the process's limit on open
    files beside those already open (never below 1)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return wanted
        try:
            import os

            open_now = len(os.listdir("/proc/self/fd"))
        except OSError:
            open_now = 16  # no /proc: a guess at what a Python process holds open
    except (ImportError, OSError, ValueError):  # pragma: no cover - Windows has no such limit
        return wanted
    return max(1, min(wanted, soft - open_now - SPARE_DESCRIPTORS))


class _Deadline(io.RawIOBase):
    """A connection's socket, read with a deadline: each read waits no
    later than :attr:`deadline` (a :func:`time.monotonic` time) and then
    raises :class:`TimeoutError`, so that a client that sends a byte now
    and then cannot hold a read open for ever."""

    def __init__(self, sock: socket.socket) -> None:
        super().__init__()
        self._sock = sock
        self.deadline = math.inf

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the time for this read is up")
        self._sock.settimeout(None if left == math.inf else left)
        return self._sock.recv_into(buffer)


class Handler(BaseHTTPRequestHandler):
    """Reads a request, hands it to the server's :class:`Api`, writes the
    reply. Errors of HTTP itself (a request line it cannot read) are a
    plain sentence too; a client that goes away, or takes too long, is let
    go without a trace in the log."""

    server: "Server"
    #: Closed by the server to make room before it sent a request (:meth:`Server._make_room`).
    evicted = False
    server_version = "brandubh"
    error_message_format = "%(code)d %(message)s: %(explain)s\n"
    error_content_type = "text/plain; charset=utf-8"
    protocol_version = "HTTP/1.1"
    # An answer is one write (head and body together): without Nagle's
    # algorithm it leaves at once, instead of waiting for the client's
    # delayed acknowledgement of the one before (40 ms a request kept alive).
    disable_nagle_algorithm = True

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the socket is read through a deadline instead
        self._reader = _Deadline(self.connection)
        self._buffered = io.BufferedReader(self._reader)
        self.rfile = self._buffered

    def handle_one_request(self) -> None:
        """One request on the connection: wait up to the idle timeout for
        it to begin and up to the request timeout for it to arrive whole,
        then answer it."""
        self.close_connection = True  # unless the request asks to keep it (parse_request)
        # What an answer before the request line is read needs (parse_request sets them after).
        self.requestline, self.command, self.request_version = "", "", self.protocol_version
        self._reader.deadline = time.monotonic() + self.server.idle_timeout
        # A connection that has had no answer yet may be closed now to make room for another; one
        # kept alive after an answer keeps its place (the server held one for it then).
        self.server.idle(self, True)
        try:
            # Nothing: the client closed the connection (or the server did, to make room).
            begun = bool(self._buffered.peek(1))
        except OSError:  # idle too long (TimeoutError), or the client went away
            begun = False
        if not self.server.idle(self, False) or not begun:
            return  # closed to make room, and told so, a request that came meanwhile is not carried out
        self._reader.deadline = time.monotonic() + self.server.request_timeout
        try:
            self.raw_requestline = self.rfile.readline(65537)
            if len(self.raw_requestline) > 65536:
                self.send_error(414, "Request line too long", "a request line is 65,536 bytes at most")
                return
            if not self.parse_request():
                return  # parse_request has answered with the reason
            if self.command not in METHODS:
                self.send_error(501, "Unsupported method", f"this server does not answer {self.command}")
                return
            self._answer(self.command)
        except TimeoutError:
            self.close_connection = True
            self.send_error(408, "Request Timeout", f"the request did not arrive whole within "
                                                    f"{self.server.request_timeout:g} seconds")
        except OSError as error:  # the client went away while its request was read
            self.close_connection = True
            self._went_away(error, "in the middle of its request")

    def send_error(self, code: int, message: Optional[str] = None, explain: Optional[str] = None) -> None:
        """The base class's plain-text error, gathered and written in one
        piece under the request timeout like every answer."""
        wfile, self.wfile = self.wfile, io.BytesIO()
        try:
            super().send_error(code, message, explain)
            data = self.wfile.getvalue()
        finally:
            self.wfile = wfile
        self._send(data)

    def _answer(self, method: str) -> None:
        try:
            reply = self._read(method)
            if reply is None:
                return  # the client is gone: nobody to answer
        except Exception:  # the server's own failure: a sentence for the client, the trace for the log
            traceback.print_exc(file=self.server.log)
            reply = Reply.of({"error": "the server failed to answer this request; what went wrong is in "
                                       "its log"}, 500)
        self._write(reply, method)

    def _refuse(self, sentence: str, status: int = 400) -> Reply:
        """A refusal after which the connection is closed: what follows on
        it cannot be trusted to begin where this request ended."""
        self.close_connection = True
        return Reply.of({"error": sentence}, status)

    def _read(self, method: str) -> Optional[Reply]:
        hosts = self.headers.get_all("Host") or []
        if len(hosts) > 1:
            return self._refuse(f"a request names its host once; this one has {len(hosts)} Host headers")
        host = hosts[0] if hosts else ""
        if not self.server.host_ok(host):
            # A page from elsewhere that reaches this server by a name of its
            # own (DNS rebinding) is not answered.
            return self._refuse(f"this server answers requests for {self.server.url} only, not for the host "
                                f"{quote(host)}")
        target = self.path
        if not target.startswith("/") and "://" in target:
            # The absolute form (GET http://host/path), as a proxy is sent: the
            # host it names must be this server too, and the path is what is asked.
            try:
                parts = urlsplit(target)
            except ValueError:  # an address it cannot read, http://[::1 say
                return self._refuse(f"the request target {quote(target)} is not an address this server can read")
            if parts.scheme.lower() != "http" or not self.server.host_ok(parts.netloc):
                return self._refuse(f"this server answers requests for {self.server.url} only, not for "
                                    f"{quote(target)}")
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        length_text = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            return self._refuse("send the body with a Content-Length, not in chunks", 411)
        if len(self.headers.get_all("Content-Length") or []) > 1:
            return self._refuse("a request gives its Content-Length once")
        # Digits only (int() would also take '+5', '5_0' and other scripts' digits).
        digits = length_text.strip(" \t") if length_text is not None else "0"
        length = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 18 else -1
        if length < 0:
            return self._refuse(f"Content-Length must be a number of bytes, not {quote(length_text)}")
        if length > MAX_BODY:
            return self._refuse(f"the request body is {length} bytes; the most read is {MAX_BODY}", 413)
        body = b""
        if length:
            try:
                body = self.rfile.read(length)
            except TimeoutError:
                return self._refuse(f"the request body did not arrive whole: its Content-Length is {length} "
                                    f"bytes, and the rest did not come within {self.server.request_timeout:g} "
                                    "seconds")
            except OSError as error:  # the client went away while sending it
                self.close_connection = True
                self._went_away(error, "in the middle of its request")
                return None
            if len(body) < length:
                return self._refuse(f"the request body is {len(body)} bytes, shorter than its Content-Length "
                                    f"of {length}: the client closed the connection before sending the rest")
        if method == "POST":
            kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return Reply.of({"error": "send the body as JSON, with Content-Type: application/json, not "
                                          f"{quote(kind or 'none')}"}, 415)
        return self._call(method, target, body)

    def _call(self, method: str, target: str, body: bytes) -> Reply:
        """Hand a request read whole and checked to the interface (a
        server with more to say of a request overrides this)."""
        return self.server.api.call(method, target, body)

    def _write(self, reply: Reply, method: str) -> None:
        """The answer in one write, head and body together."""
        self.log_request(reply.status)
        phrase = self.responses.get(reply.status, ("",))[0]
        head = [f"{self.protocol_version} {reply.status} {phrase}",
                f"Server: {self.version_string()}",
                f"Date: {self.date_time_string()}",
                f"Content-Type: {reply.content_type}",
                f"Content-Length: {len(reply.body)}",
                "Cache-Control: no-store",
                "X-Content-Type-Options: nosniff"]
        head += [f"{name}: {value}" for name, value in reply.headers]
        if not self.close_connection and not self.server.keep(self):
            self.close_connection = True  # the places kept for idle connections are taken
        if self.close_connection:
            head.append("Connection: close")
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1")
        if method != "HEAD":
            data += reply.body
        self._send(data)

    def _send(self, data: bytes) -> None:
        """An answer in one write, waiting no longer than the request
        timeout for the client to take it."""
        self.connection.settimeout(self.server.request_timeout)
        try:
            self.connection.sendall(data)
        except OSError as error:  # gone, or not reading its answer (TimeoutError)
            self.close_connection = True
            self._went_away(error)

    def _went_away(self, error: OSError, when: str = "before its answer was written") -> None:
        """A client that closed its connection, or stopped reading, before
        its answer: one line in the log with ``--verbose``, else nothing (a
        browser that leaves a page does this, and it is no fault)."""
        if self.server.verbose:
            self.server.log.write(f"{self.address_string()} - the client went away {when} "
                                  f"({type(error).__name__})\n")

    def finish(self) -> None:
        self.server.idle(self, False)  # the connection ends: whatever place it held is free
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        if self.server.verbose:
            self.server.log.write(f"{self.address_string()} - - [{self.log_date_time_string()}] "
                                  f"{format % args}\n")

    def log_error(self, format: str, *args: Any) -> None:  # noqa: A002
        self.server.log.write(f"{self.address_string()} - {format % args}\n")


class Server(ThreadingHTTPServer):
    """The page and the interface at ``(host, port)``: 127.0.0.1 and
    :data:`DEFAULT_PORT` by default; port 0 takes any free port, and
    :attr:`url` says which. Each connection has a thread of its own, at most
    ``max_connections`` at once (:data:`MAX_CONNECTIONS`, lowered under a
    low limit on open files); ``idle_timeout`` and ``request_timeout``
    (:data:`IDLE_TIMEOUT`, :data:`REQUEST_TIMEOUT`) bound how long a client
    may keep one.

    >>> import http.client, threading
    >>> import json
    >>> server = Server(port=0)
    >>> worker = threading.Thread(target=server.serve_forever, daemon=True)
    >>> worker.start()
    >>> connection = http.client.HTTPConnection('127.0.0.1', server.server_port, timeout=60)
    >>> connection.request('GET', '/api')
    >>> answer = connection.getresponse()
    >>> answer.status, json.load(answer)['sides']
    (200, ['attackers', 'defenders'])
    >>> connection.close(); server.shutdown(); server.server_close()
    """

    daemon_threads = True
    block_on_close = False
    request_queue_size = LISTEN_QUEUE

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT, *, api: Optional[Api] = None,
                 verbose: bool = False, log: Optional[TextIO] = None, idle_timeout: float = IDLE_TIMEOUT,
                 request_timeout: float = REQUEST_TIMEOUT, max_connections: int = MAX_CONNECTIONS) -> None:
        self.api = api if api is not None else Api()
        self.verbose = verbose
        self.log = log if log is not None else sys.stderr
        self.idle_timeout = idle_timeout
        self.request_timeout = request_timeout
        self.max_connections = _descriptors_free(max_connections)
        self._slots = threading.BoundedSemaphore(self.max_connections)
        self._served = 0
        self._count_lock = threading.Lock()
        self._idle: dict[Handler, float] = {}  # connections yet to send a request, since when: may make room
        self._kept: set[Handler] = set()        # connections kept alive after an answer: keep their places
        #: The most connections kept alive, idle, after an answer: half the places.
        self.max_kept = self.max_connections // 2
        self._stopping = threading.Event()
        if ":" in host.strip("[]"):
            self.address_family = socket.AF_INET6
        super().__init__((host.strip("[]"), port), Handler)
        self._names = {f"{name}:{self.server_port}" for name in ("127.0.0.1", "localhost", "[::1]")}
        self._names |= {name.rsplit(":", 1)[0] for name in self._names}
        self._loopback = _loopback(host)

    @property
    def url(self) -> str:
        """The page's address, ``http://127.0.0.1:8421/``."""
        host = str(self.server_address[0])
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.server_port}/"

    def host_ok(self, host: str) -> bool:
        """Whether a request's ``Host`` names this server: any host when it
        listens beyond this machine, only the loopback names when not."""
        if not self._loopback:
            return True
        return host.lower() in self._names

    # -- connections: a bounded number, each on its own thread ----------------------

    @property
    def connections(self) -> int:
        """How many connections are served now, each on a thread of its own
        (never more than ``max_connections``)."""
        with self._count_lock:
            return self._served

    def get_request(self) -> Any:
        """The next connection. With no descriptor left (a limit reached
        elsewhere in the process), wait :data:`ACCEPT_PAUSE` before the
        next try rather than spin: the client waits in the listen queue."""
        try:
            return super().get_request()
        except OSError as error:
            if error.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                self._stopping.wait(ACCEPT_PAUSE)
            raise

    def idle(self, handler: Handler, waiting: bool) -> bool:
        """A connection begins (``waiting``) or ends waiting for a request.
        One that has had no answer yet may be closed meanwhile to make room
        (:meth:`_make_room`); one kept alive after an answer is not. Ending
        the wait: False when the connection was closed to make room
        meanwhile (its request, if one came, is not to be carried out)."""
        with self._count_lock:
            if waiting:
                if handler not in self._kept:
                    self._idle[handler] = time.monotonic()
                return True
            self._kept.discard(handler)
            if handler in self._idle:
                del self._idle[handler]
                return True
            return not getattr(handler, "evicted", False)

    def keep(self, handler: Handler) -> bool:
        """Whether a connection may be kept alive after this answer: it
        then keeps its place until its next request or its idle timeout.
        False once :attr:`max_kept` connections are kept so, and the
        answer says ``Connection: close``."""
        with self._count_lock:
            if handler not in self._kept and len(self._kept) >= self.max_kept:
                return False
            self._kept.add(handler)
            return True

    def _make_room(self) -> None:
        """Close the connection that has waited longest for its first
        request, if any does, telling it why (a 503): its thread ends, and
        a new connection has its place. A browser opens another when it
        needs one. A connection kept alive after an answer is never closed
        so: its client may be sending its next request on it now."""
        with self._count_lock:
            if not self._idle:
                return
            handler = min(self._idle, key=self._idle.__getitem__)
            del self._idle[handler]
            handler.evicted = True
        try:
            handler.connection.send(_BUSY, getattr(socket, "MSG_DONTWAIT", 0))  # a few bytes, an empty buffer
        except OSError:
            pass  # gone already, or not reading: it is closed all the same
        try:
            handler.connection.shutdown(socket.SHUT_RDWR)  # wakes its read with the end of the stream
        except OSError:
            pass  # already closed by the client

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection on a thread of its own once fewer than
        ``max_connections`` are served. At the cap, the connection idle
        longest is closed to make room; with none idle (every one in the
        middle of a request) the new one waits, and the next ones in the
        listen queue."""
        if not self._slots.acquire(blocking=False):
            while True:
                self._make_room()  # one at a time: its place is free as soon as its thread ends
                if self._slots.acquire(timeout=0.1):
                    break
                if self._stopping.is_set():
                    self.shutdown_request(request)
                    return
        # The connection's place among max_connections is given back once:
        # by its thread, or here when the thread never took it (none could be
        # started, or Ctrl-C came before it began). Ctrl-C can also come in
        # start() after the thread has begun, even ended: given back twice,
        # the semaphore's ValueError would take the KeyboardInterrupt's place
        # and the server would serve on. Whichever takes `place` first gives
        # the place back.
        place = threading.Lock()
        thread = threading.Thread(target=self.process_request_thread, args=(request, client_address, place),
                                  daemon=self.daemon_threads)
        try:
            thread.start()
        except BaseException:
            if place.acquire(blocking=False):
                self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any,
                               place: Optional[threading.Lock] = None) -> None:
        if place is not None and not place.acquire(blocking=False):
            return  # given up by process_request, which closes the connection
        with self._count_lock:
            self._served += 1
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._count_lock:
                self._served -= 1
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A failure that escaped a request: a client gone is one line (with
        ``verbose``), anything else the trace, in the server's log."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            if self.verbose:
                self.log.write(f"{client_address[0]} - the connection failed: {type(error).__name__}\n")
            return
        self.log.write(f"{client_address[0]} - the server failed on a connection:\n")
        traceback.print_exc(file=self.log)

    def shutdown(self) -> None:
        self._stopping.set()
        super().shutdown()

    def server_close(self) -> None:
        self._stopping.set()
        super().server_close()

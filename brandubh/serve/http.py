"""The HTTP side of ``brandubh serve``: the standard library's
:class:`http.server.ThreadingHTTPServer` in front of :class:`~brandubh.serve.api.Api`
(one person on one machine needs no more). It reads a request, checks its
``Host``, its length and its content type, hands it to the interface and
writes the reply; it listens on the loopback address unless told otherwise.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional, TextIO

from ..errors import quote
from .api import DEFAULT_PORT, MAX_BODY, Api, Reply

__all__ = ["Handler", "Server", "host_warning"]


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


class Handler(BaseHTTPRequestHandler):
    """Reads a request, hands it to the server's :class:`Api`, writes the
    reply. Errors of HTTP itself (a request line it cannot read) are a
    plain sentence too."""

    server: "Server"
    server_version = "brandubh"
    error_message_format = "%(code)d %(message)s: %(explain)s\n"
    error_content_type = "text/plain; charset=utf-8"
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer("GET")

    def do_HEAD(self) -> None:
        self._answer("HEAD")

    def do_POST(self) -> None:
        self._answer("POST")

    def do_PUT(self) -> None:
        self._answer("PUT")

    def do_DELETE(self) -> None:
        self._answer("DELETE")

    def do_PATCH(self) -> None:
        self._answer("PATCH")

    def _answer(self, method: str) -> None:
        try:
            reply = self._read(method)
        except Exception:  # the server's own failure: a sentence for the client, the trace for the log
            traceback.print_exc(file=self.server.log)
            reply = Reply.of({"error": "the server failed to answer this request; what went wrong is in "
                                       "its log"}, 500)
        self._write(reply, method)

    def _read(self, method: str) -> Reply:
        host = self.headers.get("Host", "")
        if not self.server.host_ok(host):
            # A page from elsewhere that reaches this server by a name of its
            # own (DNS rebinding) is not answered.
            self.close_connection = True
            return Reply.of({"error": f"this server answers requests for {self.server.url} only, not for "
                                      f"the host {quote(host)}"}, 400)
        length_text = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            return Reply.of({"error": "send the body with a Content-Length, not in chunks"}, 411)
        try:
            length = int(length_text) if length_text is not None else 0
        except ValueError:
            length = -1
        if length < 0:
            self.close_connection = True
            return Reply.of({"error": f"Content-Length must be a number of bytes, not {quote(length_text)}"}, 400)
        if length > MAX_BODY:
            self.close_connection = True
            return Reply.of({"error": f"the request body is {length} bytes; the most read is {MAX_BODY}"}, 413)
        body = self.rfile.read(length) if length else b""
        if method == "POST":
            kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return Reply.of({"error": "send the body as JSON, with Content-Type: application/json, not "
                                          f"{quote(kind or 'none')}"}, 415)
        return self.server.api.call(method, self.path, body)

    def _write(self, reply: Reply, method: str) -> None:
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in reply.headers:
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        if self.server.verbose:
            super().log_message(format, *args)

    def log_error(self, format: str, *args: Any) -> None:  # noqa: A002
        self.server.log.write(f"{self.address_string()} - {format % args}\n")


class Server(ThreadingHTTPServer):
    """The page and the interface at ``(host, port)``: 127.0.0.1 and
    :data:`DEFAULT_PORT` by default; port 0 takes any free port, and
    :attr:`url` says which. Each request has a thread of its own.

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

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT, *, api: Optional[Api] = None,
                 verbose: bool = False, log: Optional[TextIO] = None) -> None:
        self.api = api if api is not None else Api()
        self.verbose = verbose
        self.log = log if log is not None else sys.stderr
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

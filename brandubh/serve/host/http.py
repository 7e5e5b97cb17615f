"""The HTTP side of ``brandubh host``: ``brandubh serve``'s hardened server
(:class:`~brandubh.serve.http.Server`: timeouts, a cap on connections, the
``Host`` check, bounded bodies, JSON only) with three things more:

- a seat's token is read from the ``Authorization: Bearer`` header (never
  from the address, so never in a log);
- a request that changes something is refused when its ``Origin`` (or
  ``Sec-Fetch-Site``) says it comes from a page of another site;
- a game's events are one long answer, server-sent events: each change is a
  ``data:`` line holding the game's state, with a comment line every
  :data:`KEEPALIVE` seconds to keep the connection, and the answer ends
  after the state that ends the game. A client may hold at most
  :data:`MAX_STREAMS_PER_CLIENT` of them at once.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Optional, TextIO
from urllib.parse import urlsplit

from ..http import Handler, Server
from ..api import Reply
from .api import HostApi, Stream

__all__ = ["HostServer", "KEEPALIVE", "MAX_STREAMS_PER_CLIENT", "HOST_CONNECTIONS", "DEFAULT_PORT"]

#: The port ``brandubh host`` listens on unless told otherwise.
DEFAULT_PORT = 8422
#: Seconds between the comment lines that keep an event stream open.
KEEPALIVE = 15.0
#: Event streams one client (address) may hold open at once.
MAX_STREAMS_PER_CLIENT = 32
#: Connections served at once (each event stream holds one, and a thread).
HOST_CONNECTIONS = 512


class HostHandler(Handler):
    """serve's :class:`~brandubh.serve.http.Handler`, with the token, the
    origin check and the event streams."""

    server: "HostServer"

    def _call(self, method: str, target: str, body: bytes) -> Any:
        if method not in ("GET", "HEAD"):
            refused = self._cross_site()
            if refused is not None:
                return refused
        token = None
        authorization = self.headers.get("Authorization", "")
        if authorization[:7].lower() == "bearer ":
            token = authorization[7:].strip() or None
        return self.server.host_api.call(method, target, body, token=token, client=self.client_address[0])

    def _cross_site(self) -> Optional[Reply]:
        site = self.headers.get("Sec-Fetch-Site", "").lower()
        origin = self.headers.get("Origin")
        if site == "cross-site" or site == "same-site":
            return Reply.of({"error": "a request from another site's page is refused"}, 403)
        if origin is not None:
            try:
                netloc = urlsplit(origin).netloc
            except ValueError:
                netloc = ""
            if origin == "null" or not netloc or not self.server.host_ok(netloc) or (
                    netloc.lower() != (self.headers.get("Host") or "").lower()):
                return Reply.of({"error": f"a request from the page of {origin[:80]!r} is refused: only this "
                                          "server's own page may act here"}, 403)
        return None

    def _write(self, reply: Any, method: str) -> None:
        if isinstance(reply, Stream):
            self._stream(reply, method)
        else:
            super()._write(reply, method)

    def _stream(self, stream: Stream, method: str) -> None:
        follower = stream.follower
        client = self.client_address[0]
        self.close_connection = True
        if not self.server.stream_opened(client):
            follower.close()
            most = self.server.streams_per_client
            super()._write(Reply.of({"error": f"this client already follows as many games live as it may at once "
                                              f"({most}): close one first"}, 429), method)
            return
        try:
            self.log_request(200)
            head = [f"{self.protocol_version} 200 OK", f"Server: {self.version_string()}",
                    f"Date: {self.date_time_string()}", "Content-Type: text/event-stream; charset=utf-8",
                    "Cache-Control: no-store", "X-Content-Type-Options: nosniff", "Connection: close"]
            data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1")
            if method == "HEAD":
                self._send(data)
                return
            self._send(data + b"retry: 2000\n\ndata: " + stream.first + b"\n\n")
            if self._over(stream.first):
                return
            quiet = 0.0
            while True:
                if self.server.stopping:
                    return
                try:
                    item = follower.queue.get(timeout=0.5)
                except queue.Empty:
                    quiet += 0.5
                    if quiet >= self.server.keepalive:
                        quiet = 0.0
                        if not self._sent(b": keep\n\n"):
                            return
                    continue
                quiet = 0.0
                if not self._sent(b"data: " + item + b"\n\n") or self._over(item):
                    return
        finally:
            follower.close()
            self.server.stream_closed(client)

    def _sent(self, data: bytes) -> bool:
        self.connection.settimeout(self.server.request_timeout)
        try:
            self.connection.sendall(data)
            return True
        except OSError as error:
            self._went_away(error)
            return False

    @staticmethod
    def _over(data: bytes) -> bool:
        return b'"status": "active"' not in data


class HostServer(Server):
    """``brandubh host``'s server: the :class:`~.api.HostApi` at ``(host,
    port)``, on the loopback address unless told otherwise.

    >>> import http.client, json, threading
    >>> from .store import Store
    >>> from .hub import Hub
    >>> server = HostServer(port=0, api=HostApi(Hub(Store(':memory:'))))
    >>> threading.Thread(target=server.serve_forever, daemon=True).start()
    >>> c = http.client.HTTPConnection('127.0.0.1', server.server_port, timeout=60)
    >>> c.request('POST', '/api/host/games', b'{}', {'Content-Type': 'application/json',
    ...           'Origin': 'https://elsewhere.example'})
    >>> answer = c.getresponse(); answer.status, json.load(answer)['error'][:40]
    (403, "a request from the page of 'https://else")
    >>> c.close(); server.shutdown(); server.server_close(); server.api.hub.close()
    """

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT, *, api: HostApi,
                 verbose: bool = False, log: Optional[TextIO] = None, max_connections: int = HOST_CONNECTIONS,
                 keepalive: float = KEEPALIVE, streams_per_client: int = MAX_STREAMS_PER_CLIENT,
                 **kw: Any) -> None:
        self.keepalive = keepalive
        self.streams_per_client = streams_per_client
        self.host_api = api
        self._streams: dict[str, int] = {}
        self._streams_lock = threading.Lock()
        super().__init__(host, port, api=api, verbose=verbose, log=log,  # type: ignore[arg-type]
                         max_connections=max_connections, **kw)
        self.RequestHandlerClass = HostHandler

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def stream_opened(self, client: str) -> bool:
        """Count an event stream opened by ``client``; False past its cap,
        or when the streams would leave too few connections for requests."""
        with self._streams_lock:
            total = sum(self._streams.values())
            if self._streams.get(client, 0) >= self.streams_per_client or total >= self.max_connections - 16:
                return False
            self._streams[client] = self._streams.get(client, 0) + 1
            return True

    def stream_closed(self, client: str) -> None:
        with self._streams_lock:
            left = self._streams.get(client, 1) - 1
            if left:
                self._streams[client] = left
            else:
                self._streams.pop(client, None)

"""The HTTP side of ``brandubh host``: ``brandubh serve``'s hardened server
(:class:`~brandubh.serve.http.Server`: timeouts, a cap on connections, the
``Host`` check, bounded bodies, JSON only) with three things more:

- a seat's token is read from the ``Authorization: Bearer`` header (never
  from the address, so never in a log);
- a request that changes something is refused when its ``Origin`` (or
  ``Sec-Fetch-Site``) says it comes from a page of another site, or of
  another scheme (``https://`` where the server speaks ``http://``);
- a game's (or the lobby's) events are one long answer, server-sent
  events: each change is a ``data:`` line holding the state, with a comment
  line every :data:`KEEPALIVE` seconds to keep the connection, and the
  answer ends after the state that ends the game. Once its head and first
  state are sent, the stream is handed to the server's :class:`~.fanout.Fanout`,
  one thread for every stream, and its connection's thread ends: a watcher
  holds a socket, not a thread, nor a place among the connections. A
  client may hold at most :data:`MAX_STREAMS_PER_CLIENT` of them at once,
  the server :attr:`HostServer.max_streams`; one its client closed is
  noticed at once (the fan-out reads every stream's socket);
- behind a proxy the operator names (:class:`Proxies`, ``--trust-proxy``),
  the client's address, and the scheme and host of the page it acts from,
  are the proxy's word (``X-Forwarded-For``, ``-Proto``, ``-Host``, or
  ``Forwarded``), so that each user has limits of their own; from anyone
  else those headers are ignored.
"""

from __future__ import annotations

import ipaddress
import re
import threading
from typing import Any, Iterable, NamedTuple, Optional, TextIO, Union
from urllib.parse import urlsplit

from ..errors import ArgumentError, quote
from ..serve.http import Handler, Server, _descriptors_free
from ..serve.api import Reply
from .api import HostApi, Stream
from .fanout import Fanout, Watch

__all__ = ["HostServer", "Proxies", "Seen", "KEEPALIVE", "MAX_STREAMS_PER_CLIENT", "HOST_CONNECTIONS",
           "DEFAULT_PORT", "MAX_STREAMS", "STREAM_STUCK", "PROXY_HEADERS"]

#: The port ``brandubh host`` listens on unless told otherwise.
DEFAULT_PORT = 8422
#: Seconds between the comment lines that keep an event stream open.
KEEPALIVE = 15.0
#: Event streams one client (address) may hold open at once.
MAX_STREAMS_PER_CLIENT = 32
#: Connections served at once, each on a thread (an event stream only
#: until its first state is sent: the fan-out holds it after).
HOST_CONNECTIONS = 512
#: Event streams held at once, all clients together (fewer under a low
#: limit on open files: each is a socket).
MAX_STREAMS = 20_000
#: Seconds a stream's client may take none of what is written to it before
#: the stream is closed (a client that stopped reading).
STREAM_STUCK = 30.0
#: The headers a proxy may write (``--proxy-header``): ``x-forwarded`` is
#: X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host; ``forwarded``
#: is the standard Forwarded header (RFC 7239) with its for, proto and host.
PROXY_HEADERS = ("x-forwarded", "forwarded")
_ADDRESS = re.compile(r"\[([^\]]*)\](?::\d+)?|([^:]*)(?::\d+)?")


def _address(text: str) -> Optional[str]:
    """The address a proxy wrote for a hop (``203.0.113.5``,
    ``"[2001:db8::1]:4711"``, ``192.0.2.1:80``), or None for anything else
    (``unknown``, an obfuscated name)."""
    m = _ADDRESS.fullmatch(text.strip().strip('"'))
    if m is None:
        return None
    try:
        return str(ipaddress.ip_address(m.group(1) if m.group(1) is not None else m.group(2)))
    except ValueError:
        return None


class Seen(NamedTuple):
    """Who a request comes from, as far as the server may believe: the
    client's ``address``, and the ``scheme`` and ``host`` of the page it
    was sent from (``host`` None: the request's own ``Host``)."""

    address: str
    scheme: str
    host: Optional[str]


class Proxies:
    """The proxies whose word the server takes for who the client is:
    ``addresses``, each an address or a network (``127.0.0.1``,
    ``10.0.0.0/8``, ``::1``; several in one with commas), as uvicorn's
    ``--forwarded-allow-ips``; and the ``header`` they write (one of
    :data:`PROXY_HEADERS`: the other is a client's, and not believed). None
    by default: every header is ignored, and the client is the connection's
    address.

    >>> proxies = Proxies(['127.0.0.1'])
    >>> proxies.seen('127.0.0.1', {'X-Forwarded-For': ['192.0.2.1, 203.0.113.5'], 'X-Forwarded-Proto': ['https']})
    Seen(address='203.0.113.5', scheme='https', host=None)
    >>> proxies.seen('198.51.100.1', {'X-Forwarded-For': ['203.0.113.5']})
    Seen(address='198.51.100.1', scheme='http', host=None)
    >>> Proxies(['proxy.local'])
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: --trust-proxy takes an address or a network (127.0.0.1, 10.0.0.0/8, ::1), not 'proxy.local'
    """

    def __init__(self, addresses: Iterable[str] = (), header: str = PROXY_HEADERS[0]) -> None:
        self.networks: list[Union[ipaddress.IPv4Network, ipaddress.IPv6Network]] = []
        for given in addresses:
            for part in str(given).split(","):
                if not part.strip():
                    continue
                try:
                    self.networks.append(ipaddress.ip_network(part.strip(), strict=False))
                except ValueError:
                    raise ArgumentError(f"--trust-proxy takes an address or a network (127.0.0.1, 10.0.0.0/8, ::1), "
                                        f"not {quote(part.strip())}") from None
        if header not in PROXY_HEADERS:
            raise ArgumentError(f"a proxy's header is {' or '.join(PROXY_HEADERS)}, not {quote(header)}")
        self.header = header

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, address: str) -> bool:
        """Whether ``address`` is one of the proxies named."""
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if ip.version == 6 and ip.ipv4_mapped is not None:   # ::ffff:127.0.0.1 on a socket of both families
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)

    def seen(self, peer: str, headers: Any) -> Seen:
        """Who a request from ``peer`` with ``headers`` (anything with
        ``get_all``, or a dict of lists) comes from. From a proxy named,
        the client is the hop nearest the server that is not one of the
        proxies (read from the right: what a client wrote itself before
        the proxy's entry is not believed), and the scheme and host are
        those the nearest proxy wrote; from anyone else, the peer itself."""
        if not self.trusts(peer):
            return Seen(peer, "http", None)

        def values(name: str) -> list[str]:
            found = headers.get_all(name) if hasattr(headers, "get_all") else headers.get(name)
            return [part.strip() for value in (found or []) for part in str(value)[:4096].split(",")
                    if part.strip()]

        if self.header == "forwarded":
            elements = []
            for element in values("Forwarded"):
                pairs = {}
                for pair in element.split(";"):
                    key, _, value = pair.partition("=")
                    pairs[key.strip().lower()] = value.strip().strip('"')
                elements.append(pairs)
            hops = [pairs["for"] for pairs in elements if "for" in pairs]
            last = elements[-1] if elements else {}
            scheme, host = last.get("proto"), last.get("host")
        else:
            hops = values("X-Forwarded-For")
            schemes, hosts = values("X-Forwarded-Proto"), values("X-Forwarded-Host")
            scheme = schemes[-1] if schemes else None
            host = hosts[-1] if hosts else None
        client = peer
        for hop in reversed(hops):
            address = _address(hop)
            if address is None:
                break   # a hop the proxy could not name: the last one it could is the client
            client = address
            if not self.trusts(address):
                break
        scheme = scheme.lower() if scheme and scheme.lower() in ("http", "https") else "http"
        return Seen(client, scheme, host[:255] if host else None)


class HostHandler(Handler):
    """serve's :class:`~brandubh.serve.http.Handler`, with the token, the
    origin check and the event streams."""

    server: "HostServer"

    def seen(self) -> Seen:
        """Who this request comes from (through a proxy named, the proxy's word)."""
        headers = getattr(self, "headers", None)
        peer = str(self.client_address[0])
        return self.server.proxies.seen(peer, headers) if headers is not None else Seen(peer, "http", None)

    def address_string(self) -> str:
        return self.seen().address   # the log names the client, not its proxy

    def _call(self, method: str, target: str, body: bytes) -> Any:
        seen = self.seen()
        if method not in ("GET", "HEAD"):
            refused = self._cross_site(seen)
            if refused is not None:
                return refused
        token = None
        authorization = self.headers.get("Authorization", "")
        if authorization[:7].lower() == "bearer ":
            token = authorization[7:].strip() or None
        return self.server.host_api.call(method, target, body, token=token, client=seen.address,
                                         session=self.session_cookie(), secure=seen.scheme == "https")

    def session_cookie(self) -> Optional[str]:
        """The club's session token from the ``Cookie`` header, or None."""
        from http.cookies import CookieError, SimpleCookie

        from .accounts import COOKIE

        for header in self.headers.get_all("Cookie") or []:
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(str(header)[:4096])
            except CookieError:
                continue
            if COOKIE in jar and jar[COOKIE].value:
                return jar[COOKIE].value
        return None

    def _cross_site(self, seen: Seen) -> Optional[Reply]:
        site = self.headers.get("Sec-Fetch-Site", "").lower()
        origin = self.headers.get("Origin")
        if site == "cross-site" or site == "same-site":
            return Reply.of({"error": "a request from another site's page is refused"}, 403)
        if origin is not None:
            try:
                parts = urlsplit(origin)
                scheme, netloc = parts.scheme.lower(), parts.netloc.lower()
            except ValueError:
                scheme = netloc = ""
            # The page this server sent: its scheme is http, or what a proxy named says; its host is
            # the request's Host, or what a proxy named says.
            host = (seen.host or self.headers.get("Host") or "").lower()
            if origin == "null" or not netloc or netloc != host or scheme != seen.scheme or (
                    seen.host is None and not self.server.host_ok(netloc)):
                return Reply.of({"error": f"a request from the page of {origin[:80]!r} is refused: only this "
                                          f"server's own page ({seen.scheme}://{host[:80]}) may act here"}, 403)
        return None

    def _write(self, reply: Any, method: str) -> None:
        if isinstance(reply, Stream):
            self._stream(reply, method)
        else:
            super()._write(reply, method)

    def _stream(self, stream: Stream, method: str) -> None:
        follower = stream.follower
        client = self.seen().address
        self.close_connection = True
        watch = Watch(self.connection, follower, client)
        if not self.server.stream_opened(client, watch):
            follower.close()
            most = self.server.streams_per_client
            super()._write(Reply.of({"error": f"this client already follows as many games live as it may at once "
                                              f"({most}): close one first"}, 429), method)
            return
        handed = False
        try:
            self.log_request(200)
            head = [f"{self.protocol_version} 200 OK", f"Server: {self.version_string()}",
                    f"Date: {self.date_time_string()}", "Content-Type: text/event-stream; charset=utf-8",
                    "Cache-Control: no-store", "X-Content-Type-Options: nosniff", "Connection: close"]
            data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1")
            if method == "HEAD":
                self._send(data)
                return
            if not self._sent(data + b"retry: 2000\n\ndata: " + stream.first.data + b"\n\n") or stream.first.last:
                return
            handed = self.server.hand_over(watch)
        finally:
            if not handed:
                follower.close()
                self.server.stream_closed(client, watch)

    def _sent(self, data: bytes) -> bool:
        self.connection.settimeout(self.server.request_timeout)
        try:
            self.connection.sendall(data)
            return True
        except OSError as error:
            self._went_away(error)
            return False


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
                 trusted_proxies: Iterable[str] = (), proxy_header: str = PROXY_HEADERS[0],
                 stream_stuck: float = STREAM_STUCK, **kw: Any) -> None:
        self.keepalive = keepalive
        self.streams_per_client = streams_per_client
        self.host_api = api
        self.proxies = Proxies(trusted_proxies, proxy_header)
        self._streams: dict[str, set[Watch]] = {}   # client to its event streams open
        self._streams_lock = threading.Lock()
        self._handed: set[Any] = set()   # sockets the fan-out holds: not closed when their thread ends
        super().__init__(host, port, api=api, verbose=verbose, log=log,  # type: ignore[arg-type]
                         max_connections=max_connections, **kw)
        self.RequestHandlerClass = HostHandler
        #: The most event streams held at once, all clients together.
        self.max_streams = max(16, _descriptors_free(MAX_STREAMS + self.max_connections) - self.max_connections)
        self.fanout = Fanout(lambda watch: self.stream_closed(watch.client, watch), keepalive=keepalive,
                             stuck=stream_stuck)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    @property
    def streams_open(self) -> int:
        """How many event streams are counted open now, all clients together."""
        with self._streams_lock:
            return sum(len(held) for held in self._streams.values())

    def hand_over(self, watch: Watch) -> bool:
        """Give a stream (its head and first state sent) to the fan-out;
        its connection's thread may end without closing it."""
        if self.stopping:
            return False
        with self._streams_lock:
            self._handed.add(watch.sock)
        self.fanout.add(watch)
        return True

    def shutdown_request(self, request: Any) -> None:
        with self._streams_lock:
            if request in self._handed:
                self._handed.discard(request)
                return   # the fan-out holds it, and closes it
        super().shutdown_request(request)

    def server_close(self) -> None:
        super().server_close()
        self.fanout.stop()

    def stream_opened(self, client: str, handler: Watch) -> bool:
        """Count an event stream opened by ``client``; False past its cap,
        or past the server's. At its cap, the client's streams whose
        connections it has closed (a page reloaded, a program reconnecting)
        give their places back first, without waiting for the fan-out to
        notice."""
        with self._streams_lock:
            held = self._streams.setdefault(client, set())
            if len(held) >= self.streams_per_client:
                # Under the lock a stream's connection is still open: it is closed only after
                # stream_closed, which waits for the lock.
                held -= {other for other in held if other.peer_gone()}
            total = sum(len(them) for them in self._streams.values())
            if len(held) >= self.streams_per_client or total >= self.max_streams:
                if not held:
                    del self._streams[client]
                return False
            held.add(handler)
            return True

    def stream_closed(self, client: str, handler: Watch) -> None:
        with self._streams_lock:
            held = self._streams.get(client)
            if held is not None:
                held.discard(handler)
                if not held:
                    del self._streams[client]

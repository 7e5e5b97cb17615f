"""``brandubh host``'s HTTP side holds nothing and trusts no one by
default: an event stream closed by its client gives its place back at once,
a proxy's word for who the client is and what the page's scheme was is
taken only from a proxy the operator named (``--trust-proxy``), and the
``Origin`` check compares schemes too. Each test speaks to a real server on
a free port of 127.0.0.1; no test asserts a time."""

from __future__ import annotations

import http.client
import json
import threading
import time

import pytest

from conftest import PATIENCE, wait_until

from brandubh.host.api import HostApi
from brandubh.host.http import HostServer
from brandubh.host.hub import Hub
from brandubh.host.store import Store




@pytest.fixture
def serve():
    started = []

    def make(hub_kw=None, **kw) -> HostServer:
        server = HostServer(port=0, api=HostApi(Hub(Store(":memory:"), seed="http", **(hub_kw or {}))), **kw)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.shutdown()
        server.server_close()
        server.api.hub.close()


def ask(server, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=PATIENCE)
    sent = {"Content-Type": "application/json"} if method == "POST" else {}
    sent.update(headers or {})
    connection.request(method, path, json.dumps(body).encode() if body is not None else None, sent)
    answer = connection.getresponse()
    payload = json.loads(answer.read())
    connection.close()
    return answer.status, payload


# -- 6. an event stream closed gives its place back ---------------------------------------------


def test_event_streams_closed_by_their_client_free_their_places_at_once(serve):
    # No keep-alive comment for an hour: only noticing the close frees a place.
    server = serve(keepalive=3600.0)
    _, made = ask(server, "POST", "/api/host/games", {})
    path = f"/api/host/games/{made['id']}/events"
    for number in range(server.streams_per_client + 8):   # quick reconnects, more than a client may hold
        connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=PATIENCE)
        connection.request("GET", path)
        answer = connection.getresponse()
        assert answer.status == 200, (number, answer.read())
        assert answer.readline().startswith(b"retry:")
        answer.close()   # (the answer holds the socket open too)
        connection.close()
    # And with no reconnect to notice them, every place comes back all the same.
    assert wait_until(lambda: server.streams_open == 0), server.streams_open


def test_the_event_stream_of_a_game_ends_with_the_state_that_ends_it(serve):
    # The game says when it is over: the stream sends that state last and closes, for a
    # follower who was there and for one who comes after. (No keep-alive comment for an hour: a
    # stream that did not end would time out the read, not be kept open by them.)
    server = serve(keepalive=3600.0)
    _, made = ask(server, "POST", "/api/host/games", {"side": "attackers"})
    path = f"/api/host/games/{made['id']}"
    connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=PATIENCE)
    connection.request("GET", path + "/events")
    live = connection.getresponse()
    assert live.status == 200 and live.readline().startswith(b"retry:")
    status, _ = ask(server, "POST", path + "/resign", {}, {"Authorization": f"Bearer {made['token']}"})
    assert status == 200
    states = [json.loads(line[5:]) for line in live.read().splitlines() if line.startswith(b"data:")]
    assert [s["status"] for s in states] == ["active", "finished"]
    connection.close()
    late = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=PATIENCE)
    late.request("GET", path + "/events")
    sent = late.getresponse().read()   # read to its end: the stream closes after the one state
    assert [json.loads(line[5:])["status"] for line in sent.splitlines() if line.startswith(b"data:")] == ["finished"]
    late.close()


# -- 7. the client's address through a proxy, only one the operator named ----------------------


def _make_game(server, headers):
    return ask(server, "POST", "/api/host/games", {}, headers)[0]


def test_a_proxys_header_is_ignored_unless_the_proxy_is_named(serve):
    server = serve(hub_kw={"rate": 0.001, "burst": 2})
    # Anyone may send the header: without --trust-proxy it names no one, and every request here is
    # the loopback's, which has two at once.
    answers = [_make_game(server, {"X-Forwarded-For": f"203.0.113.{i}", "Forwarded": f"for=198.51.100.{i}"})
               for i in range(3)]
    assert answers == [201, 201, 429]


def test_a_named_proxy_says_who_the_client_is(serve):
    server = serve(hub_kw={"rate": 0.001, "burst": 2}, trusted_proxies=["127.0.0.0/8"])
    # Each user behind the proxy has limits of their own ...
    assert [_make_game(server, {"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(5)] == [201] * 5
    # ... taken from the right: what a client wrote itself before the proxy's own entry is not believed.
    forged = [_make_game(server, {"X-Forwarded-For": f"192.0.2.{i}, 198.51.100.7"}) for i in range(3)]
    assert forged == [201, 201, 429]
    # A request with no header is the proxy's own.
    assert [_make_game(server, {}) for _ in range(3)] == [201, 201, 429]


def test_a_named_proxy_that_writes_forwarded_is_read_so_and_only_so(serve):
    server = serve(hub_kw={"rate": 0.001, "burst": 2}, trusted_proxies=["127.0.0.1"], proxy_header="forwarded")
    sent = [{"Forwarded": f'for="[2001:db8::{i}]:4711";proto=https'} for i in range(1, 5)]
    assert [_make_game(server, headers) for headers in sent] == [201] * 4
    # X-Forwarded-For, which this proxy does not write, is a client's word: not believed.
    assert [_make_game(server, {"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(3)] == [201, 201, 429]


def test_trust_proxy_at_the_command(tmp_path):
    from brandubh.cli import build_parser, main

    parser = build_parser()
    text = next(a for a in parser._subparsers._group_actions[0].choices.items() if a[0] == "host")[1].format_help()
    assert "--trust-proxy ADDR" in " ".join(text.split())
    # A proxy that is no address is refused before the server starts, with a sentence.
    assert main(["host", "--port", "0", "--db", str(tmp_path / "g.sqlite"), "--trust-proxy", "my-proxy"]) == 2
    assert not (tmp_path / "g.sqlite").exists()


# -- 11. the Origin check compares schemes ---------------------------------------------------------


def test_the_origin_check_compares_the_scheme(serve):
    server = serve()
    here = f"127.0.0.1:{server.server_port}"
    assert _make_game(server, {"Origin": f"http://{here}"}) == 201
    status, answer = ask(server, "POST", "/api/host/games", {}, {"Origin": f"https://{here}"})
    assert status == 403 and "https://" in answer["error"]
    # What a proxy not named says of the scheme is not believed either.
    assert _make_game(server, {"Origin": f"https://{here}", "X-Forwarded-Proto": "https"}) == 403


def test_behind_a_named_https_proxy_its_page_may_act_and_a_plain_one_may_not(serve):
    server = serve(trusted_proxies=["127.0.0.1"])
    proxied = {"X-Forwarded-For": "203.0.113.5", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "games.example"}
    assert _make_game(server, {**proxied, "Origin": "https://games.example"}) == 201
    assert _make_game(server, {**proxied, "Origin": "http://games.example"}) == 403
    assert _make_game(server, {**proxied, "Origin": "https://evil.example"}) == 403


def test_an_event_stream_holds_no_thread_nor_a_connections_place_once_its_first_state_is_sent(serve):
    # More streams than the server has places for connections: each is handed to the fan-out.
    server = serve(max_connections=8, streams_per_client=64, keepalive=3600.0)
    _, made = ask(server, "POST", "/api/host/games", {"side": "attackers"})
    path = f"/api/host/games/{made['id']}"
    streams = []
    for _ in range(24):
        connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=PATIENCE)
        connection.request("GET", path + "/events")
        answer = connection.getresponse()
        assert answer.status == 200 and answer.readline().startswith(b"retry:")
        streams.append((connection, answer))
    assert wait_until(lambda: server.connections == 0 and len(server.fanout) == 24), (server.connections,
                                                                                    len(server.fanout))
    assert server.streams_open == 24
    # Every stream is still sent each change, and its last state ends it.
    assert ask(server, "POST", path + "/resign", {}, {"Authorization": f"Bearer {made['token']}"})[0] == 200
    for connection, answer in streams:
        states = [json.loads(line[5:]) for line in answer.read().splitlines() if line.startswith(b"data:")]
        assert [s["status"] for s in states] == ["active", "finished"]
        connection.close()
    assert wait_until(lambda: server.streams_open == 0 and len(server.fanout) == 0)


def test_a_stream_whose_client_stopped_reading_is_closed_and_holds_up_no_one(serve):
    import socket

    server = serve(keepalive=3600.0, stream_stuck=1.0)
    _, made = ask(server, "POST", "/api/host/games", {"side": "attackers"})
    path = f"/api/host/games/{made['id']}"
    # A client that asks for the events, then never reads a byte.
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", server.server_port))
    stuck.sendall(f"GET {path}/events HTTP/1.1\r\nHost: 127.0.0.1:{server.server_port}\r\n\r\n".encode())
    reader = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=PATIENCE)
    reader.request("GET", path + "/events")
    live = reader.getresponse()
    states: list = []

    def read() -> None:   # a client that reads all the while
        for line in live:
            if line.startswith(b"data:"):
                states.append(json.loads(line[5:]))

    reading = threading.Thread(target=read, daemon=True)
    reading.start()
    assert wait_until(lambda: server.streams_open == 2)
    attackers, defenders = {"Authorization": f"Bearer {made['token']}"}, {"Authorization": f"Bearer {made['invite_token']}"}
    # Changes until the stuck client's buffers are full and it has taken nothing for a second: closed.
    changes = 0
    while server.streams_open == 2 and changes < 400:
        ask(server, "POST", path + "/draw-offer", {}, attackers)
        ask(server, "POST", path + "/draw-decline", {}, defenders)
        changes += 2
        if changes % 40 == 0:
            time.sleep(1.2)
    assert wait_until(lambda: server.streams_open == 1), changes
    # The client that reads is still sent each change, to the end.
    assert ask(server, "POST", path + "/resign", {}, attackers)[0] == 200
    reading.join(PATIENCE)
    assert states[-1]["status"] == "finished"
    reader.close()
    stuck.close()


def test_a_state_sent_while_a_stream_is_handed_to_the_fanout_is_written_and_the_fanout_lives_on():
    # The follower's wake-up is set before the fan-out has the stream: a state sent in between made the
    # fan-out's thread take a stream it had not yet registered, and die (every stream then stood still).
    # The test sends the state right there, and lets the thread take its wake-up before the stream is added.
    import socket

    from brandubh.host.fanout import Fanout, Watch
    from brandubh.host.hub import Follower, Sent

    class NoHub:
        def _unfollow(self, follower: Follower) -> None:
            pass

    fanout = Fanout(lambda watch: None, keepalive=PATIENCE, stuck=PATIENCE)

    class Handed(Follower):
        """A follower sent a state as the fan-out sets its wake-up."""

        @property  # type: ignore[override]
        def notify(self):
            return self._wake

        @notify.setter
        def notify(self, wake) -> None:
            self._wake = wake
            if wake is not None and self.queue.empty():
                self.put(Sent(b'{"n": 1}', last=False))
                assert wait_until(lambda: not fanout._ready)   # the thread has taken the wake-up

    ours, theirs = socket.socketpair()
    try:
        fanout.add(Watch(ours, Handed(NoHub(), "g"), "192.0.2.1"))   # type: ignore[arg-type]
        theirs.settimeout(PATIENCE)
        assert theirs.recv(100) == b'data: {"n": 1}\n\n'
        watch_follower = next(iter(fanout._watches)).follower
        watch_follower.put(Sent(b'{"n": 2}', last=False))   # and the streams go on
        assert theirs.recv(100) == b'data: {"n": 2}\n\n'
        assert fanout._thread.is_alive()
    finally:
        fanout.stop()
        theirs.close()

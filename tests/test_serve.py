"""``brandubh serve``'s JSON interface, spoken to over HTTP as the page
speaks to it: a real server on a free port of 127.0.0.1, requests written
out with http.client (which sends a path exactly as given), answers checked
against positions and sentences written here by hand."""

from __future__ import annotations

import http.client
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from brandubh import Bot, Game
from brandubh.cli import main
from brandubh.serve import DEFAULT_PORT, MAX_LEVEL, Api, Server, host_warning, read_games

from conftest import run_page

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
SETUP_PIECES = {"d1": "attacker", "d2": "attacker", "d3": "defender", "a4": "attacker", "b4": "attacker",
                "c4": "defender", "d4": "king", "e4": "defender", "f4": "attacker", "g4": "attacker",
                "d5": "defender", "d6": "attacker", "d7": "attacker"}
# A brandubh match --games-out file, written here: two games, each after a '#' line.
TWO_GAMES = """\
# game 1: A attackers, B defenders: corner; B wins (defenders), 4 moves
variant brandubh
start 7/7/7/3k3/7/7/a6 d
moves d4d1 a1a2 d1g1

# game 2: one capture
variant brandubh
start 7/7/7/3k3/2ad3/7/4a2 a
moves e1e3
"""


class Client:
    """Requests to one server, one connection each (so a refused
    connection or a closed one does not spoil the next)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.host, self.port = "127.0.0.1", server.server_port

    def raw(self, method: str, path: str, body: bytes = b"", headers: dict | None = None):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            sent = {"Content-Type": "application/json"} if method == "POST" else {}
            sent.update(headers or {})
            conn.request(method, path, body=body if method != "GET" else None, headers=sent)
            answer = conn.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()
        finally:
            conn.close()

    def __call__(self, method: str, path: str, payload=None, **kw):
        body = b"" if payload is None else json.dumps(payload).encode()
        status, headers, data = self.raw(method, path, body, **kw)
        assert headers["Content-Type"].startswith("application/json"), (path, headers)
        return status, json.loads(data)

    def new(self, **fields):
        status, state = self("POST", "/api/games", {"level": 1, **fields})
        assert status == 201, state
        return state


@pytest.fixture(scope="module")
def running():
    log = io.StringIO()
    server = Server(port=0, api=Api(seed="tests"), log=log)
    worker = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    worker.start()
    yield server
    server.shutdown()
    server.server_close()
    worker.join(timeout=60)


@pytest.fixture
def ask(running):
    return Client(running)


def pieces_drawn(svg: str) -> dict[str, str]:
    """What the picture shows standing on each square, read from its shapes."""
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter(SVG + "g"):
        words = g.get("class", "").split()
        if words and words[0] == "piece":
            out[words[2]] = words[1]
    return out


# -- the page ------------------------------------------------------------------------


def test_the_page_is_served_whole_and_loads_nothing_from_elsewhere(ask):
    status, headers, body = ask.raw("GET", "/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    page = body.decode()
    assert page.startswith("<!DOCTYPE html>") and "<script>" in page and "<style>" in page
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert "connect-src 'self'" in headers["Content-Security-Policy"]
    # No address but the SVG namespace's, which names and loads nothing.
    assert page.count("http") == page.count("http://www.w3.org/2000/svg")
    assert " src=" not in page and "@import" not in page
    # One link, the icon, inline: the page asks for nothing else (nor /favicon.ico).
    assert re.findall(r"<link[^>]*>", page) == [re.search(r'<link rel="icon" type="image/svg\+xml" href="data:[^"]*">',
                                                          page).group()]
    assert body == (ROOT / "brandubh" / "serve" / "page.html").read_bytes()
    status, headers, body = ask.raw("HEAD", "/")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 5000


@pytest.mark.parametrize("path", [
    "/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd",
    "//etc/passwd", "/etc/passwd", "/serve/page.html", "/page.html", "/data/serve.html", "/serve.html", "/index.html", "/brandubh/serve.py",
    "/serve.py", "/api/../serve.py", "/api/games/../../../../etc/passwd", "/api/games/%2e%2e%2fserve.py/text",
    "/api/games/0123456789ab/../../../pyproject.toml", "/README.md", "/.git/config", "/C:/Windows/win.ini",
    "/%00", "/api/%2e%2e",
])
def test_no_file_but_the_page_is_served(ask, path):
    status, headers, body = ask.raw("GET", path)
    assert status == 404, (path, status)
    error = json.loads(body)["error"]
    assert error.startswith("nothing at") or error.startswith("no game"), error
    for inside in (b"root:", b"import ", b"<html", b"[core]", b"[project]", b"Traceback"):
        assert inside not in body, (path, inside)


def test_a_request_line_without_a_leading_slash_gets_nothing(running):
    for line in (b"GET ../../etc/passwd HTTP/1.1", b"GET serve.html HTTP/1.1", b"BREW / HTTP/1.1",
                 b"GET / HTTP/9.9", b"no request at all"):
        with socket.create_connection(("127.0.0.1", running.server_port), timeout=60) as s:
            s.sendall(line + b"\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        if data.startswith(b"HTTP/"):
            head, _, body = data.partition(b"\r\n\r\n")
            status = int(head.split()[1])
        else:  # a request line it cannot read is answered as HTTP/0.9 is: the body alone
            head, body = b"", data
            status = int(body.split()[0])
        assert status in (400, 404, 405, 501, 505), (line, head)
        assert b"root:" not in body and b"<html" not in body.lower() and b"Traceback" not in body, (line, body)
        assert len(body.strip()) > 10, (line, body)


# -- playing ---------------------------------------------------------------------------


def test_a_new_game_shows_the_setup_and_the_legal_targets(ask):
    state = ask.new(side="attackers")
    assert state["mode"] == "play" and state["you"] == "attackers" and state["your_turn"]
    assert state["ply"] == 0 and state["status"] == "active" and not state["engine_to_move"]
    assert state["pieces"] == SETUP_PIECES
    assert pieces_drawn(state["board"]) == SETUP_PIECES
    assert len(state["legal"]) == 40  # perft 1 from the set-up
    assert sorted(m["to"] for m in state["legal"] if m["from"] == "d2") == ["a2", "b2", "c2", "e2", "f2", "g2"]
    assert state["text"] == "variant brandubh\nmoves\n"


def test_a_move_then_the_engines_reply(ask):
    state = ask.new(side="attackers")
    game_id = state["id"]
    status, state = ask("POST", f"/api/games/{game_id}/move", {"move": "d2-c2"})
    assert status == 200 and state["ply"] == 1 and state["said"] == "You play d2-c2."
    assert state["engine_to_move"] and not state["your_turn"] and state["legal"] == []
    assert state["last"] == {"move": "d2c2", "shown": "d2-c2", "captured": []}
    # The engine may not be hurried by a second move of the person's.
    status, refused = ask("POST", f"/api/games/{game_id}/move", {"move": "c2b2"})
    assert status == 409 and refused["code"] == "not_your_turn" and refused["game"]["ply"] == 1
    status, state = ask("POST", f"/api/games/{game_id}/reply")
    assert status == 200 and state["ply"] == 2 and state["your_turn"]
    assert state["said"].startswith("The engine (defenders) plays ")
    game = Game.replay(["d2c2", state["last"]["move"]]).game
    assert state["pieces"] == game.pieces == pieces_drawn(state["board"])
    # Asked again, the engine has nothing to do, and does nothing.
    status, again = ask("POST", f"/api/games/{game_id}/reply")
    assert status == 200 and again["ply"] == 2


def test_the_engine_moves_first_for_a_person_with_the_defenders(ask):
    state = ask.new(side="defenders")
    assert state["engine_to_move"] and not state["your_turn"]
    status, state = ask("POST", f"/api/games/{state['id']}/reply")
    assert status == 200 and state["ply"] == 1 and state["your_turn"] and state["to_move"] == "defenders"
    # The king, hemmed in by his own defenders, has no move yet.
    assert "defender" in {m["piece"] for m in state["legal"]} <= {"defender", "king"}


def test_a_refused_move_says_why_and_changes_nothing(ask):
    game_id = ask.new()["id"]
    for move, code, sentence in [
        ("d1d4", "blocked", "d1 to d4: the attacker on d1 is blocked by the piece on d2"),
        ("d1-a1", "corner", "d1 to a1: the king alone may stop on a corner"),
        ("d4d1", "not_yours", "d4 to d1: the king on d4 belongs to the defenders, and it is the attackers' move"),
    ]:
        status, refused = ask("POST", f"/api/games/{game_id}/move", {"move": move})
        assert status == 409 and refused["code"] == code and refused["error"] == sentence
        assert refused["game"]["ply"] == 0
    status, state = ask("GET", f"/api/games/{game_id}")
    assert status == 200 and state["ply"] == 0 and state["pieces"] == SETUP_PIECES


def test_a_capture_takes_the_piece_off_the_board(ask):
    status, opened = ask("POST", "/api/open", {"text": "variant brandubh\nstart 7/7/7/3k3/2ad3/7/4a2 a\nmoves\n"})
    assert status == 201
    status, state = ask("POST", f"/api/games/{opened['games'][0]['id']}/continue",
                        {"ply": 0, "side": "attackers", "level": 1})
    assert status == 201 and state["mode"] == "play" and state["your_turn"]
    capture = next(m for m in state["legal"] if m["from"] == "e1" and m["to"] == "e3")
    assert capture["captures"] == ["d3"]
    status, state = ask("POST", f"/api/games/{state['id']}/move", {"move": "e1e3"})
    assert status == 200 and state["said"] == "You play e1-e3xd3, capturing the defender on d3."
    assert state["last"]["captured"] == ["d3"]
    assert state["pieces"] == {"c3": "attacker", "e3": "attacker", "d4": "king"} == pieces_drawn(state["board"])


def test_undo_resign_and_a_draw_offer(ask):
    game_id = ask.new()["id"]
    status, refused = ask("POST", f"/api/games/{game_id}/undo")
    assert status == 409 and refused["error"] == "nothing to undo: you have not moved yet"
    ask("POST", f"/api/games/{game_id}/move", {"move": "d2c2"})
    ask("POST", f"/api/games/{game_id}/reply")
    status, state = ask("POST", f"/api/games/{game_id}/undo")
    assert status == 200 and state["ply"] == 0 and state["said"] == "Took back 2 moves." and state["your_turn"]
    # The engine with the defenders does not take a draw at the set-up.
    status, state = ask("POST", f"/api/games/{game_id}/draw")
    assert status == 200 and state["status"] == "active" and "declines" in state["said"]
    status, state = ask("POST", f"/api/games/{game_id}/resign")
    assert status == 200 and state["status"] == "finished" and state["result"] == "the attackers resigned"
    assert state["winner"] == "defenders" and state["said"].endswith("The engine wins.")
    assert state["text"].endswith("result resign attackers\n")
    status, refused = ask("POST", f"/api/games/{game_id}/move", {"move": "d2c2"})
    assert status == 409 and refused["code"] == "game_over"
    status, state = ask("POST", f"/api/games/{game_id}/undo")
    assert status == 200 and state["status"] == "active" and state["said"] == "Took back the resignation."


def test_the_score_and_best_line(ask):
    status, opened = ask("POST", "/api/open", {"text": "variant brandubh\nstart 7/7/7/7/a6/6k/7 d\nmoves\n"})
    game_id = opened["games"][0]["id"]
    status, found = ask("POST", f"/api/games/{game_id}/analysis", {"ply": 0})
    assert status == 200
    # The king on g2 is one slide from g1 or g7.
    assert found["best"] in ("g2g1", "g2g7") and found["mate_in"] == 1 and found["for"] == "defenders"
    # A game opened to look at has no person's side: the outlook is the side to move's.
    assert found["outlook"]["loses_in"] is None and found["outlook"]["wins_in"] == 1
    assert found["sentence"].startswith(f"Best for the defenders: K{found['best'][:2]}-{found['best'][2:]}++ "
                                        "(the defenders win at once)")
    assert f'class="arrow {found["best"]}"' in found["game"]["board"]
    game_id = ask.new()["id"]
    status, found = ask("POST", f"/api/games/{game_id}/analysis")
    assert status == 200 and found["best"] in {m.move for m in Game().legal()}
    assert found["line"][0] == found["shown"] and len(found["line"]) >= 2 and found["depth"] >= 2
    assert Game.replay([m.replace("-", "")[:4] for m in found["line"]]).ok


def test_the_game_text_downloads(ask):
    game_id = ask.new()["id"]
    ask("POST", f"/api/games/{game_id}/move", {"move": "d2c2"})
    status, headers, body = ask.raw("GET", f"/api/games/{game_id}/text")
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    assert headers["Content-Disposition"] == f'attachment; filename="brandubh-{game_id}.txt"'
    assert body.decode() == "variant brandubh\nmoves d2c2\n"


# -- saved games -----------------------------------------------------------------------------


def test_saved_games_open_and_step_move_by_move(ask):
    status, opened = ask("POST", "/api/open", {"text": TWO_GAMES})
    assert status == 201
    games = opened["games"]
    assert [(g["label"][:6], g["plies"]) for g in games] == [("game 1", 3), ("game 2", 1)]
    assert games[0]["result"] == "the king reached a corner, the defenders won"
    first = games[0]["id"]
    expected = [{"a1": "attacker", "d4": "king"}, {"a1": "attacker", "d1": "king"},
                {"a2": "attacker", "d1": "king"}, {"a2": "attacker", "g1": "king"}]
    for ply, pieces in enumerate(expected):
        status, state = ask("GET", f"/api/games/{first}?ply={ply}")
        assert status == 200 and state["mode"] == "review" and state["ply"] == ply and state["plies"] == 3
        assert state["pieces"] == pieces == pieces_drawn(state["board"])
        assert state["legal"] == [] and not state["your_turn"] and not state["engine_to_move"]
    assert state["status"] == "finished" and state["last"]["shown"] == "Kd1-g1++"
    assert state["moves"] == ["Kd4-d1", "a1-a2", "Kd1-g1++"]
    status, error = ask("GET", f"/api/games/{first}?ply=4")
    assert status == 400 and error["error"] == "ply must be from 0 to 3 (the game has 3 moves), not 4"
    status, refused = ask("POST", f"/api/games/{first}/move", {"move": "a2a3"})
    assert status == 409 and "opened to look at" in refused["error"]
    status, state = ask("GET", f"/api/games/{games[1]['id']}?ply=1")
    assert state["pieces"] == {"c3": "attacker", "e3": "attacker", "d4": "king"}


def test_a_referee_record_and_a_play_save_open_too(ask, tmp_path):
    record = json.dumps({"index": 0, "text": "variant codingame\nmoves d2c2 d3c3\n", "stderr": ["x"]})
    status, opened = ask("POST", "/api/open", {"text": record})
    assert status == 201 and opened["games"][0]["variant"] == "codingame" and opened["games"][0]["plies"] == 2
    saved = Game.replay(["d2c2"]).game.as_text()
    assert [g.log for _, g in read_games(saved)] == [["d2c2"]]


@pytest.mark.parametrize("text, sentence", [
    ("", "there is no game in the text"),
    ("hello", "line 1: 'hello' is not a line of a game text"),
    ("variant brandubh\nmoves d1d4\n", "line 2: move 1 (d1d4) is refused: d1 to d4: the attacker on d1 is "
                                       "blocked by the piece on d2"),
    ("variant brandubh\nmoves d2c2\n\nvariant chess\nmoves\n", "game 2, line 4: no preset named 'chess'"),
    ("variant brandubh\nmoves d2c2\n\nvariant brandubh\nmoves d2c2 d3d3\n", "game 2, line 5: move 2 (d3d3)"),
    ("{not json", "the text starts like JSON but is not JSON (line 1)"),
    ('{"moves": []}', 'a JSON game record needs a "text" field'),
    ("[rules:dim:9 start:/9/9/9/9/4K4/9/9/9/9/]\n\n1. a1-a2\n",
     "line 1 (the rules tag): dim:9: this package plays only the 7x7 board"),
])
def test_a_text_that_is_no_game_gets_a_sentence(ask, text, sentence):
    status, error = ask("POST", "/api/open", {"text": text})
    assert status == 400 and error["error"].startswith(sentence), error


# -- malformed requests ---------------------------------------------------------------------


@pytest.mark.parametrize("path, body, status, sentence", [
    ("/api/games", b"{", 400, "the request body is not JSON"),
    ("/api/games", b"[1, 2]", 400, "the request body must be a JSON object, not list"),
    ("/api/games", b"\xff\xfe", 400, "the request body is not UTF-8 text"),
    ("/api/games", b'{"colour": "red"}', 400, "unknown field 'colour' (the fields here are: side, level, variant)"),
    ("/api/games", b'{"level": "3"}', 400, "level must be a whole number from 1 to 6, not '3'"),
    ("/api/games", b'{"level": true}', 400, "level must be a whole number from 1 to 6, not True"),
    ("/api/games", b'{"level": 7}', 400, "level must be a whole number from 1 to 6, not 7"),
    ("/api/games", b'{"side": "kings"}', 400, "side must be 'attackers' or 'defenders', not 'kings'"),
    ("/api/games", b'{"variant": 7}', 400, "variant must be a preset's name or a line of field=value pairs"),
    ("/api/games", b'{"variant": "chess"}', 400, "no preset named 'chess'"),
    ("/api/open", b'{"text": 5}', 400, 'give the saved game as "text", a string'),
    ("/api/open", b"{}", 400, 'give the saved game as "text", a string'),
    ("/api/games/0123456789ab", b"", 404, "no game '0123456789ab' here: it was never made"),
    ("/api/games/nope/move", b"", 404, "no game 'nope' here"),
    ("/api", b"{}", 405, "POST is not answered here: send GET"),
])
def test_a_malformed_request_gets_a_sentence(ask, path, body, status, sentence):
    got, headers, data = ask.raw("POST", path, body)
    assert got == status, data
    error = json.loads(data)["error"]
    assert error.startswith(sentence), error
    assert "Traceback" not in error and error[-1] not in ",;:"


def test_malformed_moves_queries_and_headers(ask):
    game_id = ask.new()["id"]
    base = f"/api/games/{game_id}"
    for payload, sentence in [({"move": 5}, "move must be a move as text, d1d3 or d1-d3, not 5"),
                              ({"move": "x" * 100}, "move must be a move as text"),
                              ({"move": "zz"}, "'zz' is not written as a move: give it as d1d3 or d1-d3"),
                              ({"move": "d1d3", "seat": "p2"}, "unknown field 'seat' (the fields here are: move)")]:
        status, error = ask("POST", base + "/move", payload)
        assert status in (400, 409) and error["error"].startswith(sentence), error
    assert ask("GET", base + "?ply=two") == (400, {"error": "ply must be a whole number, not 'two'"})
    assert ask("GET", base + "?flip=1") == (400, {"error": "unknown query field 'flip' (the field here is: ply)"})
    assert ask("POST", base + "/fly") == (404, {"error": "a game has no 'fly': the actions are move, reply, undo, "
                                                         "resign, draw, analysis, review, continue (POST) and text (GET)"})
    assert ask("GET", base + "/move")[0] == 405
    status, headers, body = ask.raw("POST", base + "/move", b'{"move": "d2c2"}', {"Content-Type": "text/plain"})
    assert status == 415 and "Content-Type: application/json" in json.loads(body)["error"]
    status, headers, body = ask.raw("PUT", base, b"{}")
    assert status == 405 and headers["Allow"] == "GET, POST"
    status, headers, body = ask.raw("POST", base + "/move", b"", {"Content-Length": "9999999999"})
    assert status == 413 and json.loads(body)["error"].startswith("the request body is 9999999999 bytes")
    status, headers, body = ask.raw("POST", base + "/move", b"", {"Content-Length": "many"})
    assert status == 400 and json.loads(body)["error"] == "Content-Length must be a number of bytes, not 'many'"
    status, headers, body = ask.raw("GET", base, headers={"Host": "evil.example:80"})
    assert status == 400 and json.loads(body)["error"].startswith(f"this server answers requests for "
                                                                  f"{ask.server.url} only")
    # ... and after all that the game is as it was.
    status, state = ask("GET", base, headers={"Host": f"localhost:{ask.port}"})
    assert status == 200 and state["ply"] == 0


def test_a_failure_of_the_server_is_a_sentence_and_its_trace_goes_to_the_log(ask, running, monkeypatch):
    game_id = ask.new()["id"]

    def broken(*args, **kwargs):
        raise RuntimeError("a fault planted by the test")

    monkeypatch.setattr(Api, "state", broken)
    status, headers, body = ask.raw("GET", f"/api/games/{game_id}")
    assert status == 500 and b"Traceback" not in body and b"planted" not in body
    assert json.loads(body)["error"] == "the server failed to answer this request; what went wrong is in its log"
    assert "RuntimeError: a fault planted by the test" in running.log.getvalue()


# -- several games ------------------------------------------------------------------------------


def test_several_games_at_once_keep_apart(ask):
    one, two = ask.new(), ask.new(variant="codingame")
    assert one["id"] != two["id"] and two["variant"] == "codingame"
    ask("POST", f"/api/games/{one['id']}/move", {"move": "d2c2"})
    status, state = ask("GET", f"/api/games/{two['id']}")
    assert state["ply"] == 0 and state["your_turn"]
    status, state = ask("GET", f"/api/games/{one['id']}")
    assert state["ply"] == 1 and state["engine_to_move"]


def test_the_oldest_game_goes_when_too_many_are_kept(monkeypatch):
    monkeypatch.setattr("brandubh.serve.api.MAX_TABLES", 3)
    api = Api()
    ids = [api.call("POST", "/api/games", b"{}").json()["id"] for _ in range(4)]
    assert len(api) == 3
    assert api.call("GET", f"/api/games/{ids[0]}").status == 404
    assert all(api.call("GET", f"/api/games/{i}").status == 200 for i in ids[1:])


class HeldBot(Bot):
    """A bot that waits, inside its choice, until the test lets it go."""

    def __init__(self, level: int, seed: str) -> None:
        super().__init__(level, seed=seed)
        self.entered = threading.Event()
        self.release = threading.Event()

    def choose(self, game):
        self.entered.set()
        assert self.release.wait(timeout=120), "the test never let the engine go"
        return super().choose(game)


def test_an_engine_thinking_holds_up_no_other_game():
    bots: list[HeldBot] = []

    def make_bot(level: int, seed: str) -> Bot:
        if not bots:
            bots.append(HeldBot(level, seed))
            return bots[0]
        return Bot(level, seed=seed)

    server = Server(port=0, api=Api(make_bot=make_bot))
    worker = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    worker.start()
    try:
        ask = Client(server)
        held = ask.new(side="defenders")  # its engine moves first, and is held
        answers: list = []
        thinking = threading.Thread(target=lambda: answers.append(ask("POST", f"/api/games/{held['id']}/reply")))
        thinking.start()
        assert bots[0].entered.wait(timeout=60)
        # While that engine is held in its search, another game is played.
        other = ask.new(side="attackers")
        assert ask("POST", f"/api/games/{other['id']}/move", {"move": "d2c2"})[0] == 200
        status, state = ask("POST", f"/api/games/{other['id']}/reply")
        assert status == 200 and state["ply"] == 2
        assert ask("GET", "/api")[0] == 200
        assert thinking.is_alive() and not answers
        bots[0].release.set()
        thinking.join(timeout=120)
        assert answers and answers[0][0] == 200 and answers[0][1]["ply"] == 1
    finally:
        for bot in bots:
            bot.release.set()
        server.shutdown()
        server.server_close()


# -- the command ------------------------------------------------------------------------------


# -- with endgame tables (brandubh serve --tables) --------------------------------------

# A king and one attacker, the defenders to move: a table win in 3 (Kd4-d1,
# then the corner), played out.
TABLE_GAME = "variant brandubh\nstart 7/7/7/3k3/7/7/1a5 d\nmoves d4d1 b1c1 d1g1\n"


@pytest.fixture(scope="module")
def with_tables(tmp_path_factory):
    from brandubh.endgame import build_tables

    folder = tmp_path_factory.mktemp("tables")
    tables = build_tables(1, "brandubh", folder)
    server = Server(port=0, api=Api(seed="tests", tables=folder), log=io.StringIO())
    worker = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    worker.start()
    yield Client(server), tables
    server.shutdown()
    server.server_close()
    worker.join(timeout=60)


def test_a_table_position_shows_the_tables_value_and_the_move_that_keeps_the_win(with_tables):
    from brandubh.endgame import probe

    ask, tables = with_tables
    status, opened = ask("POST", "/api/open", {"text": TABLE_GAME})
    assert status == 201
    game = opened["games"][0]["id"]
    status, state = ask("GET", f"/api/games/{game}?ply=0")
    assert status == 200 and state["mode"] == "review"
    found = probe("7/7/7/3k3/7/7/1a5 d", tables)
    assert (found.value, found.plies) == ("win", 3)
    table = state["table"]
    assert table == {"side": "defenders", "value": "win", "plies": 3, "winner": "defenders", "keeps": "d4d1",
                     "keeps_shown": "Kd4-d1", "says": "a table win in 3 for the defenders: Kd4-d1 keeps it"}
    # The move kept the win: the attackers, to move after it, lose in 2.
    assert probe("7/7/7/7/7/7/1a1k3 a", tables).plies == 2
    status, state = ask("GET", f"/api/games/{game}?ply=1")
    assert state["table"]["says"] == "a table loss in 2 for the attackers" and state["table"]["keeps"] is None
    status, state = ask("GET", f"/api/games/{game}")
    assert state["status"] == "finished" and state["table"] is None
    # The review says the same words of each move.
    status, reviewed = ask("POST", f"/api/games/{game}/review", {})
    assert [m["table"] for m in reviewed["review"]["moves"]] == ["a table win in 3", "a table loss in 2",
                                                                 "a table win in 1"]


def test_the_tables_are_not_a_hint_at_the_live_position_of_a_game_in_play(with_tables):
    ask, _ = with_tables
    status, opened = ask("POST", "/api/open", {"text": TABLE_GAME})
    status, live = ask("POST", f"/api/games/{opened['games'][0]['id']}/continue",
                       {"ply": 1, "side": "attackers", "level": 1})
    assert status == 201 and live["mode"] == "play" and live["your_turn"] and live["table"] is None
    status, back = ask("GET", f"/api/games/{live['id']}?ply=0")
    assert back["table"]["says"] == "a table win in 3 for the defenders: Kd4-d1 keeps it"


def test_without_tables_a_state_says_nothing_of_them(ask):
    status, opened = ask("POST", "/api/open", {"text": TABLE_GAME})
    status, state = ask("GET", f"/api/games/{opened['games'][0]['id']}?ply=0")
    assert status == 200 and "table" not in state


def test_serve_refuses_a_folder_without_tables_with_a_sentence(tmp_path, capsys):
    assert main(["serve", "--port", "0", "--tables", str(tmp_path)]) == 2
    assert "holds no endgame tables for any preset" in capsys.readouterr().err


def test_the_host_warning():
    assert host_warning("127.0.0.1") is None and host_warning("::1") is None and host_warning("127.0.0.2") is None
    assert host_warning("localhost") is None
    for host in ("0.0.0.0", "192.0.2.7", "example.org", "::"):
        warning = host_warning(host)
        assert warning is not None and warning.startswith(f"warning: --host {host} lets other machines reach")


def test_a_port_in_use_is_an_error_with_a_sentence(running, capsys):
    assert main(["serve", "--port", str(running.server_port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"brandubh serve: cannot listen on 127.0.0.1 port {running.server_port}: ")
    assert "--port 0 for any free one" in err


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_stops_the_command_cleanly():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "brandubh", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert line.startswith("brandubh serve: the board is at http://127.0.0.1:"), line
        url = line.split(" at ", 1)[1].split()[0]
        port = int(url.rsplit(":", 1)[1].strip("/"))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/api")
        assert conn.getresponse().status == 200
        conn.close()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert out.strip().endswith("brandubh serve: stopped") and "Traceback" not in err
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def test_the_serve_page_runs_and_prints_what_it_says():
    page, blocks, text = run_page("serve.md")
    assert blocks
    printed = text.splitlines()
    expected = re.findall(r"# prints (.+)", page)
    assert len(expected) >= 4
    for line in expected:
        assert line.strip() in printed, line
    # The paths and the levels the page names are the server's.
    assert f"http://127.0.0.1:{DEFAULT_PORT}/" in page and f"level (1 to {MAX_LEVEL})" in page
    for action in ("move", "reply", "undo", "resign", "draw", "analysis", "continue", "text"):
        assert f"`POST /api/games/ID/{action}`" in page or f"`GET /api/games/ID/{action}`" in page, action


def test_the_pages_screenshots_are_there_and_shown():
    # tools/page-shots: each width, light and dark, all shown by serve.md.
    serve = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    for width in (360, 768, 1280, 1920):
        for theme in ("light", "dark"):
            name = f"page-{width}-{theme}.png"
            shot = (ROOT / "docs" / name).read_bytes()
            assert shot[:8] == b"\x89PNG\r\n\x1a\n" and 20_000 < len(shot) < 1_000_000, name
            assert f"({name})" in serve, name
    assert "(page-1280-light.png)" in (ROOT / "docs" / "views.md").read_text(encoding="utf-8")


def test_the_page_ships_in_the_wheel():
    # The wheel carries what [tool.setuptools.package-data] names: the page
    # must be among it, or an installed brandubh serve has nothing to serve.
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["brandubh"]
    data = sorted(p.relative_to(ROOT / "brandubh").as_posix() for p in (ROOT / "brandubh").rglob("*")
                  if p.suffix in (".html", ".c"))
    assert "serve/page.html" in data and "codingame/main.c" in data
    import fnmatch

    assert [name for name in data if not any(fnmatch.fnmatch(name, p) for p in patterns)] == []

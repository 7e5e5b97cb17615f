"""``brandubh host``: two seats over the network, its store, clocks, bots,
limits and refusals (the page in a browser is test_host_browser.py).

The games' records are checked against the package's own Game replaying
the moves the players sent, not against what the server says of itself;
no test asserts a time: a clock's flag is waited for, however long the
machine takes."""

from __future__ import annotations

import http.client
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import PATIENCE, wait_until

from brandubh import Bot, Game
from brandubh.host.api import HostApi
from brandubh.host.client import BotClient
from brandubh.host.http import HostServer
from brandubh.host.hub import Hub
from brandubh.host.store import Store




@pytest.fixture
def hub(tmp_path):
    made = Hub(Store(str(tmp_path / "games.sqlite")), seed="tests")
    yield made
    made.close()
    made.store.close()


@pytest.fixture
def server(tmp_path):
    log = io.StringIO()
    running = HostServer(port=0, api=HostApi(Hub(Store(str(tmp_path / "served.sqlite")), seed="tests")),
                         verbose=True, log=log)
    running.test_log = log
    worker = threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True)
    worker.start()
    yield running
    running.shutdown()
    running.server_close()
    running.api.hub.close()


def ask(server, method, path, body=None, headers=None, raw=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=PATIENCE)
    sent = {"Content-Type": "application/json"} if method == "POST" else {}
    sent.update(headers or {})
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    connection.request(method, path, data, sent)
    answer = connection.getresponse()
    payload = answer.read()
    connection.close()
    try:
        return answer.status, json.loads(payload)
    except ValueError:
        return answer.status, payload.decode("utf-8", "replace")


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


# -- two seats, a watcher, a bot through the interface -----------------------------------------


def test_a_program_plays_the_servers_bot_to_the_end_while_a_watcher_follows(server):
    url = server.url.rstrip("/")
    made = BotClient.create(url, {"side": "attackers", "opponent": "bot", "level": 1, "clock": "5+3"})
    me = BotClient(url, made["id"], made["token"])
    seen = []
    watcher = threading.Thread(target=lambda: seen.extend(BotClient(url, made["id"]).events()), daemon=True)
    watcher.start()
    mine = Bot(1, seed="the program")
    sent = []

    def choose(state):
        game = Game.read(state["text"])   # the program's own game, from the text it was sent
        move = str(mine.choose(game))
        sent.append(move)
        return move

    final = me.play(choose)
    watcher.join(PATIENCE)
    assert not watcher.is_alive()   # the server ended the watcher's stream with the game
    assert final["status"] == "finished" and final["result"]
    # The record replays by the package's own rules, and every move the program sent is in it, its own
    # moves being the attackers' (every second one from the first).
    replayed = Game.read(final["text"])
    assert replayed.status == "finished" and replayed.log[0::2] == sent
    # The watcher saw the game end with the same record, and no state it was sent went back in time.
    assert seen and seen[-1]["text"] == final["text"]
    versions = [s["version"] for s in seen]
    assert versions == sorted(versions)
    # The finished game is listed and downloadable as its text.
    status, listed = ask(server, "GET", "/api/host/games")
    assert status == 200 and made["id"] in [g["id"] for g in listed["finished"]]
    status, text = ask(server, "GET", f"/api/host/games/{made['id']}/text")
    assert status == 200 and text == final["text"]


def test_two_seats_take_turns_and_each_acts_only_for_itself(hub):
    made = hub.create({"side": "defenders"}, client="a")
    game_id, defenders, attackers = made["id"], made["token"], made["invite_token"]
    # The maker has the defenders, who do not move first.
    with pytest.raises(Exception, match="not yours"):
        hub.act(game_id, defenders, "move", {"move": "d2c2"})
    state = hub.act(game_id, attackers, "move", {"move": "d2c2"})
    assert state["moves"] == ["d2-c2"] and state["to_move"] == "defenders"
    # The attackers cannot move for the defenders, nor resign for them, nor answer their own offer.
    with pytest.raises(Exception, match="not yours"):
        hub.act(game_id, attackers, "move", {"move": "d3c3"})
    hub.act(game_id, attackers, "draw-offer", {})
    with pytest.raises(Exception, match="cannot answer"):
        hub.act(game_id, attackers, "draw-accept", {})
    state = hub.act(game_id, defenders, "draw-decline", {})
    assert state["draw_offer"] is None and state["status"] == "active"
    hub.act(game_id, defenders, "move", {"move": "d3c3"})
    # A take-back the other side refuses changes nothing; one it allows takes back the asker's move.
    hub.act(game_id, defenders, "takeback-offer", {})
    with pytest.raises(Exception, match="other side"):
        hub.act(game_id, defenders, "takeback-accept", {})
    assert hub.act(game_id, attackers, "takeback-decline", {})["ply"] == 2
    hub.act(game_id, defenders, "takeback-offer", {})
    state = hub.act(game_id, attackers, "takeback-accept", {})
    assert state["moves"] == ["d2-c2"] and state["to_move"] == "defenders"
    # A resignation ends it, for the resigning seat's side only.
    state = hub.act(game_id, attackers, "resign", {})
    assert state["winner"] == "defenders" and Game.read(state["text"]).result.how == "resign"
    with pytest.raises(Exception, match="over"):
        hub.act(game_id, defenders, "move", {"move": "d3c3"})


def test_a_draw_agreed_ends_the_game_in_a_draw(hub):
    made = hub.create({}, client="a")
    hub.act(made["id"], made["invite_token"], "draw-offer", {})
    state = hub.act(made["id"], made["token"], "draw-accept", {})
    assert state["status"] == "finished" and state["winner"] is None
    assert Game.read(state["text"]).result.how == "agreed"


def test_host_and_serve_give_one_account_of_a_game(hub):
    # One state builder (brandubh.session.table_state): the same game seen
    # through brandubh host and through brandubh serve is the same board,
    # moves, legal moves, sentence and text.
    from brandubh.serve.api import Api, Table

    made = hub.create({"side": "attackers"}, client="a")
    hub.act(made["id"], made["token"], "move", {"move": "d2c2"})
    hosted = hub.state(made["id"])
    table = Table("0123456789ab", Game.read(hosted["text"]), "defenders", Bot(1))
    table.said = hosted["said"]
    served = Api().state(table)
    shared = set(hosted) & set(served) - {"id"}
    assert shared >= {"board", "position", "pieces", "last", "moves", "legal", "said", "text", "status", "to_move",
                      "result", "winner", "ply", "variant"}
    assert hosted["legal"] and {k: hosted[k] for k in shared} == {k: served[k] for k in shared}


def test_a_game_is_seen_as_it_stood_after_any_move_through_the_one_ply_query(server):
    # The page looks back during play with ?ply=N, read as brandubh serve
    # reads it: the board as it stood, no legal move there, the game's
    # length beside it; the game itself goes on at its end.
    status, made = ask(server, "POST", "/api/host/games", {"side": "attackers"})
    path, own = "/api/host/games/" + made["id"], Game()
    for move, token in (("d2c2", made["token"]), ("d3c3", made["invite_token"])):
        assert ask(server, "POST", path + "/move", {"move": move}, bearer(token))[0] == 200
        own.play_or_raise(move)
    status, back = ask(server, "GET", path + "?ply=1")
    assert status == 200 and back["ply"] == 1 and back["plies"] == 2 and back["legal"] == []
    assert back["position"] == own.after(1).position and back["moves"] == own.shown
    assert back["last"]["move"] == "d2c2" and back["text"] == own.as_text()
    status, live = ask(server, "GET", path)
    assert live["ply"] == live["plies"] == 2 and live["legal"] and live["position"] == own.position
    for query, words in (("?ply=3", "3"), ("?ply=-1", "-1"), ("?ply=x", "whole number"), ("?move=1", "unknown")):
        status, refused = ask(server, "GET", path + query)
        assert status == 400 and words in refused["error"], query
    # A move is always played at the game's end, whatever was looked at.
    assert ask(server, "POST", path + "/move", {"move": "c2b2"}, bearer(made["token"]))[1]["ply"] == 3


# -- clocks --------------------------------------------------------------------------------------


def test_a_flag_falls_with_nobody_connected(hub):
    made = hub.create({"side": "attackers", "clock": "0.01+0"}, client="a")   # 0.6 seconds each
    hub.act(made["id"], made["token"], "move", {"move": "d2c2"})              # the defenders' clock runs
    assert wait_until(lambda: hub.state(made["id"])["status"] != "active")
    state = hub.state(made["id"])
    assert state["winner"] == "attackers" and state["clocks"]["defenders"] == 0
    assert Game.read(state["text"]).result.how == "timeout"
    # Said as a clock's ending between two people, not as a program's that answered too late.
    assert state["result"] == "the defenders' time ran out, the attackers won"
    # And a move too late is refused: the game is over, for the same reason.
    with pytest.raises(Exception, match="the game is over: the defenders' time ran out, the attackers won"):
        hub.act(made["id"], made["invite_token"], "move", {"move": "d3c3"})
    assert hub.finished()[0]["result"] == state["result"]


def test_a_flag_that_fell_while_the_server_was_down_falls_at_once_on_restart(tmp_path):
    path = str(tmp_path / "down.sqlite")
    first = Hub(Store(path), seed="t")
    made = first.create({"side": "attackers", "clock": "0.03+0"}, client="a")   # 1.8 seconds each
    slow = first.create({"side": "attackers", "clock": "30+20"}, client="a")
    first.act(made["id"], made["token"], "move", {"move": "d2c2"})
    first.act(slow["id"], slow["token"], "move", {"move": "d2c2"})
    left = first.state(slow["id"])["clocks"]
    first.close()              # no flag falls from now on: as if the server were gone
    first.store.close()
    kept = Store(path)
    assert len(kept.active()) == 2   # not fallen yet
    kept.close()
    deadline = json.loads(json.dumps(first.game(made["id"]).clock.deadline()))
    assert wait_until(lambda: time.time() > deadline + 0.1)
    again = Hub(Store(path), seed="t")
    try:
        state = again.state(made["id"])
        assert state["status"] == "finished" and state["winner"] == "attackers"
        resumed = again.state(slow["id"])
        # The long game goes on where it was, the defenders' clock running and not gaining time.
        assert resumed["status"] == "active" and resumed["running"] == "defenders"
        assert resumed["clocks"]["attackers"] == left["attackers"]
        assert resumed["clocks"]["defenders"] <= left["defenders"]
        assert resumed["moves"] == ["d2-c2"]
    finally:
        again.close()
        again.store.close()


def test_the_server_killed_mid_game_loses_no_move_and_resumes_the_clocks(tmp_path):
    db = tmp_path / "killed.sqlite"
    # The server runs the brandubh this test imports, wherever it is installed.
    import brandubh

    where = str(Path(brandubh.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [where, os.environ.get("PYTHONPATH")])))

    def start():
        process = subprocess.Popen([sys.executable, "-m", "brandubh", "host", "--port", "0", "--db", str(db)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, (line, process.stderr.read() if process.poll() is not None else "")
        return process, f"http://127.0.0.1:{found.group(1)}"

    process, url = start()
    try:
        made = BotClient.create(url, {"side": "attackers", "clock": "15+10"})
        a = BotClient(url, made["id"], made["token"])
        d = BotClient(url, made["id"], made["invite_token"])
        played = ["d2c2", "d3c3", "b4b5", "e4e3"]
        for number, move in enumerate(played):
            state = (a if number % 2 == 0 else d).move(move)
        before = state
        d.act("draw-offer")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(PATIENCE)
    process, url = start()
    try:
        a = BotClient(url, made["id"], made["token"])
        state = a.state()
        assert Game.read(state["text"]).log == played
        assert state["status"] == "active" and state["running"] == "attackers" and state["draw_offer"] == "defenders"
        assert state["clocks"]["defenders"] == before["clocks"]["defenders"]
        assert state["clocks"]["attackers"] <= before["clocks"]["attackers"]
        # It plays on: the tokens still hold their seats.
        assert a.act("draw-decline")["draw_offer"] is None
        assert a.move("c2c1")["ply"] == 5
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(PATIENCE)


# -- refusals: tokens, forged and hostile requests, limits ----------------------------------------


def test_wrong_or_missing_tokens_are_refused_and_change_nothing(server):
    status, made = ask(server, "POST", "/api/host/games", {"side": "attackers"})
    assert status == 201
    _, other = ask(server, "POST", "/api/host/games", {"side": "attackers"})
    path = f"/api/host/games/{made['id']}"
    _, before = ask(server, "GET", path)
    for headers in ({}, bearer("x" * 32), bearer(other["token"]), {"Authorization": made["token"]},
                    {"Cookie": f"token={made['token']}"}):
        status, answer = ask(server, "POST", path + "/move", {"move": "d2c2"}, headers)
        assert status == 403, (headers, answer)
    # The invited seat's token is the defenders', and acts only for them.
    status, answer = ask(server, "POST", path + "/move", {"move": "d2c2"}, bearer(made["invite_token"]))
    assert status == 409 and answer["code"] == "not_your_turn"
    _, after = ask(server, "GET", path)
    assert after["version"] == before["version"] and after["moves"] == []


@pytest.mark.parametrize("headers, raw, status", [
    ({"Origin": "https://evil.example"}, b'{"move": "d2c2"}', 403),
    ({"Origin": "null"}, b'{"move": "d2c2"}', 403),
    ({"Sec-Fetch-Site": "cross-site"}, b'{"move": "d2c2"}', 403),
    ({"Content-Type": "text/plain"}, b'{"move": "d2c2"}', 415),
    ({"Content-Type": "application/x-www-form-urlencoded"}, b"move=d2c2", 415),
    ({}, b'{"move": "d2c2", "seat": "p2"}', 400),
    ({}, b'["d2c2"]', 400),
    ({}, b'{"move": ' + b"[" * 1500 + b"]" * 1500 + b"}", 400),
    ({}, b'{"move": "' + b"d" * 5000 + b'"}', 413),
    ({}, b'{"move": 12}', 400),
    ({}, b"\xff\xfe", 400),
], ids=["other-origin", "null-origin", "cross-site", "text-plain", "form", "unknown-field", "not-object",
        "deep", "oversized", "not-text", "not-utf8"])
def test_forged_hostile_or_oversized_requests_are_refused_and_change_nothing(server, headers, raw, status):
    _, made = ask(server, "POST", "/api/host/games", {"side": "attackers"})
    path = f"/api/host/games/{made['id']}"
    sent = {**bearer(made["token"]), **headers}
    got, answer = ask(server, "POST", path + "/move", headers=sent, raw=raw)
    assert got == status and isinstance(answer, dict) and answer["error"]
    _, after = ask(server, "GET", path)
    assert after["moves"] == []


@pytest.mark.parametrize("path", ["/../../etc/passwd", "/api/host/games/..%2f..%2fetc", "/host.js",
                                  "/api/host/games/0123456789ab", "/api/host/games/0123456789AB/text",
                                  "/api/host/games/%2e%2e/seat"])
def test_no_file_is_served_but_the_page_and_nothing_by_a_path_of_its_own(server, path):
    status, answer = ask(server, "GET", path)
    assert status == 404 and "root:" not in json.dumps(answer)


def test_another_host_name_is_refused(server):
    status, _ = ask(server, "GET", "/api/host", headers={"Host": "evil.example"})
    assert status == 400


def test_tokens_are_never_in_the_log_the_state_the_watch_page_or_the_events(server):
    _, made = ask(server, "POST", "/api/host/games", {"side": "attackers", "clock": "5+3"})
    path = f"/api/host/games/{made['id']}"
    ask(server, "POST", path + "/move", {"move": "d2c2"}, bearer(made["token"]))
    ask(server, "GET", path + "/seat", headers=bearer(made["invite_token"]))
    _, state = ask(server, "GET", path)
    _, page = ask(server, "GET", "/")
    events = next(BotClient(server.url, made["id"]).events())
    log = server.test_log.getvalue()
    assert made["id"] in log   # the log is written, and names the game
    for token in (made["token"], made["invite_token"]):
        for seen in (log, json.dumps(state), page, json.dumps(events), made["links"]["watch"]):
            assert token not in seen


def test_a_client_has_a_limit_on_games_in_play_and_on_requests(tmp_path):
    hub = Hub(Store(":memory:"), max_open=2, rate=0.001, burst=3)
    try:
        api = HostApi(hub)
        answers = [api.call("POST", "/api/host/games", b"{}", client="one").status for _ in range(3)]
        assert answers == [201, 201, 429]            # the third game is over the limit of two in play
        assert api.call("POST", "/api/host/games", b"{}", client="one").status == 429   # and now over the rate
        assert api.call("POST", "/api/host/games", b"{}", client="two").status == 201   # another client is not
    finally:
        hub.close()


def test_bad_new_games_are_refused_with_a_sentence(hub):
    api = HostApi(hub)
    for body, words in ((b'{"clock": "5"}', "minutes+seconds"), (b'{"side": "kings"}', "side"),
                        (b'{"opponent": "ghost"}', "opponent"), (b'{"level": 9}', "level"),
                        (b'{"variant": "no such rules"}', "")):
        answer = api.call("POST", "/api/host/games", body, client="c")
        assert answer.status == 400 and words in answer.json()["error"]
    assert hub.open_games() == 0


def test_the_command_says_where_the_store_is_and_warns_off_the_loopback():
    from brandubh.cli import build_parser

    parser = build_parser()
    text = next(a for a in parser._subparsers._group_actions[0].choices.items() if a[0] == "host")[1].format_help()
    text = " ".join(text.split())
    assert "--db FILE" in text and "brandubh.sqlite" in text and "--port 0" in text
    from brandubh.serve.http import host_warning

    assert host_warning("0.0.0.0") and host_warning("127.0.0.1") is None


def test_the_servers_bot_moves_answers_a_draw_offer_and_allows_a_take_back(hub):
    made = hub.create({"side": "attackers", "opponent": "bot", "level": 1}, client="a")
    game_id, mine = made["id"], made["token"]
    hub.act(game_id, mine, "move", {"move": "d2c2"})
    assert wait_until(lambda: hub.state(game_id)["ply"] == 2)          # the bot replied
    replied = Game.read(hub.state(game_id)["text"])
    assert replied.log[0] == "d2c2" and replied.status == "active"
    hub.act(game_id, mine, "takeback-offer", {})
    assert wait_until(lambda: hub.state(game_id)["takeback"] is None)
    state = hub.state(game_id)
    assert state["ply"] == 0 and state["to_move"] == "attackers"       # both moves taken back
    hub.act(game_id, mine, "draw-offer", {})
    assert wait_until(lambda: hub.state(game_id)["draw_offer"] is None)
    # At the set-up neither side is behind: the bot declines (brandubh play's rule) and the game goes on.
    assert hub.state(game_id)["status"] == "active"


def test_a_client_following_too_many_games_at_once_is_refused(tmp_path):
    running = HostServer(port=0, api=HostApi(Hub(Store(":memory:"))), streams_per_client=1)
    threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True).start()
    try:
        _, made = ask(running, "POST", "/api/host/games", {})
        first = http.client.HTTPConnection("127.0.0.1", running.server_port, timeout=PATIENCE)
        first.request("GET", f"/api/host/games/{made['id']}/events")
        answer = first.getresponse()
        assert answer.status == 200 and answer.readline().startswith(b"retry:")
        status, refused = ask(running, "GET", f"/api/host/games/{made['id']}/events")
        assert status == 429 and "as many games live as it may at once (1)" in refused["error"]
        first.close()
    finally:
        running.shutdown()
        running.server_close()
        running.api.hub.close()


def test_a_bot_whose_turn_it_was_when_the_server_stopped_moves_when_it_starts_again(tmp_path, capsys):
    class Gone:
        level = 1

        def choose(self, game):
            raise RuntimeError("the server went away before the bot could move")

    path = str(tmp_path / "bot.sqlite")
    first = Hub(Store(path), make_bot=lambda level, seed: Gone())
    made = first.create({"side": "defenders", "opponent": "bot", "level": 1}, client="a")   # the bot attacks first
    first.close()
    first.store.close()
    capsys.readouterr()   # the stand-in's failure, printed by the bot thread
    again = Hub(Store(path))
    try:
        assert wait_until(lambda: again.state(made["id"])["ply"] == 1)
        state = again.act(made["id"], made["token"], "move", {"move": str(Game.read(again.state(made["id"])["text"])
                                                                          .legal()[0].move)})
        assert state["ply"] >= 2 or state["to_move"] == "attackers"
    finally:
        again.close()
        again.store.close()


def test_random_requests_raise_nothing_and_answer_no_server_error(hub):
    import random

    from brandubh.host.hub import ACTIONS

    rng = random.Random(7)
    api = HostApi(hub)
    made = hub.create({"clock": "5+3"}, client="fuzz")
    ids = [made["id"], "0123456789ab", "zz", "../etc", ""]
    tokens = [made["token"], made["invite_token"], None, "", "x" * 300]
    values = [None, True, 0, -1, 2**70, 1.5, "", "d2c2", "d2-c2", "z9z9", "x" * 100, [], {}, ["d2c2"], {"a": 1}]
    fields = ["move", "side", "variant", "clock", "opponent", "level", "seat", "token"]
    for _ in range(600):
        path = rng.choice(["/api/host/games", f"/api/host/games/{rng.choice(ids)}",
                           f"/api/host/games/{rng.choice(ids)}/{rng.choice(ACTIONS + ('events', 'text', 'seat', 'x'))}"])
        if rng.random() < 0.2:
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        else:
            body = json.dumps({rng.choice(fields): rng.choice(values) for _ in range(rng.randrange(3))}).encode()
        answer = api.call(rng.choice(["GET", "POST", "PUT", "HEAD"]), path, body, token=rng.choice(tokens),
                          client=f"c{rng.randrange(3)}")
        if not hasattr(answer, "status"):      # an event stream: followed, then let go
            answer.follower.close()
            continue
        assert answer.status < 500, (path, body, answer)
    # Whatever happened, the game's record still replays by the rules.
    state = hub.state(made["id"])
    replayed = Game.read(state["text"])
    assert replayed.ply == state["ply"] and replayed.shown == state["moves"]

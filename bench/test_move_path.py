"""Speed of one move through the layers that seat a person at a table: a
move typed at ``brandubh play``'s session and the engine's reply, the same
through ``brandubh serve``'s JSON requests, and a click through ``brandubh
host``'s interface with its bot's reply (the store in memory, so that the
path is timed, not the disk's fsync). The engine's choice is a stub (the
first legal move), so what is timed is the path, not the search."""

import functools
import io
import json

from brandubh import Game, Move

# A Bot's move comes from the engine as a Move made once (a table's); the
# stub's come from here, read once a move, so its reading is not timed.
_move = functools.lru_cache(maxsize=None)(Move)


class FirstMove:
    """A bot that plays the first legal move at once, and gives it as a Bot
    does: a Move."""

    level = 1
    budget = 1

    def choose(self, game):
        return _move(game.legal()[0].move)

    def accepts_draw(self, game, side):
        return False


def _session():
    from brandubh.cli.play import Terminal

    return Terminal(Game(), FirstMove(), "attackers", out=io.StringIO())


def test_move_through_play_session(benchmark):
    session = _session()
    session.begin()

    def one():
        session.handle("d2c2")   # the person's move, then the engine's reply
        session.handle("undo")   # both taken back
        session.out.seek(0)
        session.out.truncate()

    benchmark(one)
    benchmark.extra_info["what"] = "one typed move, the reply, and the undo of both"


def test_move_through_serve_request(benchmark):
    from brandubh.serve import Api

    api = Api(seed="bench", make_bot=lambda level, seed: FirstMove())
    game_id = api.call("POST", "/api/games", b'{"side": "attackers", "level": 1}').json()["id"]
    move = json.dumps({"move": "d2c2"}).encode()

    def one():
        api.call("POST", f"/api/games/{game_id}/move", move)
        api.call("POST", f"/api/games/{game_id}/reply", b"{}")
        api.call("POST", f"/api/games/{game_id}/undo", b"{}")

    benchmark(one)
    benchmark.extra_info["what"] = "a move request, the reply request and an undo request"


def test_click_through_host_request(benchmark):
    from brandubh.host.api import HostApi
    from brandubh.host.hub import Hub
    from brandubh.host.store import Store

    # No limit on a client's requests: the benchmark is one client sending as fast as it can.
    hub = Hub(Store(":memory:"), seed="bench", make_bot=lambda level, seed: FirstMove(), bot_threads=1,
              rate=1e9, burst=10**9)
    api = HostApi(hub)
    made = api.call("POST", "/api/host/games", b'{"side": "attackers", "opponent": "bot", "level": 1}',
                    client="bench").json()
    path, token = f"/api/host/games/{made['id']}", made["token"]
    follower, _ = hub.follow(made["id"])
    move = json.dumps({"move": "d2c2"}).encode()

    def until(ply):
        # The bot answers on a thread of its own: its change is sent to the followers.
        while json.loads(follower.queue.get(timeout=60).data)["ply"] != ply:
            pass

    def one():
        for action, body, ply in (("move", move, 2), ("takeback-offer", b"{}", 0)):
            # The click (then the bot's reply), and a take-back (which the bot allows).
            answer = api.call("POST", f"{path}/{action}", body, token=token, client="bench")
            assert answer.status == 200, answer
            until(ply)

    try:
        benchmark(one)
    finally:
        follower.close()
        hub.close()
    benchmark.extra_info["what"] = "a move request, the bot's reply, a take-back asked and allowed"

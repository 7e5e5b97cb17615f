"""Speed of one move through the person-against-the-engine layers: a move
typed at ``brandubh play``'s session and the engine's reply, and the same
through ``brandubh serve``'s JSON requests. The engine's choice is a stub
(the first legal move), so what is timed is the path, not the search."""

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

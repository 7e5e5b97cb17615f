"""Weights files: written, read back, refused when wrong, and taken by every
player (Bot, Rules.search, the engine setting of match, the CodinGame bot
and its export) exactly as the same weights given as a dict."""

from __future__ import annotations

import json
import os

import pytest

from brandubh import Bot, Rules
from brandubh.arena.bot_player import parse_setting
from brandubh.cli import main
from brandubh.errors import ArgumentError, WeightsError
from brandubh.core.weights import as_weights, load_weights, save_weights

TUNED = {"ring": 55, "freedom": 9, "lane_one": 240}


@pytest.fixture
def wfile(tmp_path):
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"weights": TUNED, "note": "by hand"}), encoding="utf-8")
    return str(path)


def test_save_then_load_gives_the_weights_and_keeps_the_notes(tmp_path):
    path = tmp_path / "out.json"
    save_weights(path, TUNED, variant="brandubh", step=7)
    assert load_weights(path) == TUNED
    body = json.loads(path.read_text(encoding="utf-8"))
    assert body["variant"] == "brandubh" and body["step"] == 7
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # no temporary file left


def test_a_bare_object_of_weights_is_read_too(tmp_path):
    path = tmp_path / "bare.json"
    path.write_text('{"ring": 12}', encoding="utf-8")
    assert load_weights(str(path)) == {"ring": 12}


@pytest.mark.parametrize("text, says", [
    ("not json", "not JSON"),
    ("[1, 2]", "holds no weights"),
    ('{"weights": {}}', "holds no weights"),
    ('{"weights": {"rink": 3}}', "no weight named 'rink'"),
    ('{"weights": {"ring": 1.5}}', "whole number"),
    ('{"weights": {"ring": 20000}}', "from -10000 to 10000"),
])
def test_a_bad_file_is_refused_with_what_is_wrong(tmp_path, text, says):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(WeightsError, match=says) as caught:
        load_weights(path)
    assert str(path) in str(caught.value) and isinstance(caught.value, ValueError)


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(WeightsError, match="cannot read"):
        Bot(3, weights=str(tmp_path / "none.json"))


def test_bad_weights_are_not_written(tmp_path):
    path = tmp_path / "out.json"
    with pytest.raises(ArgumentError):
        save_weights(path, {"ring": "many"})
    assert not path.exists()


def test_as_weights_takes_a_dict_a_path_or_nothing(wfile):
    assert as_weights(None) == {} and as_weights({"ring": 3}) == {"ring": 3}
    assert as_weights(wfile) == TUNED


def test_search_and_bot_play_the_file_as_they_play_the_dict(wfile):
    game = Rules()
    by_file = game.search(budget=3000, seed=3, weights=wfile)
    assert by_file == game.search(budget=3000, seed=3, weights=TUNED)
    open_king = Rules("7/7/2a4/3k3/7/7/a6 d")  # he sees escapes: lane_one and freedom count
    assert open_king.evaluate(wfile) == open_king.evaluate(TUNED) != open_king.evaluate()
    assert Bot(3, seed=1, weights=wfile).weights == TUNED
    bot_file, bot_dict = Bot(budget=2000, seed=1, weights=wfile), Bot(budget=2000, seed=1, weights=TUNED)
    for _ in range(6):
        move = bot_file.choose(game)
        assert move == bot_dict.choose(game)
        game.play(move)


def test_the_engine_setting_reads_the_file_and_a_written_weight_wins(wfile):
    assert parse_setting(f"budget=500,weights={wfile}") == {"budget": 500, "weights": TUNED}
    assert parse_setting(f"ring=7,weights={wfile}")["weights"] == {**TUNED, "ring": 7}
    with pytest.raises(ArgumentError, match="names no file"):
        parse_setting("weights=")


def test_match_takes_a_weights_file(wfile, capsys):
    code = main(["match", f"budget=300,weights={wfile}", "budget=300", "--games", "2", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out)["players"]["A"] == f"budget=300,weights={wfile}"


def test_codingame_export_builds_the_file_in_and_refuses_a_bad_one(wfile, tmp_path, capsys):
    out = tmp_path / "bot.c"
    assert main(["codingame", "--export", str(out), "--weights", wfile]) == 0
    text = out.read_text(encoding="utf-8")
    for name, value in TUNED.items():
        assert f"w.{name} = {value};" in text
    bad = tmp_path / "bad.json"
    bad.write_text('{"weights": {"rink": 1}}', encoding="utf-8")
    other = tmp_path / "other.c"
    assert main(["codingame", "--export", str(other), "--weights", str(bad)]) == 2
    assert "rink" in capsys.readouterr().err and not os.path.exists(other)


def test_the_codingame_bot_plays_with_the_file(wfile):
    from brandubh.codingame.bot import bot_chooser
    from brandubh.core.position import move_text

    game = Rules(variant="codingame")
    choose = bot_chooser(3, seed=2, weights=wfile)
    expected = Bot(3, seed=2, weights=TUNED).choose(game)
    assert move_text(choose(game, 6000)) == move_text(expected)

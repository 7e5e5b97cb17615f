"""Game records: the one reader of every game text (brandubh.records.read), the
record with its label, tags, marks and comments (brandubh.records), and
OpenTafl's game records (OTN) read and written.

The OpenTafl records under tests/data/opentafl are four games OpenTafl
0.4.8 wrote; what a test expects of them is read off the files here by a
few lines of its own (the turn lines' squares, the result tag), not by the
reader under test."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from brandubh import Game
from brandubh.cli import main
from brandubh.errors import ArgumentError, BrandubhError, VariantError
from brandubh.records import (GAME_FILE_LIMIT, GameRecord, load_game, load_record, read_record, read_records,
                              read_text_game, read_texts)
from brandubh.variant import Variant

DATA = Path(__file__).resolve().parent / "data" / "opentafl"
OTG = sorted(DATA.glob("*.otg"))
OPENTAFL = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: starti:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"


def _by_hand(text: str) -> tuple[list[str], str]:
    """The main line's moves (stored form) and the result tag of an OTN
    record, read with regular expressions of this test's own."""
    moves = []
    for line in text.splitlines():
        m = re.match(r"\s*[0-9]+\.\s+(.*)", line)
        if m:
            moves += ["".join(re.findall(r"[a-g][1-7]", word)[:2]) for word in m.group(1).split()]
    result = re.search(r"^\[result:(.*)\]$", text, re.M)
    return moves, result.group(1) if result else "?"


def test_the_data_is_there():
    assert len(OTG) == 4


# -- OpenTafl's records ----------------------------------------------------------------------


@pytest.mark.parametrize("path", OTG, ids=lambda p: p.name)
def test_opentafl_records_are_read(path):
    text = path.read_text()
    moves, said = _by_hand(text)
    record = read_record(text)
    game = record.game
    assert game.log == moves and len(moves) > 4
    assert game.variant == Variant.named("opentafl")
    # The result tag and the board agree: 1 the attackers won, -1 the
    # defenders, ? a game the board left going (decided on the clock).
    winner = game.side_of(game.winner) if game.winner else None
    assert {"1": "attackers", "-1": "defenders", "?": None}[said] == winner
    assert (game.status == "active") == (said == "?")
    # The clock readings are not comments; the tags are kept.
    assert record.comments == {} and record.marks == {}
    assert record.tags["compiler"] == "OpenTafl" and record.tags["date"] == "2026.12.02"


@pytest.mark.parametrize("path", OTG, ids=lambda p: p.name)
def test_opentafl_records_round_trip(path):
    record = read_record(path.read_text())
    written = record.as_otn()
    back = read_record(written)
    assert back.game.log == record.game.log and back.game.result == record.game.result
    assert back.tags == record.tags
    # Written as OpenTafl writes: its tags in its order, its rules tag last.
    tags = re.findall(r"^\[([a-z-]+):", written, re.M)
    assert tags[:3] == ["date", "result", "compiler"] and tags[-1] == "rules"
    assert f"[rules:{OPENTAFL}]" in written
    assert _by_hand(written) == _by_hand(path.read_text())


def test_the_last_capture_of_a_record_carries_no_mark_but_ends_the_game():
    text = (DATA / "t3-vs-b2M-game05.otg").read_text()
    assert "8. c3-d3xKd2 \n" in text
    game = read_record(text).game
    assert game.result.how == "capture" and game.shown[-1] == "c3-d3xd2#"


def test_a_game_from_here_goes_to_opentafl_and_back():
    # A game with a king's move, a capture and the king taken at the end,
    # under this package's brandubh rules (the rules tag written from them).
    moves = "d2c2 d3d2 f4f2 e4e2 b4b3 d4d3 f2f3 d5b5 d6d5 b5b6 d7d6 e2e4 g4g2 e4e2 g2f2 e2e3 f2e2 b6b5".split()
    game = Game.read("variant brandubh\nmoves " + " ".join(moves) + "\n")
    record = GameRecord(game, tags={"event": "a test"}, comments={0: "from the set-up", 3: "f-file | [wide]"},
                        marks={3: "?!", 17: "!"})
    written = record.as_otn()
    assert "9. f2-e2xd2 b6-b5 \n" in written and "3. b4-b3 Kd4-d3 \n" in written
    assert "[start-comment:from the set-up]" in written
    assert "[?! f-file / (wide)|]" in written  # | [ ] kept out of the comment line's syntax
    back = read_record(written)
    assert back.game.log == moves and back.game.variant.as_string() == back.game.variant.as_string()
    assert back.marks == {3: "?!", 17: "!"}
    assert back.comments == {0: "from the set-up", 3: "f-file / (wide)"}
    assert back.tags == {"event": "a test", "compiler": "brandubh"}


def test_a_resignation_and_an_agreed_draw_in_opentafl_records():
    game = Game.replay(["d1c1", "d3c3", "d2d1"]).game
    game.resign("p2")
    written = GameRecord(game).as_otn()
    assert "2. d2-d1 --- \n" in written and "[result:1]" in written
    back = read_record(written).game
    assert back.result.how == "resign" and back.side_of(back.winner) == "attackers" and back.log == game.log
    drawn = Game.replay(["d1c1"]).game
    drawn.offer_draw("p2")
    drawn.accept_draw("p1")
    written = GameRecord(drawn).as_otn()
    assert "[result:0]" in written
    again = read_record(written).game
    assert again.result.how == "agreed" and again.log == ["d1c1"]


def test_a_resignation_out_of_turn_and_a_fault_go_in_the_termination_tag():
    game = Game.replay(["d1c1"]).game
    game.resign("p1")  # the attackers give up while it is the defenders' move
    written = GameRecord(game).as_otn()
    assert "---" not in written and "[termination:the attackers resigned]" in written and "[result:-1]" in written
    back = read_record(written).game
    assert back.result.how == "resign" and back.side_of(back.winner) == "defenders"
    faulted = Game.replay(["d1c1"]).game
    faulted.forfeit("p2", "timeout")
    written = GameRecord(faulted).as_otn()
    assert "[termination:timeout: the defenders' program]" in written and "[result:1]" in written
    assert read_record(written).game.result.how == "timeout"
    # A termination tag that does not agree with the result tag is read past.
    odd = written.replace("[result:1]", "[result:-1]")
    assert read_record(odd).game.result is None


def _otn(body: str, rules: str = OPENTAFL, extra: str = "") -> str:
    return f"[date:2026.12.03]\n{extra}[rules:{rules}]\n\n{body}"


def test_variations_are_read_past():
    text = _otn("1. d1-e1 c4-c1\n[|]\n1a. d1-c1 d3-c3\n[a side line|]\n2b.1.1a. ..... a4-a3xa2\n"
                "2. b4-c4 c1-d1xd2\n[|]\n")
    record = read_record(text)
    assert record.game.log == ["d1e1", "c4c1", "b4c4", "c1d1"]
    assert record.comments == {}


def test_captures_the_king_letter_and_info_marks_are_read():
    text = (DATA / "t3-vs-b2M-game05.otg").read_text()
    marked = text.replace("Kd4-c4", "Kd4-c4-").replace("Kc2-b2", "Kc2-b2+").replace("xKd2", "xKd2++")
    assert marked != text
    assert read_record(marked).game.log == read_record(text).game.log
    two = read_text_game(_otn("1. d1-e1 c4-c1xd2/Kd3--\n"))  # read as written; the board decides later
    assert two.moves == ("d1e1", "c4c1")


def test_comments_marks_and_clocks():
    text = _otn("1. d1-e1 c4-c1\n[15 2/3 0i good move|?? a blunder]\n2. b4-c4\n[3 0/0 0i ]\n")
    record = read_record(text)
    assert record.comments == {1: "good move", 2: "a blunder"} and record.marks == {2: "??"}
    assert read_record(_otn("1. d1-e1\n[15 pieces stand]\n")).comments == {1: "15 pieces stand"}


def test_a_position_tag_starts_the_game_there():
    text = _otn("1. Kd4-d1 a1-a2\n", extra="[position:/t6/7/7/3K3/7/7/7/]\n",
                rules=OPENTAFL.replace("atkf:y", "atkf:n"))
    game = read_record(text).game
    assert game.start == "7/7/7/3k3/7/7/a6 d" and game.log == ["d4d1", "a1a2"]


@pytest.mark.parametrize("text, sentence", [
    (_otn("1. a1-a2\n", rules="dim:9 start:/9/9/9/9/4K4/9/9/9/9/"),
     "line 2 (the rules tag): dim:9: this package plays only the 7x7 board"),
    (_otn("1. d1-e1\n", rules=OPENTAFL.replace("ks:w", "ks:m")),
     "line 2 (the rules tag): ks:m: a strong king who can be taken against the edge has no equivalent here"),
    (_otn("1. d1-e1 c4-c1\n3. b4-c4\n"), "line 5: turn 3 of the main line follows turn 1"),
    (_otn("1. d1-e1\n2. c4-c1\n"), "line 4: a turn of one move that is not the last turn"),
    (_otn("1. d1-e1 hello\n"), "line 4: 'hello' is not a move in OpenTafl's notation"),
    (_otn("1. d1-e1 c4-c1\nhello\n"), "line 5: 'hello' is neither a turn"),
    ("[date:2026.12.03]\nhello\n", "line 2: 'hello' is not a tag of an OpenTafl record"),
    ("[date:1]\n[date:2]\n", "line 2: the date tag is given twice"),
    (_otn("1. d1-d4\n"), "line 4: move 1 (d1d4) is refused"),
    (_otn("1. --- c4-c1\n"), "line 4: a move after a resignation"),
])
def test_opentafl_records_refused_with_the_line(text, sentence):
    with pytest.raises(ArgumentError) as caught:
        read_record(text)
    assert str(caught.value).startswith(sentence), caught.value


def test_captures_that_the_rules_do_not_make_are_refused():
    # The board decides what a move takes; a record that says otherwise was
    # played under other rules, and is refused with the move's line.
    text = (DATA / "clock-20s-2sx3-game01.otg").read_text()
    assert "9. f2-e2xd2 b6-b5" in text
    for changed in (text.replace("f2-e2xd2", "f2-e2"), text.replace("f2-e2xd2", "f2-e2xd2/e3"),
                    text.replace("d5-d3xKe3", "d5-d3xe3")):
        with pytest.raises(ArgumentError, match=r"^line (32|47): move (17|27) \(.*\) takes .* but the record says"):
            read_record(changed)


def test_a_result_tag_that_contradicts_the_moves_is_refused():
    text = (DATA / "t3-vs-b2M-game05.otg").read_text().replace("[result:1]", "[result:-1]")
    with pytest.raises(ArgumentError, match="the result tag .* says the defenders' win, but the moves end in "
                                            "the attackers' win"):
        Game.from_text(text)


def test_rules_an_opentafl_record_cannot_hold_are_refused_when_writing():
    with pytest.raises(ArgumentError, match="an OpenTafl record cannot hold these rules"):
        GameRecord(Game(variant="codingame")).as_otn()


# -- this package's own text, annotated ------------------------------------------------------


def test_a_record_with_nothing_said_is_the_game_text():
    game = Game.replay(["d1c1", "d3c3"]).game
    assert GameRecord(game).as_text() == game.as_text()
    assert read_record(game.as_text()).game.log == game.log


def test_an_annotated_record_round_trips():
    game = Game.replay(["d1c1", "d3c3", "d2d1"]).game
    game.resign("p1")
    record = GameRecord(game, label="club night, board 2", tags={"annotator": "level 4", "event": "club"},
                        comments={0: "a quiet start", 2: "c3 {weak}\nnow", 3: "resigns next"},
                        marks={1: "!", 2: "??"})
    text = record.as_text()
    assert text == ("# club night, board 2\nvariant brandubh\ntag annotator level 4\ntag event club\n"
                    "moves {a quiet start} d1c1! d3c3?? {c3 (weak) now} d2d1 {resigns next}\n"
                    "result resign attackers\n")
    back = read_record(text)
    assert back.game.log == game.log and back.game.result == game.result
    assert (back.label, back.tags, back.marks) == (record.label, record.tags, record.marks)
    assert back.comments == {0: "a quiet start", 2: "c3 (weak) now", 3: "resigns next"}
    # and through OpenTafl's notation, the same things said
    again = read_record(record.as_otn())
    assert again.marks == record.marks and again.comments == back.comments
    assert again.game.log == game.log and again.game.result.how == "resign"


@pytest.mark.parametrize("kwargs, words", [
    ({"marks": {4: "?"}}, "no move 4 to mark"),
    ({"marks": {1: "?!?"}}, "is not a mark"),
    ({"comments": {-1: "x"}}, "no move -1 to comment on"),
    ({"tags": {"Bad": "x"}}, "is not a tag's name"),
])
def test_a_record_refuses_what_the_game_does_not_have(kwargs, words):
    with pytest.raises(ArgumentError, match=words):
        GameRecord(Game.replay(["d1c1"]).game, **kwargs)


# -- files of several games, and the other forms --------------------------------------------


GAMES_OUT = ("# game 1: A attackers, B defenders: corner; B wins (defenders), 2 moves\n"
             "variant brandubh\nmoves d1c1 d3c3\n\n"
             "# game 2: B attackers, A defenders: aborted; not counted, 3 moves\n"
             "variant brandubh\nmoves d2c2 d3d2 c2c3\n")


def test_a_blank_line_before_the_moves_line_is_read_past():
    # As game_parse reads a game text: blank lines inside it, lines in any order.
    assert Game.from_text("variant codingame\n\nstart 7/7/7/3k3/7/7/a6 d\n\nmoves d4d1\n").game.log == ["d4d1"]
    assert Game.from_text("moves d1c1\n\nvariant brandubh\n\nresult agreed\n").game.result.how == "agreed"
    assert [r.game.ply for r in read_records("variant brandubh\n\nmoves d1c1\n\nmoves\nvariant brandubh\n")] == [1, 0]


def test_a_file_of_games():
    records = read_records(GAMES_OUT)
    assert [r.label.split(":")[0] for r in records] == ["game 1", "game 2"]
    assert [r.game.ply for r in records] == [2, 3]
    assert read_record(GAMES_OUT, 2).game.log == ["d2c2", "d3d2", "c2c3"]
    assert Game.from_text(GAMES_OUT).game.log == ["d1c1", "d3c3"]
    assert Game.from_text(GAMES_OUT, number=2).game.ply == 3
    with pytest.raises(ArgumentError, match="the text holds 2 games, so there is no game 3"):
        Game.from_text(GAMES_OUT, number=3)


def test_labels_count_the_moves_the_game_has(tmp_path):
    # A match from an opening of two moves: the label counts them too.
    openings = tmp_path / "openings.txt"
    openings.write_text("moves d2c2 d3c3\n")
    out = tmp_path / "games.txt"
    assert main(["match", "level=1", "level=1", "--games", "2", "--jobs", "1", "--openings", str(openings),
                 "--games-out", str(out)]) == 0
    records = read_records(out.read_text())
    assert len(records) == 2
    for record in records:
        m = re.search(r"([0-9]+) moves? \(([0-9]+) of the opening\)", record.label)
        assert m is not None, record.label
        assert int(m.group(1)) == record.game.ply and int(m.group(2)) >= 2
        assert record.game.log[:2] == ["d2c2", "d3c3"]


def test_a_referee_record():
    text = json.dumps({"game": 3, "attackers": "new", "defenders": "old", "text": "variant codingame\nmoves d2c2\n"})
    record = read_record(text)
    assert record.game.log == ["d2c2"] and record.game.variant == Variant.named("codingame")
    assert record.label == "game 3" and record.tags == {"attackers": "new", "defenders": "old"}


@pytest.mark.parametrize("text, sentence", [
    ("", "there is no game in the text"),
    ("hello world\n", "line 1: 'hello world' is not a line of a game text"),
    ("variant brandubh\nmoves d1c1\n\nvariant brandubh\n", "line 4: the game that starts here has no moves line"),
    ("moves d1c1\n", "line 1: the game that starts here has no variant line"),
    ("variant brandubh\nstart 7/7\nmoves\n", "line 2: '7/7' is not a position"),
    ("variant brandubh\nmoves d1c1 {open\n", "line 2: a comment's brace is never closed"),
    ("variant brandubh\nmoves d1c1 d3-c3\n", "line 2: 'd3-c3' is not a move as a game text stores it"),
    ("variant brandubh\nmoves\nresult won\n", "line 3: 'won' is not a result"),
    ('{"text": 3}', 'a JSON game record needs a "text" field'),
])
def test_a_text_that_is_not_a_game_gets_one_sentence(text, sentence):
    with pytest.raises(ArgumentError) as caught:
        read_texts(text)
    assert str(caught.value).startswith(sentence), caught.value
    with pytest.raises(ArgumentError):
        Game.from_text(text)


def test_the_error_is_not_cut_short():
    long = "variant brandubh\nmoves d1c1\n" + "x" * 200
    with pytest.raises(ArgumentError) as caught:
        Game.from_text(long)
    assert str(caught.value).endswith("(variant, start, moves, result and tag lines)")


def test_a_bad_variant_keeps_its_error_class_and_gains_the_line():
    with pytest.raises(VariantError, match="^game 2, line 4: no preset named 'chess'"):
        read_records("variant brandubh\nmoves\n\nvariant chess\nmoves\n")


def test_openings_read_every_form(tmp_path):
    from brandubh.arena.openings import parse_openings

    got = parse_openings(GAMES_OUT, "brandubh")
    assert [o.moves for o in got] == [("d1c1", "d3c3"), ("d2c2", "d3d2", "c2c3")]
    otn = parse_openings((DATA / "clock-4s-game00.otg").read_text(), "opentafl")
    assert len(otn) == 1 and len(otn[0].moves) == 9
    with pytest.raises(BrandubhError, match="^openings, line 1: 'hello'"):
        parse_openings("hello")


# -- the commands --------------------------------------------------------------------------


def test_show_and_play_take_a_game_number_and_opentafl_records(tmp_path, capsys):
    path = tmp_path / "games.txt"
    path.write_text(GAMES_OUT)
    assert main(["show", str(path), "--game", "2", "--ascii"]) == 0
    assert "ply 3 of 3" in capsys.readouterr().out
    assert main(["show", str(path), "--game", "3"]) == 2
    assert "no game 3" in capsys.readouterr().err
    assert main(["show", str(OTG[0]), "--ascii"]) == 0
    assert "ply 27 of 27" in capsys.readouterr().out
    assert load_game(str(path), number=2).log == ["d2c2", "d3d2", "c2c3"]
    assert load_game(str(OTG[1])).ply == 9
    with pytest.raises(ArgumentError, match="games.txt: the text holds 2 games, so there is no game 5"):
        load_game(str(path), number=5)
    assert main(["play", "--game", "2"]) == 2
    assert "--game picks a game of the file --load reads" in capsys.readouterr().err


def test_serve_opens_an_opentafl_record():
    from brandubh.serve import read_games

    games = read_games(OTG[2].read_text())
    assert [(label, game.ply) for label, game in games] == [("game 1", 15)]


def test_the_pages_example_prints_what_it_says():
    page = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text()
    block = re.search(r"```python\n(.*?)```", page, re.S).group(1)
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/records.md", "exec"), {})
    assert out.getvalue().splitlines() == re.findall(r"# prints (.+)", block) == ["{2: '?!'}"]


# -- the one reading of a file ---------------------------------------------------------------


def test_every_game_file_is_read_within_the_one_bound(tmp_path, capsys):
    # A file one byte over the bound, each of whose lines is a game file's
    # (labels, then a game): refused unread by every reader of game files,
    # the openings' too (which read 64 MiB before there was one bound).
    from brandubh.arena.openings import load_openings

    game = "variant codingame\nmoves d2c2\n"
    label = "# " + "x" * 98 + "\n"
    big = tmp_path / "big.txt"
    big.write_text(label * ((GAME_FILE_LIMIT + 1 - len(game)) // len(label)) + game)
    with big.open("a") as f:
        f.write("#" * (GAME_FILE_LIMIT + 1 - big.stat().st_size) + "\n" + game)
    assert big.stat().st_size > GAME_FILE_LIMIT
    sentence = f"is larger than {GAME_FILE_LIMIT:,} bytes"
    for read in (lambda: load_game(str(big)), lambda: load_record(str(big)), lambda: load_openings(str(big))):
        with pytest.raises(BrandubhError, match=sentence):
            read()
    for command in (["show", str(big)], ["analyse", str(big), "--budget", "100"], ["play", "--load", str(big)]):
        assert main(command) == 2
        assert sentence in capsys.readouterr().err
    # Within the bound, each reads it (the labels read past).
    small = tmp_path / "small.txt"
    small.write_text(label * 1000 + game)
    assert load_game(str(small)).log == ["d2c2"] and load_openings(str(small))[0].moves == ("d2c2",)


def test_load_records_limit_is_read_past_with_a_warning(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("variant brandubh\nmoves d2c2\n")
    with pytest.warns(DeprecationWarning, match="limit= is read past"):
        assert load_record(str(path), limit=1).game.log == ["d2c2"]

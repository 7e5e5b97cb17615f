"""``brandubh show GAME_FILE [--ply N] [--svg OUT]``."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from brandubh.cli import main

# docs/rules.md's game text: the king runs to d1, then to the corner g1.
ESCAPE = "variant brandubh\nstart 7/7/7/3k3/7/7/a6 d\nmoves d4d1 a1a2 d1g1\n"

AFTER_TWO = """\
    a  b  c  d  e  f  g
  +---------------------+
7 | #  .  .  .  .  .  # | 7
6 | .  .  .  .  .  .  . | 6
5 | .  .  .  .  .  .  . | 5
4 | .  .  .  +  .  .  . | 4
3 | .  .  .  .  .  .  . | 3
2 |[A] .  .  .  .  .  . | 2
1 |[#] .  .  K  .  .  # | 1
  +---------------------+
    a  b  c  d  e  f  g
defenders (p2) to move; ply 2; last move a1-a2
rules brandubh; ply 2 of 3
moves: Kd4-d1 a1-a2
"""

AT_THE_END_UNICODE = """\
    a  b  c  d  e  f  g
  ┌─────────────────────┐
7 │ ⊠  ·  ·  ·  ·  ·  ⊠ │ 7
6 │ ·  ·  ·  ·  ·  ·  · │ 6
5 │ ·  ·  ·  ·  ·  ·  · │ 5
4 │ ·  ·  ·  ⊡  ·  ·  · │ 4
3 │ ·  ·  ·  ·  ·  ·  · │ 3
2 │ ●  ·  ·  ·  ·  ·  · │ 2
1 │ ⊠  ·  · [·] ·  · [♔]│ 1
  └─────────────────────┘
    a  b  c  d  e  f  g
game over after 3 moves: the king reached a corner, the defenders (p2) won; last move Kd1-g1++
rules brandubh; ply 3 of 3
moves: Kd4-d1 a1-a2 Kd1-g1++
"""


@pytest.fixture
def escape_file(tmp_path):
    path = tmp_path / "escape.txt"
    path.write_text(ESCAPE)
    return path


def test_show_a_ply(escape_file, capsys):
    assert main(["show", str(escape_file), "--ply", "2", "--ascii"]) == 0
    assert capsys.readouterr().out == AFTER_TWO
    assert main(["show", str(escape_file), "--ply", "-1", "--ascii"]) == 0
    assert capsys.readouterr().out == AFTER_TWO


def test_show_the_end_in_unicode(escape_file, capsys, monkeypatch):
    import io
    import sys

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["show", str(escape_file)]) == 0
    out.flush()
    assert out.buffer.getvalue().decode("utf-8") == AT_THE_END_UNICODE


def test_show_falls_back_to_ascii_when_the_output_cannot_write_unicode(escape_file, monkeypatch):
    import io
    import sys

    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["show", str(escape_file), "--ply", "2"]) == 0
    out.flush()
    assert out.buffer.getvalue().decode("ascii") == AFTER_TWO


def test_show_keeps_a_resignation(tmp_path, capsys):
    path = tmp_path / "resigned.txt"
    path.write_text("variant codingame\nmoves d2c2\nresult resign defenders\n")
    assert main(["show", str(path), "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "game over after 1 move: the defenders resigned; last move d2-c2" in out
    assert "rules codingame; ply 1 of 1" in out
    assert main(["show", str(path), "--ply", "1", "--ascii"]) == 0  # its own ply: the same game
    assert "the defenders resigned" in capsys.readouterr().out


def test_show_svg_to_a_file_and_to_standard_output(escape_file, tmp_path, capsys):
    out = tmp_path / "board.svg"
    assert main(["show", str(escape_file), "--ply", "1", "--svg", str(out), "--size", "200"]) == 0
    assert capsys.readouterr().out == f"wrote {out}: the board at ply 1 of 3\n"
    root = ET.fromstring(out.read_text())
    ns = "{http://www.w3.org/2000/svg}"
    pieces = sorted(tuple(g.get("class").split()[1:]) for g in root.iter(ns + "g")
                    if g.get("class", "").startswith("piece "))
    assert pieces == [("attacker", "a1"), ("king", "d1")]
    assert root.get("width") == "200"
    assert main(["show", str(escape_file), "--svg", "-"]) == 0
    text = capsys.readouterr().out
    root = ET.fromstring(text)
    pieces = sorted(tuple(g.get("class").split()[1:]) for g in root.iter(ns + "g")
                    if g.get("class", "").startswith("piece "))
    assert pieces == [("attacker", "a2"), ("king", "g1")]


def test_show_reads_standard_input(monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO(ESCAPE))
    assert main(["show", "-", "--ply", "2", "--ascii"]) == 0
    assert capsys.readouterr().out == AFTER_TWO


@pytest.mark.parametrize("text, args, message", [
    (ESCAPE, ["--ply", "4"], "--ply must be from -3 to 3 (the game has 3 moves), not 4"),
    ("variant brandubh\nmoves d1c1 d1d4\n", [], "move 2 (d1d4) is refused: d1 to d4: there is no piece on d1"),
    ("hello\n", [], "line 1: 'hello' is not a line of a game text"),
    ("variant brandubh\nmoves\n", ["--game", "2"], "the text holds 1 game, so there is no game 2"),
    ("variant brandubh\nmoves d1c1 d1d4\n", [], "line 2: move 2 (d1d4)"),
    ("variant nonsense\nmoves\n", [], "nonsense"),
])
def test_show_says_what_is_wrong(tmp_path, capsys, text, args, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    assert main(["show", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("brandubh show: ") and message in err, err


def test_show_a_missing_file(tmp_path, capsys):
    assert main(["show", str(tmp_path / "nowhere.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


ROOT = Path(__file__).resolve().parent.parent


def brandubh(*args: str, limit: int = 0, timeout: float = 60) -> subprocess.CompletedProcess:
    """The command in a child process; with ``limit``, its files cannot grow
    past that many bytes (RLIMIT_FSIZE: a disk that fills in the middle of
    a write)."""
    def set_limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "brandubh", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          preexec_fn=set_limit if limit else None)


def test_svg_on_a_full_disk_keeps_the_old_picture(escape_file, tmp_path):
    out = tmp_path / "board.svg"
    assert brandubh("show", str(escape_file), "--ply", "1", "--svg", str(out)).returncode == 0
    old = out.read_bytes()
    assert len(old) > 4096
    done = brandubh("show", str(escape_file), "--svg", str(out), limit=4096)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"brandubh show: cannot write {str(out)!r}: File too large; nothing was changed")
    assert out.read_bytes() == old                                  # not 4,096 bytes of a cut-off picture
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.svg", "escape.txt"]


def test_svg_through_a_link_puts_a_new_picture_in_place(escape_file, tmp_path):
    target = tmp_path / "picture.svg"
    target.write_text("the old picture")
    other_name = tmp_path / "kept.svg"           # a second name of the old picture (a hard link)
    os.link(target, other_name)
    link = tmp_path / "board.svg"
    link.symlink_to(target)
    assert main(["show", str(escape_file), "--svg", str(link)]) == 0
    assert link.is_symlink() and target.read_text().startswith("<svg")
    assert other_name.read_text() == "the old picture"   # written beside and moved in, not over the old one


@pytest.mark.parametrize("command", [("show",), ("play", "--load")])
def test_a_fifo_with_no_writer_is_refused_not_waited_on(tmp_path, command):
    fifo = tmp_path / "game.txt"
    os.mkfifo(fifo)
    try:
        done = brandubh(*command, str(fifo), timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"brandubh {command[0]} waited on a FIFO with no writer")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"brandubh {command[0]}: cannot read the game file {str(fifo)!r}: "
                                  "it is not a regular file")


@pytest.mark.parametrize("command", ["show", "play"])
def test_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: brandubh {command}") and "examples:" in out

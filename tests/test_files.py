"""brandubh.files: a file written whole or not at all, and read within a
bound (what every command that writes or reads a file a person named goes
through)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from brandubh.errors import ArgumentError
from brandubh.files import WholeFile, check_writable, read_text, write_whole

FULL = Path("/dev/full")


def test_a_new_file_and_a_replaced_one(tmp_path):
    path = tmp_path / "a.txt"
    write_whole(path, "one\n")
    assert path.read_text() == "one\n"
    os.chmod(path, 0o640)
    write_whole(path, b"two\n")
    assert path.read_bytes() == b"two\n"
    assert (path.stat().st_mode & 0o777) == 0o640          # the old file's mode kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]   # no temporary file left


def test_a_link_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_whole(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


@pytest.mark.parametrize("name", ["/dev/null", "/dev/full", "FOLDER"])
def test_what_is_not_a_regular_file_is_refused_and_left_as_it_was(tmp_path, name):
    where = tmp_path if name == "FOLDER" else Path(name)
    if not where.exists():
        pytest.skip(f"no {name} here")
    before = where.stat()
    with pytest.raises(ArgumentError, match="not a regular file"):
        write_whole(where, "x")
    with pytest.raises(ArgumentError, match="not a regular file"):
        check_writable(where)
    after = where.stat()
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)


def test_a_missing_folder_is_refused_and_not_made(tmp_path):
    with pytest.raises(ArgumentError, match="there is no folder"):
        write_whole(tmp_path / "no" / "such" / "file.txt", "x")
    with pytest.raises(ArgumentError, match="there is no folder"):
        check_writable(tmp_path / "no" / "file.txt")
    assert not (tmp_path / "no").exists()


def test_a_failed_write_keeps_the_old_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "game.txt"
    path.write_text("the old game\n")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)   # the disk fills as the new version is written
    with pytest.raises(ArgumentError, match="No space left on device; nothing was changed"):
        write_whole(path, "the new game\n" * 1000)
    assert path.read_text() == "the old game\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt"]


def test_a_nul_in_a_name_is_a_sentence(tmp_path):
    with pytest.raises(ArgumentError, match="NUL"):
        write_whole(str(tmp_path / "a\0b"), "x")
    with pytest.raises(ArgumentError, match="NUL"):
        read_text(str(tmp_path / "a\0b"))


def test_reading_is_bounded(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("x" * 101)
    assert read_text(path, limit=101) == "x" * 101
    with pytest.raises(ArgumentError, match="larger than 100 bytes"):
        read_text(path, limit=100, what="game file")
    if Path("/dev/zero").exists():
        with pytest.raises(ArgumentError, match="not a regular file"):
            read_text("/dev/zero", limit=1 << 16)
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9")
    with pytest.raises(ArgumentError, match="not UTF-8"):
        read_text(tmp_path / "latin.txt")
    with pytest.raises(ArgumentError, match="cannot read"):
        read_text(tmp_path / "missing.txt")


def test_weights_files_go_through_it(tmp_path):
    from brandubh.core.weights import load_weights, save_weights
    from brandubh.errors import WeightsError

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    with pytest.raises(WeightsError, match="nested too deep|not JSON"):
        load_weights(deep)
    if Path("/dev/zero").exists():
        with pytest.raises(WeightsError, match="not a regular file"):
            load_weights("/dev/zero")
    if FULL.exists():
        with pytest.raises(ArgumentError, match="not a regular file"):
            save_weights(FULL, {"ring": 40})
        assert FULL.is_char_device()


def in_a_child_whose_files_are_limited(limit: int, code: str) -> subprocess.CompletedProcess:
    """``code`` run by a Python child whose files cannot grow past ``limit``
    bytes (RLIMIT_FSIZE): a disk that fills, for real, in the middle of a write."""
    import resource

    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=set_limit, env={**os.environ, "PYTHONPATH": str(root)})


def test_a_disk_that_fills_while_a_file_is_written_keeps_the_old_one(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("the old file\n")
    done = in_a_child_whose_files_are_limited(4096, f"""
from brandubh.files import write_whole
from brandubh.errors import ArgumentError
try:
    write_whole({str(path)!r}, 'x' * 10_000)
except ArgumentError as error:
    print(error)
""")
    assert done.returncode == 0 and "File too large; nothing was changed" in done.stdout, done.stderr
    assert path.read_text() == "the old file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt"]


def test_a_file_written_in_pieces_is_put_in_place_whole(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"old")
    target = tmp_path / "target.bin"
    target.write_bytes(b"old")
    link = tmp_path / "link.bin"
    link.symlink_to(target)
    for where in (path, link):
        with WholeFile(where) as new:
            new.file.write(b"0000 records")
            assert where.read_bytes() == b"old"             # nothing in place before the end
            new.file.seek(0)
            new.file.write(b"1234")                         # a header filled in at the end
    assert path.read_bytes() == b"1234 records" and target.read_bytes() == b"1234 records"
    assert link.is_symlink()
    with pytest.raises(KeyboardInterrupt):
        with WholeFile(path) as new:
            new.file.write(b"half")
            raise KeyboardInterrupt
    assert path.read_bytes() == b"1234 records"
    with pytest.raises(ArgumentError, match="nothing was changed"):
        with WholeFile(path) as new:
            raise OSError(28, "No space left on device")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.bin", "link.bin", "target.bin"]
    with pytest.raises(ArgumentError, match="not a regular file"):
        WholeFile("/dev/null")


def test_a_disk_that_fills_while_a_file_is_written_in_pieces_keeps_the_old_one(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"old")
    done = in_a_child_whose_files_are_limited(100_000, f"""
from brandubh.files import WholeFile
from brandubh.errors import ArgumentError
try:
    with WholeFile({str(path)!r}) as new:
        for _ in range(1000):
            new.file.write(b'x' * 1000)
except ArgumentError as error:
    print(error)
""")
    assert "File too large; nothing was changed" in done.stdout, done.stderr
    assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["data.bin"]


def test_a_fifo_with_no_writer_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "game.txt"
    os.mkfifo(fifo)
    said: list = []

    def read() -> None:
        try:
            read_text(fifo, what="game file")
        except ArgumentError as error:
            said.append(str(error))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(20)
    if reader.is_alive():   # stuck waiting for a writer: let it go, and fail
        with open(fifo, "w"):
            pass
        reader.join(5)
        pytest.fail("read_text waited on a FIFO with no writer")
    assert said and "is not a regular file" in said[0] and "game file" in said[0]

"""``brandubh host`` loses nothing and holds nothing: a change its store
could not write (a disk really full, a store that is read-only), a second
server on the same store, records it cannot read, and the timers of its
clocks.

The full disks are real: a child process whose files are limited in size
(``RLIMIT_FSIZE``), or a small tmpfs filled to the brim where this machine
lets the tests mount one (as root). No test asserts a time: each waits for
what it expects, however long the machine takes, up to a generous bound."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator, Optional

import pytest

from conftest import PATIENCE, wait_until

from brandubh.host.api import HostApi
from brandubh.host.client import BotClient, HostError
from brandubh.host.hub import Hub
from brandubh.host.store import Store, StoreError




def _env() -> dict:
    # The server runs the brandubh this test imports, wherever it is installed.
    import brandubh

    where = str(Path(brandubh.__file__).resolve().parent.parent)
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [where, os.environ.get("PYTHONPATH")])))


def start_host(db: Path, *args: str, fsize: Optional[int] = None) -> tuple[subprocess.Popen, Optional[str]]:
    """``brandubh host --port 0 --db DB`` in a child process (its files
    limited to ``fsize`` bytes when given): the process, and its address,
    or None when it stopped instead of serving."""
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    process = subprocess.Popen([sys.executable, "-m", "brandubh", "host", "--port", "0", "--db", str(db), *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
                               cwd=db.parent, preexec_fn=limit if fsize is not None else None)
    line = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    return process, (f"http://127.0.0.1:{found.group(1)}" if found else None)


def kill(process: subprocess.Popen) -> str:
    """SIGKILL, as a crash: what the process wrote on standard error."""
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    _, err = process.communicate(timeout=PATIENCE)
    return err


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "1m") -> Iterator[Path]:
    """A small tmpfs mounted at ``where`` for the test; skipped where the
    tests may not mount one."""
    where.mkdir()
    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root on Linux")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(folder: Path) -> Path:
    """Fill the disk ``folder`` is on to the last byte: the filler file."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        block = b"\0" * 65536
        while True:
            try:
                f.write(block)
            except OSError as error:
                assert error.errno in (errno.ENOSPC, errno.EFBIG), error
                break
        while True:  # the last few bytes too
            try:
                if not f.write(b"\0"):
                    break
            except OSError:
                break
    return filler


# -- 1. a change the store could not write changes nothing --------------------------------------


def _change(a: BotClient, d: BotClient, state: dict) -> dict:
    """One stored change: the attackers offer a draw, or the defenders decline it."""
    return a.act("draw-offer") if state["draw_offer"] is None else d.act("draw-decline")


@pytest.mark.skipif(sys.platform != "linux", reason="limits the server's file size (Linux)")
def test_a_change_the_full_disk_refused_changed_nothing_and_a_change_answered_is_kept(tmp_path):
    db = tmp_path / "full.sqlite"
    # The server's files may not grow past 128 KiB: its write-ahead log fills after some ten changes.
    process, url = start_host(db, fsize=128 * 1024)
    assert url, kill(process)
    try:
        made = BotClient.create(url, {"side": "attackers"})
        a = BotClient(url, made["id"], made["token"])
        d = BotClient(url, made["id"], made["invite_token"])
        stored = a.state()
        refused = None
        for _ in range(400):
            try:
                stored = _change(a, d, stored)
            except HostError as error:
                refused = error
                break
        assert refused is not None, "the store never filled"
        # The answer says that nothing changed, and shows the game as it was.
        assert refused.status == 503 and refused.answer["code"] == "not_stored", refused.answer
        assert "nothing changed" in str(refused) and "Traceback" not in str(refused)
        assert refused.answer["game"]["version"] == stored["version"]
        # Nothing changed in memory either: the game is as last answered, and the same
        # request, sent again, is refused for the same reason (not as out of turn, nor as
        # an offer already waiting).
        now = a.state()
        assert (now["version"], now["draw_offer"], now["text"]) == (stored["version"], stored["draw_offer"],
                                                                    stored["text"])
        with pytest.raises(HostError) as again:
            _change(a, d, stored)
        assert again.value.status == 503 and again.value.answer["code"] == "not_stored"
        # A new game cannot be stored either: none is made.
        with pytest.raises(HostError) as new:
            BotClient.create(url, {})
        assert new.value.status == 503 and "no game was made" in str(new.value)
    finally:
        err = kill(process)
    assert "Traceback" not in err and "could not store" in err, err
    # Started again with room to write: every change answered is there, the refused ones are not.
    process, url = start_host(db)
    assert url, kill(process)
    try:
        back = BotClient(url, made["id"], made["token"]).state()
        assert (back["version"], back["draw_offer"], back["text"]) == (stored["version"], stored["draw_offer"],
                                                                       stored["text"])
        a, d = BotClient(url, made["id"], made["token"]), BotClient(url, made["id"], made["invite_token"])
        assert _change(a, d, back)["version"] == back["version"] + 1
    finally:
        kill(process)


def test_on_a_disk_that_fills_nothing_is_sent_and_a_flag_falls_once_it_can_be_stored(tmp_path):
    with tmpfs(tmp_path / "disk") as disk:
        log = io.StringIO()
        hub = Hub(Store(str(disk / "games.sqlite")), seed="full", log=log)
        try:
            made = hub.create({"side": "attackers"}, client="a")
            timed = hub.create({"side": "attackers", "clock": "0.02+0"}, client="a")   # 1.2 seconds each
            game_id, mine = made["id"], made["token"]
            follower, _ = hub.follow(game_id)
            before = hub.state(game_id)
            filler = fill(disk)
            with pytest.raises(Exception) as refused:
                hub.act(game_id, mine, "move", {"move": "d2c2"})
            assert getattr(refused.value, "status", None) == 503 and "nothing changed" in str(refused.value)
            assert follower.queue.empty()                   # no one was sent the move
            assert hub.state(game_id) == before             # and the game in memory is as it was
            with pytest.raises(Exception) as refused:       # the retry: refused for the same reason
                hub.act(game_id, mine, "move", {"move": "d2c2"})
            assert getattr(refused.value, "status", None) == 503
            # The timed game's first move cannot be stored: its clock does not start.
            with pytest.raises(Exception):
                hub.act(timed["id"], timed["token"], "move", {"move": "d2c2"})
            assert hub.state(timed["id"])["running"] is None
            filler.unlink()                                  # room again
            state = hub.act(game_id, mine, "move", {"move": "d2c2"})
            assert state["moves"] == ["d2-c2"] and json.loads(follower.queue.get(timeout=PATIENCE).data)["ply"] == 1
            # A flag that falls while the disk is full falls once it can be stored.
            hub.act(timed["id"], timed["token"], "move", {"move": "d2c2"})   # the defenders' clock runs
            mark = len(log.getvalue())
            filler = fill(disk)
            assert wait_until(lambda: timed["id"] in log.getvalue()[mark:])
            assert hub.state(timed["id"])["status"] == "active"
            filler.unlink()
            assert wait_until(lambda: hub.state(timed["id"])["status"] == "finished")
            assert hub.state(timed["id"])["winner"] == "attackers"
        finally:
            hub.close()
            hub.store.close()
        again = Store(str(disk / "games.sqlite"))
        try:
            assert {game_id for game_id, _ in again.active()} == {game_id}
        finally:
            again.close()


def test_a_bots_move_the_full_disk_refused_is_played_once_it_can_be_stored(tmp_path):
    import threading

    from brandubh import Game

    gate = threading.Event()

    class Gated:
        """The first legal move, once the test opens the gate."""

        level = 1

        def choose(self, game):
            assert gate.wait(PATIENCE)
            return game.legal()[0].move

        def accepts_draw(self, game, side):
            return False

    with tmpfs(tmp_path / "disk") as disk:
        log = io.StringIO()
        hub = Hub(Store(str(disk / "games.sqlite")), seed="bot", log=log, make_bot=lambda level, seed: Gated())
        try:
            made = hub.create({"side": "attackers", "opponent": "bot", "level": 1}, client="a")
            hub.act(made["id"], made["token"], "move", {"move": "d2c2"})   # the bot thinks, at the gate
            filler = fill(disk)
            gate.set()
            assert wait_until(lambda: made["id"] in log.getvalue())        # its move could not be stored
            assert hub.state(made["id"])["ply"] == 1
            filler.unlink()
            assert wait_until(lambda: hub.state(made["id"])["ply"] == 2)   # and is played now
            assert Game.read(hub.state(made["id"])["text"]).log[0] == "d2c2"
        finally:
            gate.set()
            hub.close()
            hub.store.close()


class Idle:
    """A stand-in for the server's bot that never moves (so that no search runs)."""

    level = 1

    def choose(self, game):
        return None

    def accepts_draw(self, game, side):
        return False


@pytest.fixture
def unwritable(tmp_path) -> Iterator[Path]:
    """A store with a game in it that is now read-only, in a folder that is
    not: a read-only bind mount of the file as root, a file without write
    permission otherwise."""
    db = tmp_path / "games.sqlite"
    store = Store(str(db))
    hub = Hub(store, make_bot=lambda level, seed: Idle())
    hub.create({}, client="a")
    hub.close()
    store.close()
    if os.geteuid() != 0:
        db.chmod(0o444)
        yield db
        return
    if sys.platform != "linux":
        pytest.skip("a read-only bind mount needs Linux")
    done = subprocess.run(["mount", "--bind", str(db), str(db)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot bind-mount the store here: {done.stderr.strip()}")
    try:
        done = subprocess.run(["mount", "-o", "remount,ro,bind", str(db)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot make the store read-only here: {done.stderr.strip()}")
        yield db
    finally:
        subprocess.run(["umount", str(db)], capture_output=True)


def test_a_store_that_cannot_be_written_is_refused_at_start(unwritable):
    process, url = start_host(unwritable)
    err = kill(process)
    assert url is None and process.returncode == 2, err
    assert err.startswith("brandubh host: ") and str(unwritable) in err and "Traceback" not in err, err
    assert "cannot be written" in err, err


# -- 2. one store, one server ---------------------------------------------------------------------


def test_a_second_server_on_the_same_store_refuses_to_start_naming_the_first(tmp_path):
    db = tmp_path / "shared.sqlite"
    first, url = start_host(db)
    assert url, kill(first)
    try:
        second, other = start_host(db)
        err = kill(second)
        assert other is None and second.returncode == 2, err
        assert f"in use by another brandubh host (process {first.pid})" in err and str(db) in err, err
        assert "Traceback" not in err
        # The first serves on, alone.
        made = BotClient.create(url, {"side": "attackers"})
        assert BotClient(url, made["id"], made["token"]).move("d2c2")["ply"] == 1
    finally:
        kill(first)
    # Once it is gone (killed: no chance to tidy up), the store is free again.
    third, url = start_host(db)
    try:
        assert url and BotClient(url, made["id"]).state()["ply"] == 1
    finally:
        kill(third)


def test_a_store_is_held_by_one_store_object_at_a_time_in_a_process_too(tmp_path):
    path = str(tmp_path / "one.sqlite")
    held = Store(path)
    try:
        with pytest.raises(StoreError, match=rf"in use by another brandubh host \(process {os.getpid()}\)"):
            Store(path)
    finally:
        held.close()
    Store(path).close()   # let go by close


# -- 4. a record the server cannot read is set aside, and the others are served -----------------


def _spoil(db: Path) -> dict[str, str]:
    """A store with four games in play, three of them spoiled each in its
    own way: game id to the fault."""
    store = Store(str(db))
    hub = Hub(store, seed="spoil")
    ids = [hub.create({"clock": "5+3"}, client="a")["id"] for _ in range(4)]
    hub.close()
    store.close()
    faults = {}
    with contextlib.closing(sqlite3.connect(str(db))) as raw:
        records = {i: json.loads(r) for i, r in raw.execute("SELECT id, record FROM games")}
        raw.execute("UPDATE games SET record = ? WHERE id = ?", ("{not json", ids[1]))
        faults[ids[1]] = "not JSON"
        spoiled = records[ids[2]]
        del spoiled["seats"]["p2"]["kind"]
        raw.execute("UPDATE games SET record = ? WHERE id = ?", (json.dumps(spoiled), ids[2]))
        faults[ids[2]] = "kind"
        spoiled = records[ids[3]]
        spoiled["clock"]["left"]["attackers"] = "soon"
        raw.execute("UPDATE games SET record = ? WHERE id = ?", (json.dumps(spoiled), ids[3]))
        faults[ids[3]] = "number"
        raw.commit()
    faults[ids[0]] = ""
    return faults


def _records(db: Path) -> dict[str, str]:
    with contextlib.closing(sqlite3.connect(str(db))) as raw:
        return dict(raw.execute("SELECT id, record FROM games"))


def test_records_that_cannot_be_read_are_set_aside_untouched_and_the_others_served(tmp_path):
    db = tmp_path / "spoiled.sqlite"
    faults = _spoil(db)
    good = next(i for i, fault in faults.items() if not fault)
    rows = _records(db)
    process, url = start_host(db)
    try:
        assert url, kill(process)
        assert BotClient(url, good).state()["status"] == "active"
        made = BotClient.create(url, {})                               # and new games are made
        assert BotClient(url, made["id"]).state()["ply"] == 0
        for game_id, fault in faults.items():
            if fault:   # a clear refusal, not a server's failure
                with pytest.raises(HostError) as refused:
                    BotClient(url, game_id).state()
                assert refused.value.status == 404 and "set aside" in str(refused.value)
        listed = BotClient(url, good)._ask("GET", "/api/host/games")
        assert listed == {"finished": []}
    finally:
        err = kill(process)
    # Each spoiled game is named with its fault on standard error, and left as it was in the store.
    for game_id, fault in faults.items():
        line = next((line for line in err.splitlines() if game_id in line), "")
        if fault:
            assert "set aside" in line and fault in line, err
        else:
            assert not line, err
    assert "Traceback" not in err, err
    after = _records(db)
    assert all(after[game_id] == rows[game_id] for game_id in faults)
    # Started again, the server names them again (an operator may have missed the first time).
    process, url = start_host(db)
    err = kill(process)
    assert url and all(game_id in err for game_id, fault in faults.items() if fault), err


@pytest.mark.parametrize("spoil, words", [
    (lambda r: r.update(text=5), "text"),
    (lambda r: r.update(text="variant brandubh\nmoves z9z9\n"), "game text"),
    (lambda r: r.update(attackers="p3"), "attackers"),
    (lambda r: r.update(seats=[]), "seats"),
    (lambda r: r["seats"].update(p2={"kind": "bot", "level": 99}), "level"),
    (lambda r: r["seats"].update(p1={"kind": "player"}), "token"),
    (lambda r: r.update(clock={"base_ms": 1}), "clock"),
    (lambda r: r["clock"].update(running="nobody"), "running"),
    (lambda r: r["clock"].update(since=None), "since"),
    (lambda r: r.update(draw="p9"), "draw"),
    (lambda r: r.update(version="x"), "version"),
    (lambda r: r["seats"]["p1"].update(rating=["<b>"]), "rating"),
], ids=["text-not-text", "text-not-a-game", "attackers", "seats", "level", "token", "clock", "running", "since",
        "draw", "version", "rating"])
def test_each_fault_of_a_record_is_named(tmp_path, spoil, words):
    path = str(tmp_path / "one.sqlite")
    store = Store(path)
    hub = Hub(store, seed="x", log=io.StringIO(), make_bot=lambda level, seed: Idle())
    made = hub.create({"clock": "5+3", "opponent": "bot", "side": "defenders"}, client="a")
    hub.close()
    store.close()
    with contextlib.closing(sqlite3.connect(path)) as raw:
        record = json.loads(raw.execute("SELECT record FROM games").fetchone()[0])
        spoil(record)
        raw.execute("UPDATE games SET record = ?", (json.dumps(record),))
        raw.commit()
    log = io.StringIO()
    store = Store(path)
    hub = Hub(store, seed="x", log=log, make_bot=lambda level, seed: Idle())
    try:
        assert hub.open_games() == 0 and list(hub.set_aside) == [made["id"]]
        line = log.getvalue()
        assert made["id"] in line and words in line and "set aside" in line, line
    finally:
        hub.close()
        store.close()


# -- 5. the clocks' timers ---------------------------------------------------------------------------


def test_refused_actions_leave_no_timer_behind_and_each_game_has_one_at_most(hub_factory):
    hub = hub_factory()
    timed = [hub.create({"side": "attackers", "clock": "30+20"}, client="a") for _ in range(3)]
    untimed = hub.create({"side": "attackers"}, client="a")
    for made in timed:
        hub.act(made["id"], made["token"], "move", {"move": "d2c2"})   # its clock runs
    assert hub.timers == 3
    for _ in range(300):   # out of turn: refused, every one
        with pytest.raises(Exception, match="not yours"):
            hub.act(timed[0]["id"], timed[0]["token"], "move", {"move": "d3c3"})
        with pytest.raises(Exception, match="not yours"):
            hub.act(untimed["id"], untimed["invite_token"], "move", {"move": "d3c3"})
    assert hub.timers == 3
    # Moves played back and forth change each deadline, never the count; an ended game has none.
    moves = ["d3c3", "c2d2", "c3d3", "d2c2"]
    for number in range(4):   # (once round: a position met a third time would end the game)
        move = moves[number % 4]
        hub.act(timed[1]["id"], timed[1]["token" if number % 2 else "invite_token"], "move", {"move": move})
    assert hub.timers == 3
    hub.act(timed[2]["id"], timed[2]["token"], "resign", {})
    assert hub.timers == 2


@pytest.fixture
def hub_factory(tmp_path):
    made = []

    def make(**kw):
        hub = Hub(Store(str(tmp_path / f"h{len(made)}.sqlite")), seed="t", **kw)
        made.append(hub)
        return hub

    yield make
    for hub in made:
        hub.close()
        hub.store.close()

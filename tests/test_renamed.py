"""Names renamed in 0.2.0 keep working for one release, each with a
DeprecationWarning that names the new one (brandubh/deprecation.py,
CHANGELOG.md's "Deprecated"): old modules still import and give the same
objects, old names of a module give the new name's object.

Each warning is attributed to the line that used the old name (this file),
so that Python's default filter shows it to a script that uses one."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest

import brandubh

# An old module -> the names it gave, each with the module that is now its home.
MOVED_MODULES = {
    "brandubh.core.record": {
        "Rules": "brandubh.core.rules", "PLAY_OK": "brandubh.core.rules", "Outcome": "brandubh.core.outcomes",
        "outcome_name": "brandubh.core.outcomes", "BY_CORNER": "brandubh.core.outcomes",
        "perft": "brandubh.core.perft", "divide": "brandubh.core.perft", "PerftStats": "brandubh.core.perft",
        "PlayoutStats": "brandubh.core.playouts", "timed_table_mb": "brandubh.core.search",
    },
    "brandubh.arena.process": {
        "ProcessPlayer": "brandubh.arena.process_player", "split_command": "brandubh.arena.process_player",
        "check_command": "brandubh.arena.process_player", "DEFAULT_STDERR_LIMIT": "brandubh.arena.process_player",
        "own_process": "brandubh.arena.reaping", "sweep_orphans": "brandubh.arena.reaping",
        "become_subreaper": "brandubh.arena.reaping", "marked": "brandubh.arena.reaping",
        "Registry": "brandubh.arena.reaping", "PROTOCOLS": "brandubh.arena.protocols",
        "rules_differ": "brandubh.arena.protocols",
    },
    "brandubh.codingame.host": {"RULES": "brandubh.codingame.driver", "TITLE": "brandubh.codingame.driver"},
    "brandubh.opentafl.host": {},
    "brandubh.opentafl.engine": {
        "OpenTaflEngine": "brandubh.opentafl.bot", "Clock": "brandubh.opentafl.bot", "serve": "brandubh.opentafl.bot",
        "write_ini": "brandubh.opentafl.bot", "MARGIN_MS": "brandubh.opentafl.bot",
    },
    "brandubh.arena.engine": {"parse_setting": "brandubh.arena.bot_player", "make_bot": "brandubh.arena.bot_player"},
    "brandubh.serve.host.client": {"BotClient": "brandubh.host.client", "HostError": "brandubh.host.client"},
}

# Names an old module gave that are renamed in their new home: old -> (home, new).
OLD_NAMES_IN_MOVED_MODULES = {
    "brandubh.arena.engine": {"EnginePlayer": ("brandubh.arena.bot_player", "BotPlayer")},
    "brandubh.codingame.host": {"Session": ("brandubh.codingame.driver", "Driver"),
                                "JUDGED_BY_THE_HOST": ("brandubh.codingame.driver", "JUDGED_BY_THE_ARENA")},
    "brandubh.opentafl.host": {"Session": ("brandubh.opentafl.driver", "Driver")},
}

# (module, old name, new module, new name): the old name of a module.
RENAMED = [
    ("brandubh", "Engine", "brandubh.core.position", "Position"),
    ("brandubh.core.position", "Engine", "brandubh.core.position", "Position"),
    ("brandubh.arena", "EnginePlayer", "brandubh.arena", "BotPlayer"),
]


def _fresh_import(name: str):
    """``name`` imported again, as a program that had not imported it yet
    would: its first import is the one that warns."""
    sys.modules.pop(name, None)
    return importlib.import_module(name)


@pytest.mark.parametrize("old", sorted(MOVED_MODULES))
def test_an_old_module_warns_and_gives_the_same_names(old):
    with pytest.warns(DeprecationWarning, match=f"the module {old} is deprecated and goes in brandubh 0.3.0") as seen:
        module = _fresh_import(old)
    message = str(seen[0].message)
    for name, home in MOVED_MODULES[old].items():
        assert getattr(module, name) is getattr(importlib.import_module(home), name), name
        assert home in message, (home, message)
    for name, (home, new) in OLD_NAMES_IN_MOVED_MODULES.get(old, {}).items():
        assert getattr(module, name) is getattr(importlib.import_module(home), new), name
    assert seen[0].filename == __file__  # the line that imported it, past the import system


@pytest.mark.parametrize("module, old, home, new", RENAMED)
def test_an_old_name_warns_on_every_use_and_gives_the_new(module, old, home, new):
    target = getattr(importlib.import_module(home), new)
    for _ in range(2):  # not kept: the second use warns too
        with pytest.warns(DeprecationWarning, match=f"{module}.{old} is deprecated .* use {home}.{new}") as seen:
            value = getattr(importlib.import_module(module), old)
        assert value is target
        assert seen[0].filename == __file__  # the line that used it, not the machinery's


def test_the_old_protocol_look_ups_still_give_a_session():
    with pytest.warns(DeprecationWarning):
        process = _fresh_import("brandubh.arena.process")
    from brandubh.codingame.driver import Driver

    with pytest.warns(DeprecationWarning, match="brandubh.codingame.host"):
        sys.modules.pop("brandubh.codingame.host", None)
        host = process.protocol_host("codingame")
    assert host.Session is Driver
    session = process.protocol_session("codingame", "codingame", "p1")
    assert isinstance(session, Driver) and session.read("d2 c2") == ("d2c2", None)
    with pytest.raises(ValueError, match="not a wire protocol this package speaks"):
        process.protocol_host("telnet")


def test_an_old_name_is_not_offered():
    # Not in __all__ nor dir(): `from brandubh import *` and completion
    # offer only the new names, and warn about nothing.
    assert "Engine" not in brandubh.__all__ and "Engine" not in dir(brandubh) and "Position" in brandubh.__all__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exec("from brandubh import *", {})
    with pytest.raises(AttributeError, match="no attribute 'Engin'"):
        brandubh.Engin  # noqa: B018


def test_a_script_is_shown_the_warning_by_default(tmp_path):
    # Python's default filter shows a DeprecationWarning only when it is
    # attributed to __main__: it is, for an import and for a name.
    script = tmp_path / "old.py"
    script.write_text("import brandubh.core.record\nimport brandubh\nbrandubh.Engine\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert f"{script}:1: DeprecationWarning: the module brandubh.core.record" in run.stderr, run.stderr
    assert f"{script}:3: DeprecationWarning: brandubh.Engine is deprecated" in run.stderr, run.stderr

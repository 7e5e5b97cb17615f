"""The package's layers, read from its source: no import circle (imports
made inside functions count), and each layer imports only what it may
(docs/architecture.md says why).

The graph is built from the source text with :mod:`ast`, so a test of it
needs no import of the package: an import under ``if TYPE_CHECKING:`` is
left out (it never runs), every other one counts, wherever it stands. A
second graph counts those too (a module that names another's types depends
on it as surely), and has no circle either."""

from __future__ import annotations

import ast
import functools
import importlib
import re
import warnings
from collections import UserDict
from pathlib import Path
from typing import Callable, Optional

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "brandubh"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


@functools.lru_cache(maxsize=None)
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a module's syntax tree, the tree first, in
    :func:`ast.walk`'s order: read and walked once for all the tests here
    (each graph and each check parsed and walked the package again: the
    file's tests took a quarter longer). Nothing here changes a tree."""
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
# The compiled engine: a module with no Python source, importing nothing.
ENGINE = "brandubh._engine"


def _lazy_tables() -> dict[str, dict[str, str]]:
    """The packages whose names load on first use (a ``_LAZY`` table in the
    ``__init__``: name -> the package's module that defines it): importing
    a name from one imports that module."""
    tables = {}
    for name, path in MODULES.items():
        if path.name == "__init__.py":
            for node in _nodes(path)[0].body:  # type: ignore[attr-defined]
                if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["_LAZY"]:
                    tables[name] = ast.literal_eval(node.value)
    return tables


LAZY = _lazy_tables()


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(name: str, path: Path, types: bool = False) -> set[str]:
    """The modules of the package that ``name`` imports, anywhere in it;
    with ``types``, those it imports only for type checkers too (but for a
    package's ``__init__``, whose type-only imports name what its lazy
    ``__getattr__`` hands out, used by no module of the package)."""
    nodes = _nodes(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    counted = types and path.name != "__init__.py"
    skipped = {id(n) for node in nodes if not counted and _type_checking(node) for n in ast.walk(node)}
    out = set()
    for node in nodes:
        if id(node) in skipped:
            continue
        targets = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets.append(module)
            targets += [f"{module}.{alias.name}" for alias in node.names]
            targets += [f"{module}.{LAZY[module][alias.name]}" for alias in node.names
                        if alias.name in LAZY.get(module, {})]
        elif isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.JoinedStr)
              and ast.unparse(node.func).endswith("import_module")):
            continue  # a protocol looked up by name: see test_protocols_are_found_by_name
        for target in targets:
            if (target in MODULES or target == ENGINE) and target != name:
                out.add(target)
    return out


class _Built(UserDict):
    """A graph read from the source the first time a test asks for it, not
    when the module is imported: every test worker imports every test file
    to collect it (reading the package's graphs took a second of a core
    each time), and only one of them runs these tests."""

    def __init__(self, build: Callable[[], dict[str, set[str]]]) -> None:
        self._build = build   # no UserDict.__init__: it would fill ``data`` now

    @functools.cached_property
    def data(self) -> dict[str, set[str]]:  # type: ignore[override]
        return self._build()


def _graph() -> dict[str, set[str]]:
    graph = {name: _imports(name, path) for name, path in MODULES.items()}
    graph[ENGINE] = set()
    # The command line loads a command's module by its name (brandubh.cli's
    # COMMANDS), so that a command loads no other's: those are its imports too.
    graph["brandubh.cli"] |= {f"brandubh.cli.{name}" for name in __import__("brandubh.cli").cli.COMMANDS}
    return graph


def _type_graph() -> dict[str, set[str]]:
    """The same with the imports made for type checkers only."""
    graph = {name: _imports(name, path, types=True) for name, path in MODULES.items()}
    graph[ENGINE] = set()
    return graph


GRAPH = _Built(_graph)
TYPE_GRAPH = _Built(_type_graph)


def _cycle(graph: dict[str, set[str]] = GRAPH) -> list[str]:
    """One import circle of ``graph``, as the modules round it, or []."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_graph_is_read():
    # The reader finds what it should: a module that certainly imports
    # another, at the top and inside a function, and through a lazy table.
    assert "brandubh.core.rules" in GRAPH["brandubh.game"]
    assert "brandubh.views.text" in GRAPH["brandubh.game"]  # in __str__
    assert "brandubh.cli.play" in GRAPH["brandubh.cli"]
    assert LAZY["brandubh.records"]["load_record"] == "record" and "GameRecord" in LAZY["brandubh.records"]
    assert "brandubh.records.record" in GRAPH["brandubh.cli.analyse"]


def test_every_command_is_a_module_of_the_command_line():
    from brandubh.cli import ALIASES, COMMANDS

    assert all(f"brandubh.cli.{name}" in MODULES for name in COMMANDS)
    assert set(ALIASES.values()) <= set(COMMANDS)


def test_no_import_circle():
    assert _cycle() == []


def test_no_circle_even_through_type_hints():
    # The game imports the review (Game.analyse), so the review names no
    # game, not even for a type checker: it reads one through its own
    # Protocol (review.Reviewable). Likewise the moves and the game.
    assert _cycle(TYPE_GRAPH) == []
    assert "brandubh.review" in GRAPH["brandubh.game"] and "brandubh.moves" in GRAPH["brandubh.game"]
    assert "brandubh.game" not in _reach("brandubh.review", TYPE_GRAPH)
    assert "brandubh.game" not in _reach("brandubh.moves", TYPE_GRAPH)


def test_the_circle_finder_finds_one():
    GRAPH["brandubh.notation"].add("brandubh.variant")
    GRAPH["brandubh.variant"].add("brandubh.notation")
    try:
        assert set(_cycle()) >= {"brandubh.notation", "brandubh.variant"}
    finally:
        GRAPH["brandubh.notation"].discard("brandubh.variant")
        GRAPH["brandubh.variant"].discard("brandubh.notation")


def test_the_type_graph_sees_a_circle_made_by_a_type_hint(tmp_path):
    # The review as it was: its game named for type checkers only. The
    # import graph leaves that out; the type graph finds the circle.
    source = MODULES["brandubh.review"].read_text(encoding="utf-8")
    hinted = tmp_path / "review.py"
    hinted.write_text(source.replace("if TYPE_CHECKING:\n", "if TYPE_CHECKING:\n    from .game import Game\n", 1))
    assert "brandubh.game" not in _imports("brandubh.review", hinted)
    assert "brandubh.game" in _imports("brandubh.review", hinted, types=True)
    saved = TYPE_GRAPH["brandubh.review"]
    TYPE_GRAPH["brandubh.review"] = _imports("brandubh.review", hinted, types=True)
    try:
        assert set(_cycle(TYPE_GRAPH)) >= {"brandubh.game", "brandubh.review"}
    finally:
        TYPE_GRAPH["brandubh.review"] = saved


def _reach(name: str, graph: dict[str, set[str]] = GRAPH) -> set[str]:
    seen, todo = set(), [name]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


# Who may call the compiled engine: its Python face, and the learning
# interfaces' batch of games (their action numbers and planes are the engine's),
# and the learned evaluation's pipeline (self-play and its features, in C).
CFFI_USERS = {"brandubh.core", "brandubh.rl", "brandubh.learn"}


def test_only_the_core_touches_the_compiled_engine():
    users = {name for name, targets in GRAPH.items() if ENGINE in targets}
    assert users, "the reader should find the modules that load the engine"
    assert {name for name in users if not any(name == u or name.startswith(u + ".") for u in CFFI_USERS)} == set()


@pytest.mark.parametrize("name", ["brandubh.notation", "brandubh.variant", "brandubh.snapshot", "brandubh.chances",
                                  "brandubh.views.graph",
                                  "brandubh.views.text", "brandubh.views.svg", "brandubh.words",
                                  "brandubh.otn", "brandubh.texts", "brandubh.moves", "brandubh.refusals",
                                  "brandubh.deprecation", "brandubh.records.text", "brandubh.records.read",
                                  "brandubh.review"])
def test_pure_python_layers_import_no_engine(name):
    # The vocabulary, the snapshot and the views load without the compiled
    # engine and know nothing of the game or the players.
    reached = _reach(name)
    assert not {m for m in reached if m.startswith(("brandubh.core", "brandubh._engine", "brandubh.game",
                                                    "brandubh.bot", "brandubh.session"))}


@pytest.mark.parametrize("layer", ["brandubh.core", "brandubh.game", "brandubh.bot", "brandubh.session",
                                   "brandubh.views", "brandubh.otn", "brandubh.texts", "brandubh.records",
                                   "brandubh.moves", "brandubh.refusals", "brandubh.review"])
def test_lower_layers_know_nothing_of_commands_servers_or_protocols(layer):
    for name in GRAPH:
        if name == layer or name.startswith(layer + "."):
            above = {m for m in GRAPH[name]
                     if m.startswith(("brandubh.cli", "brandubh.serve", "brandubh.host", "brandubh.codingame",
                                      "brandubh.opentafl", "brandubh.arena", "brandubh.rl"))}
            assert above == set(), (name, above)


def test_the_core_is_built_bottom_up():
    # docs/architecture.md: the position at the bottom of core/, the
    # record (Rules) at its top, over the concepts it uses.
    core = {name for name in GRAPH if name.startswith("brandubh.core.")} - DEPRECATED
    for bottom in ("brandubh.core.position", "brandubh.core.kernels", "brandubh.core.stopping",
                   "brandubh.core.clock"):
        assert GRAPH[bottom] & core == set(), bottom
    assert {name for name in core if "brandubh.core.rules" in GRAPH[name]} == set()
    assert GRAPH["brandubh.core.rules"] >= {"brandubh.core.outcomes", "brandubh.core.buffers",
                                            "brandubh.core.playouts", "brandubh.core.search"}


def test_protocols_are_found_by_name():
    # The arena finds a wire protocol's driver module by the protocol's name:
    # every name it lists is a package with a driver module.
    from brandubh.arena.protocols import PROTOCOLS

    for name in PROTOCOLS:
        assert f"brandubh.{name}.driver" in MODULES


def test_every_clock_share_comes_from_the_time_manager():
    # The exported C bot's stops are the time manager's numbers, written in.
    from brandubh.codingame.export import render
    from brandubh.core.clock import first_limit_ms, move_limit_ms

    source = render(level=1, margin_ms=20.0, first_ms=100.0, turn_ms=50.0)
    assert f"#define BOT_FIRST_STOP_MS {first_limit_ms(100.0, 50.0, 20.0)!r}" in source
    assert f"#define BOT_TURN_STOP_MS {move_limit_ms(50.0, 20.0)!r}" in source
    # And by hand: 20 ms of 50 kept back is 40%, so the first turn's 100 ms stops at 60.
    assert first_limit_ms(100.0, 50.0, 20.0) == 60.0 and move_limit_ms(50.0, 20.0) == 30.0


FRONT_ENDS = ("brandubh.codingame", "brandubh.opentafl", "brandubh.serve", "brandubh.host")
# A front end built on another: the network server (brandubh host) is serve's
# hardened HTTP server and interface helpers with more, beside serve, never
# under it.
BUILT_ON = {"brandubh.host": ("brandubh.serve",)}
# Old import paths kept for one release (CHANGELOG.md, "Deprecated"): each
# only hands out its new place's names, with a DeprecationWarning.
# The old paths of modules that moved, and their new homes: the ones the
# network server's move left (brandubh/deprecation.py warns for each;
# tests/test_renamed.py holds that they do).
DEPRECATED_ALIASES = {"brandubh.serve.host.client": "brandubh.host.client"}


def _in(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_front_ends_import_neither_each_other_nor_the_commands():
    for name in GRAPH:
        mine = next((f for f in FRONT_ENDS if _in(name, f)), None)
        if mine is None:
            continue
        allowed = (mine, *BUILT_ON.get(mine, ()))
        others = {m for m in GRAPH[name] if m.startswith(FRONT_ENDS) and not any(_in(m, a) for a in allowed)}
        if name in DEPRECATED_ALIASES:
            others -= {DEPRECATED_ALIASES[name]}
        assert others == set(), (name, others)
        if not name.endswith("__main__"):
            assert {m for m in GRAPH[name] if m.startswith("brandubh.cli")} == set(), name


def test_only_main_modules_import_the_commands():
    users = {name for name, targets in GRAPH.items() if any(t.startswith("brandubh.cli") for t in targets)
             and not name.startswith("brandubh.cli")}
    assert users and all(name.endswith("__main__") for name in users), users


ROOM = "brandubh.records"


def _in_room(name: str) -> bool:
    return name == ROOM or name.startswith(ROOM + ".")


def test_every_game_text_is_read_in_the_room():
    # Game.from_text, read and as_text, the records, the server's open, the
    # arena's openings and the commands' game files all read through the
    # room's reader; its strings-only part stands below the game (the
    # game's methods are thin over it), its records above; OpenTafl's
    # notation lives below the game, where the OpenTafl front end takes it.
    for user in ("brandubh.game", "brandubh.records.record", "brandubh.serve.api", "brandubh.arena.openings",
                 "brandubh.cli.show", "brandubh.cli.play", "brandubh.cli.analyse"):
        assert "brandubh.records.read" in _reach(user), user
    assert "brandubh.game" not in _reach("brandubh.records.read", TYPE_GRAPH)
    assert "brandubh.game" in GRAPH["brandubh.records.record"]
    assert "brandubh.records.record" not in _reach("brandubh.game", TYPE_GRAPH)
    assert "brandubh.otn" in GRAPH["brandubh.records.read"] and "brandubh.otn" in GRAPH["brandubh.opentafl.notation"]


# Modules kept only at an old path for a release (brandubh/deprecation.py):
# each calls moved_module at its top.
DEPRECATED = {name for name, path in MODULES.items() if "moved_module(__name__" in path.read_text(encoding="utf-8")}


def test_nothing_uses_a_module_kept_only_for_its_old_path():
    # The package and its tests import the new homes; the old paths are for
    # users' code (tests/test_renamed.py holds them).
    assert "brandubh.core.record" in DEPRECATED, "the reader should find the deprecated modules"
    users = {name: GRAPH[name] & DEPRECATED for name in GRAPH if GRAPH[name] & DEPRECATED and name not in DEPRECATED}
    assert users == {}
    tests = Path(__file__).resolve().parent
    for path in sorted(tests.rglob("*.py")):
        if path.name == "test_renamed.py":
            continue
        used = {t for t in _imports(f"tests.{path.stem}", path) if t in DEPRECATED}
        assert used == set(), (path.name, used)


def test_one_reader_of_the_process_table():
    # Other processes are read from /proc by brandubh.arena.reaping alone
    # (process_info, process_table, process_file, marked): the package's
    # and the tests' other code asks it. (A process's own /proc/self is its
    # own business.)
    reading = re.compile(r"""listdir\(["']/proc["']\)|/proc/\{""")  # the list of processes, or one of them
    readers = [path for path in sorted([*PACKAGE.rglob("*.py"), *Path(__file__).resolve().parent.rglob("*.py")])
               if reading.search(path.read_text(encoding="utf-8")) and path.name != "test_layers.py"]
    assert readers == [PACKAGE / "arena" / "reaping.py"]


def test_the_network_server_is_a_package_beside_serve():
    # brandubh host's modules are brandubh.host.*; under serve/ only the old
    # path of the one module docs named for import stays, for one release.
    assert {"brandubh.host.hub", "brandubh.host.api", "brandubh.host.http", "brandubh.host.store",
            "brandubh.host.client"} <= set(MODULES)
    assert {name for name in MODULES if name.startswith("brandubh.serve.host")} == {
        "brandubh.serve.host", *DEPRECATED_ALIASES}
    assert not any(m.startswith("brandubh.host") for name in MODULES if name.startswith("brandubh.serve")
                   and name not in DEPRECATED_ALIASES for m in GRAPH[name])


# A Game's changes that play for someone at a table: a move, a take-back, an
# ending by a seat, an offer and its answer.
GAME_CHANGES = {"play", "play_or_raise", "undo", "resign", "forfeit", "offer_draw", "accept_draw", "decline_draw"}
# The front ends that seat people at a table: the terminal, the browser, the network server.
TABLES = ("brandubh.cli.play", "brandubh.serve", "brandubh.host")


def _changes_made(path: Path) -> list[str]:
    """The calls in a module of a Game's changes, on anything but a session
    (or a puzzle's attempt: brandubh.puzzles.Attempt, the one judge of a
    puzzle, plays its moves for the page's puzzle mode as for the terminal's)."""
    found = []
    for node in _nodes(path):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in GAME_CHANGES
                and not ast.unparse(node.func.value).endswith(("session", "attempt"))):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node.func)}")
    return found


def test_one_session_plays_for_everyone_at_a_table():
    # play, serve and host all drive session.Session: none of them moves,
    # takes back, resigns or answers an offer on a game itself, and each
    # keeps its tables as sessions.
    users = [name for name in MODULES if any(_in(name, t) for t in TABLES)]
    assert len(users) > 5
    for name in users:
        assert _changes_made(MODULES[name]) == [], name
    for keeper in ("brandubh.cli.play", "brandubh.serve.api", "brandubh.host.hub"):
        assert "brandubh.session" in GRAPH[keeper], keeper


def test_the_session_check_finds_a_change_made_elsewhere(tmp_path):
    made = tmp_path / "table.py"
    made.write_text("def act(hg, table):\n    hg.game.undo()\n    table.session.undo()\n", encoding="utf-8")
    assert _changes_made(made) == ["table.py:2 hg.game.undo"]


#: What a module outside the room may read through brandubh.files: files
#: that are not saved games.
OTHER_FILES = {"weights file", "state file", "data file", "net file", "proof file", "endgame table", "puzzle set",
               "progress file", "rating file"}
_FILE_READERS = {"read_text": 2, "open_regular": 1}   # each function, and where its `what` stands


def _file_reads(path: Path) -> list[tuple[str, Optional[str]]]:
    """Each call of brandubh.files' readers in a module: the function and
    the file it says it reads (its ``what``: a string; None when that is not
    written as one)."""
    nodes = _nodes(path)
    imported = {alias.asname or alias.name for node in nodes
                if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("files")
                for alias in node.names if alias.name in _FILE_READERS}
    found = []
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in imported:
            at = _FILE_READERS[node.func.id]
            what = next((k.value for k in node.keywords if k.arg == "what"),
                        node.args[at] if len(node.args) > at else ast.Constant("file"))
            found.append((node.func.id, what.value if isinstance(what, ast.Constant) else None))
    return found


def test_one_reader_of_game_files():
    # Every game file (show, analyse, play --load, --openings) is opened by
    # the room's one reading of a file, within its one bound: no module
    # outside the room reads a file through brandubh.files but one that is
    # no saved game, and in the room one function does.
    outside = {name: _file_reads(path) for name, path in MODULES.items()
               if not _in_room(name) and name != "brandubh.files"}
    assert {name: reads for name, reads in outside.items() if any(what not in OTHER_FILES for _, what in reads)} == {}
    assert any(outside.values()), "the reader should see the weights file and the others read"
    room = {name: _file_reads(path) for name, path in MODULES.items() if _in_room(name)}
    assert {name: reads for name, reads in room.items() if reads} == {"brandubh.records.read": [("read_text", None)]}
    # And the game text's grammar is parsed there only: any other module
    # takes a game text through the room's reader (read_texts, Game.read).
    grammar = {"game_parse", "annotated_game_parse"}
    users = {name for name, path in MODULES.items() if not _in_room(name)
             for node in _nodes(path)
             if isinstance(node, ast.ImportFrom) and {a.name for a in node.names} & grammar}
    assert users == set()


def test_the_one_reader_sees_a_second_one(tmp_path):
    second = tmp_path / "second.py"
    second.write_text("from ..files import read_text\n\ndef load(path):\n    return read_text(path, 1 << 20, 'game file')\n"
                      "from ..records.text import game_parse\n")
    assert _file_reads(second) == [("read_text", "game file")]


def _forwards() -> dict[str, dict[str, str]]:
    """The names each module hands out from where they moved
    (brandubh.deprecation.renamed as its ``__getattr__``): module -> name ->
    its new home, ``module:name``."""
    out = {}
    for name, path in MODULES.items():
        if "__getattr__ = renamed(" in path.read_text(encoding="utf-8"):
            out[name] = importlib.import_module(name).__getattr__.names
    return out


def test_names_that_moved_lead_to_where_they_went():
    # A moved name is a forward, not an import (the graph leaves it out):
    # each leads to a module that has the name, which the old module no
    # longer defines, and asking for it warns, naming the new place.
    forwards = _forwards()
    assert {"brandubh.notation", "brandubh.texts"} <= set(forwards)
    for old, names in forwards.items():
        module = importlib.import_module(old)
        for name, target in names.items():
            new, _, attr = target.rpartition(":")
            new = new or old
            assert name not in vars(module) and new in MODULES, (old, name)
            with pytest.warns(DeprecationWarning, match=f"^{old}.{name} is deprecated .*: use {new}.{attr}$"):
                value = getattr(module, name)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                assert value is getattr(importlib.import_module(new), attr)


# -- the C engine: no circle -------------------------------------------------
#
# A file of csrc/ and its header are one unit (eval.c and eval.h: "eval").
# A unit depends on another when one of its files includes the other's
# header, or calls a function defined in the other's .c, whichever header
# declares it (a call through the public header counts as surely as one
# through the concept's own).

CSRC = PACKAGE.parent / "csrc"
_C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_C_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A function defined at the top level: its head at the start of a line,
# its body's brace after the parameters.
_C_DEFINITION = re.compile(r"^(?!\s)(?:[\w*]+[ \t*]+)+?(bd_\w+)\s*\([^;{]*\)\s*\{", re.M)
# A declaration at the top level, which calls nothing.
_C_PROTOTYPE = re.compile(r"^(?!\s)(?:[\w*]+[ \t*]+)+?bd_\w+\s*\([^;{]*\)\s*;", re.M)


def _c_graph(csrc: Path = CSRC) -> dict[str, set[str]]:
    """The units of ``csrc`` and the units each depends on (itself left out)."""
    texts = {p: _C_COMMENT.sub(" ", p.read_text(encoding="utf-8"))
             for p in sorted(csrc.iterdir()) if p.suffix in (".c", ".h")}
    graph: dict[str, set[str]] = {p.stem: set() for p in texts}
    defined_in = {name: p.stem for p, text in texts.items() for name in _C_DEFINITION.findall(text)}
    for p, text in texts.items():
        graph[p.stem] |= {Path(name).stem for name in _C_INCLUDE.findall(text)}
        calls = re.findall(r"\b(bd_\w+)\s*\(", _C_PROTOTYPE.sub(" ", text))
        graph[p.stem] |= {defined_in[name] for name in calls if name in defined_in}
    for unit, needs in graph.items():
        needs.discard(unit)
    return graph


C_GRAPH = _Built(_c_graph)


def test_no_circle_in_the_c_engine():
    assert _cycle(C_GRAPH) == []
    # The evaluations: the dispatch (eval) depends on the three, and none of
    # them on it; what they share, the king's lanes, lies below them all.
    assert {"learned", "nnue", "lanes"} <= C_GRAPH["eval"]
    assert "lanes" in C_GRAPH["learned"] and "learned" in C_GRAPH["nnue"]
    assert "eval" not in _reach("learned", C_GRAPH) | _reach("nnue", C_GRAPH) | _reach("lanes", C_GRAPH)
    # The public header depends on nothing of the engine's.
    assert C_GRAPH["brandubh"] == set()


def test_the_c_graph_sees_a_circle_made_by_a_call(tmp_path):
    # a.c calls b.c's function through the public header, b.c includes
    # a.h: no include goes back, the call does.
    (tmp_path / "pub.h").write_text("int bd_b(void);\n")
    (tmp_path / "a.h").write_text('#include "pub.h"\n#define A 1\n')
    (tmp_path / "a.c").write_text('#include "a.h"\nint bd_a(void) { return bd_b(); }\n')
    (tmp_path / "b.c").write_text('#include "a.h"\nint bd_b(void) {\n    return A;\n}\n')
    graph = _c_graph(tmp_path)
    assert graph["pub"] == set() and graph["a"] == {"pub", "b"}
    assert set(_cycle(graph)) == {"a", "b"}

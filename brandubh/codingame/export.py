"""``brandubh codingame --export FILE``: the bot as one C source file.

CodinGame takes one source file, so the export is an amalgamation, in the
way SQLite ships one: the engine's own sources (``csrc/``, read at export
time, never a second copy kept by hand), the tables' start-up code
(``tables_init.c`` beside this module, in place of the written-out ``csrc/tables.c``), the
bot's settings and the puzzle's turn loop (``main.c`` beside this module).

How the engine is put in one file: the headers in the order their
``#include "..."`` lines need (the public header ``brandubh.h`` first), then
the sources the bot uses (:data:`SOURCES`; perft, the playouts, the
accessors of ``handles.c`` and the popcount build are left out); their local includes and include
guards go, their system includes are gathered once at the top, comments and
blank lines go (the size limit is 100,000 characters). The tables' ``extern
const`` declarations become plain static arrays, filled by
``bd_tables_init()`` before the first turn.

The C sources come from the source tree's ``csrc/`` when there is one
beside the package, and otherwise from ``brandubh/_csrc/``, where the build
copies them (setup.py), so an installed wheel exports too.

>>> text = render()
>>> len(text) < 100_000 and 'int main(void)' in text
True
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from ..errors import BrandubhError
from ..files import write_whole
from ..variant import VariantLike
from ..core.weights import WeightsLike

__all__ = ["SOURCES", "LIMIT", "MARGIN_MS", "source_dir", "strip_comments", "amalgamate", "render", "export"]

LIMIT = 100_000
"""CodinGame's limit on a submission, in characters."""

MARGIN_MS = 20.0
"""What the exported bot keeps back from its later turns' limit, and the
same share of its first (40%), in milliseconds. Its clock is read inside
the search, so it needs less than the Python bot: at the real limits with
both cores busy its worst answer in 200 games was 41.3 ms."""

SOURCES = ("variant.c", "position.c", "movegen.c", "game.c", "lanes.c", "learned.c", "eval.c", "tt.c", "movepick.c",
           "search.c")
"""The engine's sources the bot needs, in order (every header comes first)."""

# The engine's public header (its interface): the first of the amalgamation.
_PUBLIC_HEADER = "brandubh.h"

DATA = Path(__file__).resolve().parent

_LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$')
_FALLTHROUGH = re.compile(r"\A/\*\s*fall[ -]?s?\s*thr(ough|u)\W*\s*\Z", re.I)
_SYSTEM_INCLUDE = re.compile(r"^\s*#\s*include\s+<([^>]+)>\s*$")


def source_dir() -> Path:
    """Where the engine's C sources are: the source tree's csrc/, or the
    copy the build puts in the installed package."""
    package = Path(__file__).resolve().parent.parent   # brandubh/
    for d in (package.parent / "csrc", package / "_csrc"):
        if (d / _PUBLIC_HEADER).is_file() and (d / "search.c").is_file():
            return d
    raise BrandubhError(f"the engine's C sources are in neither {package.parent / 'csrc'} "
                        f"nor {package / '_csrc'}")


def strip_comments(text: str) -> str:
    """C text without its comments (strings and character constants kept;
    a "fall through" comment is kept for the compiler), trailing blanks and
    blank lines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise BrandubhError("an unterminated comment in the C sources")
            if _FALLTHROUGH.search(text[i:j]):
                out.append("/* fall through */")  # gcc's -Wimplicit-fallthrough reads it
            else:
                out.append(" " if "\n" not in text[i:j] else "\n")
            i = j + 2
        elif c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines = [line.rstrip() for line in "".join(out).split("\n")]
    return "\n".join(line for line in lines if line.strip()) + "\n"


def _header_order(src: Path) -> list[str]:
    """Every header, each after those it includes."""
    order: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in order:
            return
        if name in path:
            raise BrandubhError(f"the headers include each other: {' -> '.join(path + (name,))}")
        for line in (src / name).read_text(encoding="utf-8").splitlines():
            m = _LOCAL_INCLUDE.match(line)
            if m:
                visit(m.group(1), path + (name,))
        order.append(name)

    visit(_PUBLIC_HEADER, ())
    for h in sorted(p.name for p in src.glob("*.h")):
        visit(h, ())
    return order


def _guard(name: str) -> str:
    return "BD_" + re.sub(r"\W", "_", name).upper()


def _body(name: str, text: str, includes: list[str]) -> str:
    """A file's text without its local includes and include guard, and
    without comments; its system includes (those not under a condition of
    their own, such as a compiler's header) go to `includes`."""
    guard = _guard(name) if name.endswith(".h") else None
    kept: list[str] = []
    depth = 0
    for line in text.splitlines():
        s = line.strip()
        if re.match(r"#\s*if", s):
            depth += 1
        elif re.match(r"#\s*endif", s):
            depth -= 1
        if _LOCAL_INCLUDE.match(line):
            continue
        m = _SYSTEM_INCLUDE.match(line)
        if m and depth <= (1 if guard else 0):
            if m.group(1) not in includes:
                includes.append(m.group(1))
            continue
        kept.append(line)
    body = strip_comments("\n".join(kept))
    if guard:
        b = body.splitlines()
        if not (len(b) >= 3 and b[0].split() == ["#ifndef", guard] and b[1].split()[:2] == ["#define", guard]
                and b[-1].strip() == "#endif"):
            raise BrandubhError(f"{name}: no include guard {guard} around the whole file")
        body = "\n".join(b[2:-1]) + "\n"
    return body


def amalgamate(src: Optional[Path] = None, king_capture: str = "four_two") -> tuple[list[str], str]:
    """The system headers and the engine's text in one piece, for the bot
    (the learned evaluation's tables of the set that ``king_capture`` uses:
    :func:`brandubh.learned.export_header`)."""
    from ..learn.net import export_header

    src = source_dir() if src is None else src
    includes: list[str] = []
    # The NNUE evaluation (csrc/nnue.c) stays out of the bot: its weights
    # would not fit CodinGame's limit beside the learned tables.
    # Nor do huge pages (csrc/memory.c: mmap): the tables come from calloc.
    parts = ["#define BD_NO_NNUE 1\n#define BD_PLAIN_MEMORY 1\n"]
    for name in _header_order(src):
        if name == "nnue.h":
            continue
        text = _body(name, (src / name).read_text(encoding="utf-8"), includes)
        if name == "tables.h":
            text = text.replace("extern const ", "static ")
        if name == "learned.h":
            text = export_header(text, (src / "learned_weights.c").read_text(encoding="utf-8"), king_capture)
        parts.append(text)
    for name in SOURCES:
        parts.append(_body(name, (src / name).read_text(encoding="utf-8"), includes))
    return includes, "".join(parts)


def render(level: int = 6, budget: Optional[int] = None, first_budget: Optional[int] = None,
           seed: int = 1, variant: "VariantLike" = "codingame", margin_ms: float = MARGIN_MS,
           first_ms: float = 100.0, turn_ms: float = 50.0, weights: "WeightsLike" = None,
           tt_bytes: int = 1 << 21, verbose: bool = False, lang: str = "c",
           keep_table: bool = True) -> str:
    """The bot's C source: it plays at ``level`` (brandubh.Bot's budgets and
    blunders), each search also stopped by ``budget`` positions (the first
    turn ``first_budget``, by default 1.4 times ``budget``) and by the clock,
    ``margin_ms`` before the later turns' limit (and, on the first turn, as
    much more as its limit is longer: the same share of it). ``weights``
    changes some of the evaluation's weights (a dict, or a weights file:
    :mod:`brandubh.core.weights`), checked first. ``lang``: ``c`` or ``cpp``, the
    same text, which is both (tests/test_export.py builds it with g++ too).
    ``keep_table``: one transposition table of ``tt_bytes`` for the whole
    game, kept from turn to turn (a table per search when false, as the
    package's own bot searches)."""
    from ..bot import LEVELS
    from ..core.clock import first_limit_ms, move_limit_ms
    from ..core.position import c_variant
    from ..variant import as_variant
    from ..core.weights import as_weights

    if lang not in ("c", "cpp"):
        raise BrandubhError(f"the language is c or cpp, not {lang}")
    if level not in LEVELS:
        raise BrandubhError(f"the level is 1 to {max(LEVELS)}, not {level}")
    if not 0 <= margin_ms < turn_ms:
        raise BrandubhError(f"the margin is 0 to {turn_ms:g} ms, not {margin_ms:g}")
    level_budget, blunder = LEVELS[level]
    turn = min(level_budget, budget) if budget is not None else level_budget
    if first_budget is None:
        first_budget = int(budget * 1.4) if budget is not None else level_budget
    first = min(level_budget, first_budget)
    v = as_variant(variant)
    cv = c_variant(v)
    fields = ", ".join(f".{name} = {int(getattr(cv, name))}" for name in v.fields())
    settings = "\n".join([
        f"/* {v.as_string()}, level {level}, seed {seed}, margin {margin_ms:g} ms */",
        f"static const bd_variant BOT_VARIANT = {{{fields}}};",
        f"#define BOT_BUDGET {turn}ULL",
        f"#define BOT_FIRST_BUDGET {first}ULL",
        f"#define BOT_SEED {seed}ULL",
        f"#define BOT_BLUNDER {blunder!r}",
        f"#define BOT_TT_BYTES {tt_bytes}ULL",
        f"#define BOT_KEEP_TABLE {int(keep_table)}",
        # The same share of each limit: the first turn's margin is as much
        # larger as its limit (100 ms, margin 20: it stops at 60 ms).
        f"#define BOT_FIRST_STOP_MS {first_limit_ms(first_ms, turn_ms, margin_ms)!r}",
        f"#define BOT_TURN_STOP_MS {move_limit_ms(turn_ms, margin_ms)!r}",
        f"#define BOT_VERBOSE {int(verbose)}",
    ])
    if as_weights(weights).get("eval") in ("nnue", 2):
        raise BrandubhError("the CodinGame export carries the learned and classical evaluations, not the NNUE")
    weight_lines = "\n    ".join(f"w.{k} = {int(x)};" for k, x in sorted(as_weights(weights).items()))
    includes, engine = amalgamate(king_capture=v.king_capture)
    template = (DATA / "main.c").read_text(encoding="utf-8")
    tables = strip_comments((DATA / "tables_init.c").read_text(encoding="utf-8"))
    head = "/* brandubh's CodinGame bot: generated by `brandubh codingame --export` from the\n" \
           " * package's engine (csrc/) and turn loop (brandubh/codingame/main.c).\n" \
           f" * C{' (and C++)' if lang == 'cpp' else ''}; standard library only. */\n"
    out = template
    for mark, text in (("PROLOGUE", head), ("INCLUDES", "".join(f"#include <{h}>\n" for h in includes)),
                       ("ENGINE", engine), ("TABLES", tables), ("SETTINGS", settings + "\n")):
        out = out.replace(f"/*@{mark}@*/\n", text)
    out = out.replace("/*@WEIGHTS@*/", weight_lines)
    # The template's own opening comment is for the package, not the bot.
    out = re.sub(r"\A/\*.*?\*/\n", "", out, flags=re.S)
    return out


def export(path: str, **settings: object) -> int:
    """Write the bot to ``path`` (``-`` for standard output); returns its
    size in characters. BrandubhError when it would not fit CodinGame's
    limit."""
    text = render(**settings)  # type: ignore[arg-type]
    if len(text) >= LIMIT:
        raise BrandubhError(f"the bot is {len(text)} characters, over CodinGame's {LIMIT}")
    if path == "-":
        import sys

        sys.stdout.write(text)
    else:
        write_whole(path, text)
    return len(text)

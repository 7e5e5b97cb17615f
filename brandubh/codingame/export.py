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

import collections
import re
from pathlib import Path
from typing import Optional

from ..errors import BrandubhError
from ..files import write_whole
from ..variant import VariantLike
from ..core.weights import WeightsLike

__all__ = ["SOURCES", "SWITCHES", "DIGITS", "LIMIT", "MARGIN_MS", "source_dir", "strip_comments", "settle",
           "amalgamate", "read_net", "pack_net", "render", "export"]

LIMIT = 100_000
"""CodinGame's limit on a submission, in characters."""

MARGIN_MS = 20.0
"""What the exported bot keeps back from its later turns' limit, and the
same share of its first (40%), in milliseconds. Its clock is read inside
the search, so it needs less than the Python bot: at the real limits with
both cores busy its worst answer in 200 games was 41.3 ms."""

SOURCES = ("variant.c", "position.c", "movegen.c", "game.c", "lanes.c", "learned.c", "nnue.c", "eval.c", "tt.c",
           "movepick.c", "search.c")
"""The engine's sources the bot needs, in order (every header comes first)."""

SWITCHES = {"BD_NO_THREADS": True, "BD_PLAIN_MEMORY": True, "BD_NO_LEARNED": True, "BD_NNUE_CHECK": False,
            "BD_NNUE_AVX2": False}
"""The engine's build switches as the bot sets them: one thread (CodinGame
builds with a bare ``gcc``), memory from calloc (no mmap), the NNUE's
counts without the learned tables (the net plays in their place), no
self-check, no AVX2 copy of the NNUE's loops (1,300 characters the file
has no room for). Each ``#ifdef``/``#ifndef`` of one is settled at export time,
so the file holds only the side it builds; those set are also defined
ahead of the engine, for an ``#if`` that tests one otherwise."""

DIGITS = "".join(c for c in map(chr, range(33, 127)) if c not in '"\\?')
"""The digits of the net's text: printable ASCII but the quote and the
backslash, which a C string would escape, and the question mark (two make a
trigraph under ``-std=c99``)."""

CHUNK = 4000
"""The longest string literal of the net's text: C99 asks compilers for
4,095 characters (gcc -pedantic warns past them)."""

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


def settle(text: str, switches: dict[str, bool], name: str = "") -> str:
    """C text with each ``#ifdef``/``#ifndef`` of a switch in ``switches``
    (its name: defined or not) replaced by the side that builds, with its
    ``#else``; every other conditional is kept as it is.

    >>> settle("#ifdef X\\na\\n#else\\nb\\n#endif\\n#if Y\\nc\\n#endif", {"X": False})
    'b\\n#if Y\\nc\\n#endif\\n'
    """
    kept: list[str] = []
    # Each open conditional: whether its branch now open builds (a
    # switch's), or None for one that is kept as written.
    stack: list[Optional[bool]] = []
    for line in text.splitlines():
        m = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(\w*)", line)
        word = m.group(1) if m else ""
        if word in ("elif", "else", "endif") and not stack:
            raise BrandubhError(f"{name}: #{word} without its #if")
        if word in ("ifdef", "ifndef") and m and m.group(2) in switches:
            stack.append(switches[m.group(2)] == (word == "ifdef"))
            continue
        if word in ("else", "elif", "endif") and stack[-1] is not None:
            if word == "elif":
                raise BrandubhError(f"{name}: #elif after a build switch's #ifdef")
            if word == "else":
                stack[-1] = not stack[-1]
            else:
                stack.pop()
            continue
        if word in ("ifdef", "ifndef", "if"):
            stack.append(None)
        elif word == "endif":
            stack.pop()
        if False not in stack or (word in ("ifdef", "ifndef", "if") and False not in stack[:-1]):
            kept.append(line)
    if stack:
        raise BrandubhError(f"{name}: an #if without its #endif")
    return "\n".join(kept) + "\n"


def _body(name: str, text: str, includes: list[str]) -> str:
    """A file's text without its local includes and include guard, and
    without comments, its build switches settled (:data:`SWITCHES`); its
    system includes (those not under a condition of their own, such as a
    compiler's header) go to `includes`."""
    guard = _guard(name) if name.endswith(".h") else None
    text = settle(text, SWITCHES, name)
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


def amalgamate(src: Optional[Path] = None) -> tuple[list[str], str]:
    """The system headers and the engine's text in one piece, for the bot.
    The NNUE's weights are left to fill at start-up (:func:`pack_net`)."""
    src = source_dir() if src is None else src
    includes: list[str] = []
    parts = ["".join(f"#define {name} 1\n" for name, on in SWITCHES.items() if on)]
    for name in _header_order(src):
        text = _body(name, (src / name).read_text(encoding="utf-8"), includes)
        if name in ("tables.h", "nnue.h"):
            # Computed (tables_init.c) or unpacked (main.c) at start-up.
            text = text.replace("extern const ", "static ")
        parts.append(text)
    for name in SOURCES:
        parts.append(_body(name, (src / name).read_text(encoding="utf-8"), includes))
    return includes, "".join(parts)


def read_net(src: Optional[Path] = None) -> dict[str, list[int]]:
    """The NNUE's weights that the engine is built with (csrc/nnue_weights.c,
    as tools/gen_nnue.py writes it): ``w1`` (row after row), ``b1``, ``w2``
    and ``b2`` (one number), and ``hidden``, the width of a row."""
    text = ((source_dir() if src is None else src) / "nnue_weights.c").read_text(encoding="utf-8")
    net: dict[str, list[int]] = {}
    rows: list[str] = []
    for key in ("W1", "B1", "W2", "B2"):
        m = re.search(r"\bBD_NNUE_" + key + r"\b[^=;]*=\s*([^;]*);", text)
        if m is None:
            raise BrandubhError(f"no BD_NNUE_{key} in the NNUE's weights")
        net[key.lower()] = [int(x) for x in re.findall(r"-?\d+", m.group(1))]
        if key == "W1":
            rows = re.findall(r"\{([^{}]*)\}", m.group(1))
    net["hidden"] = [len(net["b1"])]
    if len(net["w2"]) != len(net["b1"]) or any(len(r.split(",")) != len(net["b1"]) for r in rows):
        raise BrandubhError("the NNUE's weights are not rows of one width")
    return net


def pack_net(king_capture: str, src: Optional[Path] = None) -> str:
    """The NNUE's weights as C text for the bot: ``BOT_NET``, string
    literals of :data:`DIGITS` that main.c's ``bot_net_init`` unpacks at
    start-up, and its constants. What they hold, in order: the first
    layer's rows but the rule's four, the row of the rule the bot plays
    (``king_capture``; the other three stay 0), the hidden biases and the
    output weights; each number zigzagged (0, -1, 1, -2... as 0, 1, 2,
    3...) and written as one digit below ``BOT_NET_ONE``, or as a lead
    digit from there up and a second one: the most numbers in one digit
    that still leaves lead digits for the largest. ``BOT_NET_B2`` is the
    output's bias. About 1.5 digits a weight for the shipped net."""
    from ..variant import KING_CAPTURES

    net = read_net(src)
    hidden = net["hidden"][0]
    rows = [net["w1"][i:i + hidden] for i in range(0, len(net["w1"]), hidden)]
    rule = len(rows) - len(KING_CAPTURES)  # the rule's rows are the last (csrc/nnue.h)
    values = [x for row in rows[:rule] + [rows[rule + KING_CAPTURES.index(king_capture)]] for x in row]
    values += net["b1"] + net["w2"]
    codes = [2 * x if x >= 0 else -2 * x - 1 for x in values]
    base, top = len(DIGITS), max(codes)
    fits = [k for k in range(base + 1) if k + -(-(top + 1 - k) // base) <= base]
    if not fits:
        raise BrandubhError(f"an NNUE weight of {top // 2} is beyond two digits of {base}")
    one = max(fits)
    words = [DIGITS[c] if c < one else DIGITS[one + (c - one) // base] + DIGITS[(c - one) % base] for c in codes]
    chunks = [""]
    for w in words:
        if len(chunks[-1]) + len(w) > CHUNK:
            chunks.append("")
        chunks[-1] += w
    return (f"#define BOT_NET_ONE {one}\n#define BOT_NET_B2 ({net['b2'][0]})\n"
            f'static const char BOT_NET_DIGITS[] = "{DIGITS}";\n'
            "static const char *const BOT_NET[] = {\n" + ",\n".join(f'"{c}"' for c in chunks) + "};\n")


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
    from .turns import SETUP
    from ..core.clock import first_limit_ms, move_limit_ms
    from ..core.position import c_variant
    from ..variant import as_variant
    from ..core.weights import EVALS, as_weights

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
        # The puzzle's set-up, from which the record of a bot that moves
        # second starts (the opponent's first move played on it).
        f'static const char BOT_SETUP[] = "{SETUP}";',
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
    # The evaluation by its number (a name, such as "classical", is taken too).
    chosen = {k: EVALS.get(str(x), x) if k == "eval" else x for k, x in as_weights(weights).items()}
    if chosen.get("eval") == EVALS["learned"]:
        raise BrandubhError("the CodinGame export carries the NNUE and the classical evaluation, "
                            "not the learned tables")
    weight_lines = "\n    ".join(f"w.{k} = {int(x)};" for k, x in sorted(chosen.items()))
    includes, engine = amalgamate()
    template = (DATA / "main.c").read_text(encoding="utf-8")
    tables = strip_comments((DATA / "tables_init.c").read_text(encoding="utf-8"))
    head = "/* brandubh's CodinGame bot: generated by `brandubh codingame --export` from the\n" \
           " * package's engine (csrc/) and turn loop (brandubh/codingame/main.c).\n" \
           f" * C{' (and C++)' if lang == 'cpp' else ''}; standard library only. */\n"
    out = template
    for mark, text in (("PROLOGUE", head), ("INCLUDES", "".join(f"#include <{h}>\n" for h in includes)),
                       ("ENGINE", engine), ("TABLES", tables), ("SETTINGS", settings + "\n"),
                       ("NET", pack_net(v.king_capture))):
        out = out.replace(f"/*@{mark}@*/\n", text)
    out = out.replace("/*@WEIGHTS@*/", weight_lines)
    # The template's own opening comment is for the package, not the bot.
    out = re.sub(r"\A/\*.*?\*/\n", "", out, flags=re.S)
    return compact(out)


_DECLARATION = re.compile(r"^BD_FN [^;{}]*?\b(\w+)\([^;{}]*\);\n", re.M)
# A static function's definition, up to its opening brace.
_STATIC_DEFINITION = re.compile(r"^static (?:inline )?[\w *]*?\b(\w+)\((?:[^;{}()]|\([^()]*\))*\)\s*\{", re.M)


def _block_end(text: str, i: int) -> int:
    """Where the block whose opening brace is just before ``i`` ends (after
    its closing brace and line end), strings and characters skipped."""
    depth = 1
    while depth:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j
        depth += (c == "{") - (c == "}")
        i += 1
    return i + 1 if text.startswith("\n", i) else i


def _drop_unused_statics(text: str) -> str:
    """The text without the static functions no other line names (the
    headers' helpers for callers the bot leaves out), until none is left:
    each round counts every word of the text once (a name used nowhere but
    its definition appears once) and drops all such functions together."""
    while True:
        counts = collections.Counter(re.findall(r"\w+", text))
        spans = [(m.start(), _block_end(text, m.end())) for m in _STATIC_DEFINITION.finditer(text)
                 if counts[m.group(1)] == 1]
        if not spans:
            return text
        for start, end in reversed(spans):
            text = text[:start] + text[end:]


def compact(text: str) -> str:
    """The bot's C text made shorter and the same program: the engine's
    declarations of functions the file does not define go (the public
    header declares the whole library's: perft, the playouts, the trainer's
    inputs), and so do static functions that nothing calls (helpers of the
    headers for what the bot leaves out); and the indentation goes (C
    needs none: 2,800 characters), but for one blank before a line that a
    backslash continues, so that a macro's tokens stay apart.

    >>> compact("BD_FN int f(void);\\nBD_FN int g(int a,\\n    int b);\\nint f(void) {\\n        return 1;\\n}\\n"
    ...         "static int h(void) { return '}'; }\\n#define TWICE(x) \\\\\\n    ((x) + (x))\\n")
    'BD_FN int f(void);\\nint f(void) {\\nreturn 1;\\n}\\n#define TWICE(x) \\\\\\n ((x) + (x))\\n'
    """
    def declared(m: re.Match) -> str:
        defined = re.search(r"^[^#;\n]*\b" + m.group(1) + r"\([^;{}]*\)\s*\{", text, re.M)
        return m.group(0) if defined else ""

    out = _drop_unused_statics(_DECLARATION.sub(declared, text))
    return re.sub(r"(\\\n|^)[ \t]+", lambda m: m.group(1) and m.group(1) + " ", out, flags=re.M)


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

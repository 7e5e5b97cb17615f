"""The engine has one interface, csrc/brandubh.h (the public header), written
once, and nothing else in it.

1. The cffi cdef is the header's marked section, read from the file: the
   build script declares nothing itself, and no internal header declares
   again what brandubh.h declares.
2. Every constant of the header reaches Python with its value read from the
   compiled module: the enums Python mirrors (Why, Outcome, FEATURES, the
   sides, the pieces, the rule fields' choices) hold every constant of
   their C enum and nothing else, and every other constant is used by name
   in the package.
3. Python reads no insides: the game record and the position are opaque to
   it, and the structs it does fill in (the rule set) have the fields the
   Python layer has.

These are read from the header's text here, independently of cffi's parser.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from brandubh import variant
from brandubh.core import outcomes, position as engine, rules, search
from brandubh.rl import encoding
from brandubh._engine import ffi, lib

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
HEADER = CSRC / "brandubh.h"
PACKAGE = ROOT / "brandubh"
CC = shutil.which("gcc") or shutil.which("cc")


def without_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def section() -> str:
    """The header's lines between the two marker lines, as the build takes
    them: with the mark BD_FN taken from the start of each function."""
    return re.sub(r"^BD_FN ", "", raw_section(), flags=re.M)


def raw_section() -> str:
    """The header's lines between the two marker lines, as written."""
    lines = HEADER.read_text(encoding="utf-8").splitlines()
    begin = [i for i, line in enumerate(lines) if line.strip() == "/* BD_CDEF_BEGIN */"]
    end = [i for i, line in enumerate(lines) if line.strip() == "/* BD_CDEF_END */"]
    assert len(begin) == 1 and len(end) == 1 and begin[0] < end[0], "one BEGIN marker line, then one END"
    return "\n".join(lines[begin[0] + 1 : end[0]]) + "\n"


def c_value(expr: str, known: dict[str, int]) -> int:
    """An enum value or a #define as the header writes them: a number, a name
    met before, or a sum of those."""
    total = 0
    for term in expr.split("+"):
        term = term.strip()
        total += known[term] if term in known else int(term.rstrip("uUlL"), 0)
    return total


def header_enums() -> dict[str, dict[str, int]]:
    """Every enum of the section: its tag ('' for an anonymous one, numbered
    in order: '#1', '#2') and its constants with their values."""
    enums: dict[str, dict[str, int]] = {}
    known: dict[str, int] = {}
    anonymous = 0
    for m in re.finditer(r"\benum\s*(\w*)\s*\{(.*?)\}", without_comments(section()), flags=re.S):
        tag = m.group(1)
        if not tag:
            anonymous += 1
            tag = f"#{anonymous}"
        constants: dict[str, int] = {}
        for item in m.group(2).split(","):
            if item.strip():
                name, _, expr = (part.strip() for part in item.partition("="))
                assert expr, f"{name}: every constant of brandubh.h has its value written"
                constants[name] = known[name] = c_value(expr, known)
        enums[tag] = constants
    return enums


def header_defines() -> dict[str, int]:
    return {m.group(1): int(m.group(2).rstrip("uUlL"), 0)
            for m in re.finditer(r"^#define\s+(\w+)\s+(\S+)\s*$", section(), flags=re.M)}


def header_functions() -> list[str]:
    return re.findall(r"\b(bd_\w+)\s*\(", without_comments(section()))


def package_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py")))


# -- 1. one source ---------------------------------------------------------


def load_build_script():
    spec = importlib.util.spec_from_file_location("brandubh_build_ffi", CSRC / "build_ffi.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cdef_is_the_header_section_and_only_it():
    build = load_build_script()
    assert build.CDEF == section()
    assert build.ffibuilder._cdefsources == [section()], "the build adds a cdef of its own"
    # The module's C source is the header itself, nothing written beside it.
    assert build.ffibuilder._assigned_source[1].strip() == '#include "brandubh.h"'
    # And the build script writes no C declaration of its own.
    code = (CSRC / "build_ffi.py").read_text(encoding="utf-8")
    assert not re.search(r"\b(typedef|struct|enum)\b|#define|\bbd_\w+\s*\(", code)


def test_the_section_declares_the_interface_and_nothing_hides_outside_it():
    text = HEADER.read_text(encoding="utf-8")
    outside = without_comments(text.replace(raw_section(), ""))
    # Outside the markers: the include guard, <stdint.h> and the BD_FN mark
    # (empty unless the popcount copy defines it), nothing more.
    assert re.findall(r"^\s*#\s*(\w+)", outside, flags=re.M) == [
        "ifndef", "define", "include", "ifndef", "define", "endif", "endif"]
    assert re.findall(r"^\s*#\s*define\s+(\w+)", outside, flags=re.M) == ["BD_BRANDUBH_H", "BD_FN"]
    assert not re.search(r"\b(typedef|struct|enum)\b|\bbd_\w+\s*\(", outside)
    for forbidden in ("#include", "#if", "static", "inline"):
        assert forbidden not in without_comments(section()), forbidden


def test_no_internal_header_declares_again_what_the_public_header_declares():
    # C takes the same prototype or macro twice without a word: only a test
    # sees a second copy.
    functions = set(header_functions())
    defines = set(header_defines())
    typedefs = set(re.findall(r"\}\s*(\w+)\s*;|typedef\s+[\w\s]+?\b(\w+)\s*;", without_comments(section())))
    typedefs = {a or b for a, b in typedefs}
    assert {"bd_game", "bd_pos", "bd_variant", "bd_bb", "bd_move"} <= typedefs
    for path in sorted(CSRC.glob("*.h")):
        if path == HEADER:
            continue
        code = without_comments(path.read_text(encoding="utf-8"))
        prototypes = set(re.findall(r"^[\w\s\*]*?\b(bd_\w+)\s*\([^;{]*\)\s*;", code, flags=re.M))
        assert not prototypes & functions, (path.name, prototypes & functions)
        assert not set(re.findall(r"#define\s+(\w+)", code)) & defines, path.name
        own = {a or b for a, b in re.findall(r"\}\s*(\w+)\s*;|typedef\s+[\w\s]+?\b(\w+)\s*;", code)}
        assert not own & typedefs, (path.name, own & typedefs)


def test_every_function_of_the_header_is_in_the_module():
    for name in header_functions():
        assert callable(getattr(lib, name)), name


@pytest.mark.skipif(CC is None, reason="needs a C compiler")
def test_the_header_stands_alone(tmp_path):
    # A C caller needs brandubh.h and nothing else.
    source = tmp_path / "alone.c"
    source.write_text('#include "brandubh.h"\nint main(void) { return bd_game_new(0, 0) != 0; }\n')
    subprocess.run([CC, "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                    f"-I{CSRC}", str(source)], check=True)



# Who calls the library from outside csrc/: the Python package (lib.NAME),
# the page's JavaScript over the WebAssembly build, the CodinGame bot's turn
# loop, and the C driver that uses the public header alone.
CALLERS = [(PACKAGE, "**/*.py"), (ROOT / "web", "*.js"), (PACKAGE / "codingame", "main.c"),
           (ROOT / "tests" / "c", "engine_check.c")]


def callers_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for folder, pattern in CALLERS for p in sorted(folder.glob(pattern)))


def test_the_public_header_declares_nothing_internal():
    # Every function it declares has a caller outside the engine; one only
    # the engine calls belongs in its concept's header.
    text = callers_text()
    uncalled = [name for name in header_functions() if not re.search(rf"\b{name}\b", text)]
    assert not uncalled, f"declared in brandubh.h, called by no caller outside csrc/: {uncalled}"
    # And every name it declares is the library's: bd_ or BD_.
    code = without_comments(section())
    names = set(re.findall(r"#define\s+(\w+)|\b(?:struct|enum)\s+(\w+)|\}\s*(\w+)\s*;"
                           r"|typedef\s+[\w\s]+?\b(\w+)\s*;|^\s*(\w+)\s*=", code, flags=re.M))
    names = {n for group in names for n in group if n} | set(header_functions())
    assert len(names) > 100
    assert not {n for n in names if not n.lower().startswith("bd_")}


def test_the_engine_reaches_the_public_header_through_core_h_alone():
    # The engine's files include their base, core.h (directly or through a
    # concept's header), never the public header itself: what is only the
    # engine's goes in core.h, and brandubh.h stays the interface.
    including = sorted(p.name for p in sorted(CSRC.glob("*.[ch]"))
                       if re.search(r'^\s*#\s*include\s+"brandubh\.h"', p.read_text(encoding="utf-8"), flags=re.M))
    assert including == ["core.h"]


# -- 2. every constant reaches Python ----------------------------------------

# Where Python shows each enum of brandubh.h whole: the C name of every member
# and its value. An enum added to the header fails the test below until it
# is named here or in USED_BY_NAME.
MIRRORED = {
    "bd_why": lambda: {f"BD_WHY_{m.name}": m.value for m in engine.Why},
    "bd_outcome": lambda: {("BD_" if m.name == "ONGOING" else "BD_BY_") + m.name: m.value for m in outcomes.Outcome},
    "bd_off": lambda: {f"BD_OFF_{name.upper()}": bit for name, bit in search.FEATURES.items()},
    "bd_side": lambda: {f"BD_{name.upper()}": i for i, name in enumerate(engine.SIDES)},
    "bd_piece": lambda: {f"BD_{(name or 'empty').upper()}": i for i, name in enumerate(engine.PIECES)},
    "bd_escape": lambda: {f"BD_ESCAPE_{k.upper()}": v for k, v in engine.CHOICES["escape"].items()},
    "bd_king_capture": lambda: {f"BD_KING_{k.upper()}": v for k, v in engine.CHOICES["king_capture"].items()},
    "bd_end": lambda: {f"BD_END_{k.upper()}": v for k, v in engine.CHOICES["no_move"].items()},
    "bd_plane": lambda: {f"BD_PLANE_{name.upper()}": i for i, name in enumerate(encoding.PLANES)},
    "bd_eval": lambda: {f"BD_EVAL_{name.upper()}": i for name, i in search.EVALS.items()},
    "bd_learned_input": lambda: {f"BD_INPUT_{name.upper()}": i for i, name in enumerate(learned_net().INPUTS)},
    "bd_sample_flag": lambda: {f"BD_SAMPLE_{name.upper()}": v for name, v in learned_selfplay().FLAGS.items()},
    "bd_solved": lambda: {f"BD_SOLVED_{name.upper()}": v for v, name in solver().OUTCOMES.items()},
    "bd_solve_stage": lambda: {f"BD_STAGE_{name.upper()}": v for v, name in solver().STAGES.items()},
    "bd_eg": lambda: {f"BD_EG_{name.upper()}": v for v, name in endgame_tables().VALUES.items()},
}
# Enums whose constants the package uses one by one, each as lib.<name>.
USED_BY_NAME = {"bd_did", "bd_pos_code", "bd_play", "bd_vec_code", "bd_restore", "#1", "#2"}


def solver():
    from brandubh.core import solve

    return solve


def endgame_tables():
    from brandubh.core import endgame

    return endgame


def learned_net():
    from brandubh.learn import net

    return net


def learned_selfplay():
    from brandubh.learn import selfplay

    return selfplay


C_ONLY_ENUMS: set = set()
# Constants C keeps to itself, and why.
C_ONLY = {
    "BD_MAX_PLY": "the length of bd_search_result.pv; Python reads pv_length",
    "BD_OUTCOMES": "the length of bd_playout_stats.outcomes: len(Outcome), checked below",
    "BD_LEARNED_INPUTS": "the width of the learned tables' counts: len(brandubh.learn.net.INPUTS), mirrored above",
}


def test_every_enum_of_the_header_has_a_place_in_python():
    enums = header_enums()
    assert set(enums) == set(MIRRORED) | USED_BY_NAME | C_ONLY_ENUMS, "name the new enum in MIRRORED or USED_BY_NAME"


@pytest.mark.parametrize("tag", sorted(MIRRORED))
def test_mirrored_enum_is_the_c_enum_whole(tag):
    want = header_enums()[tag]
    got = MIRRORED[tag]()
    assert list(got.items()) == sorted(want.items(), key=lambda item: item[1])


def test_every_constant_has_its_header_value_in_the_module():
    constants = {name: value for enum in header_enums().values() for name, value in enum.items()}
    constants.update(header_defines())
    assert len(constants) > 60
    for name, value in constants.items():
        assert getattr(lib, name) == value, name


def test_constants_used_by_name_are_used():
    source = package_source()
    enums = header_enums()
    names = [name for tag in USED_BY_NAME for name in enums[tag]] + list(header_defines())
    unused = [name for name in names if f"lib.{name}" not in source and name not in C_ONLY]
    assert not unused, f"constants of brandubh.h the package does not use: {unused}"
    assert lib.BD_OUTCOMES == len(outcomes.Outcome) == len(outcomes.OUTCOME_NAMES)


def test_python_names_and_values_are_the_documented_ones():
    # At least these, with these values: a constant added in C adds to them.
    assert {(w.name, w.value) for w in engine.Why} >= {("OK", 0), ("OFF_BOARD", 1), ("NO_PIECE", 2),
                                                       ("GAME_OVER", 9)}
    assert outcomes.OUTCOME_NAMES[:9] == ("ongoing", "corner", "capture", "no_pieces", "repetition", "encircled",
                                       "no_move", "ply_cap", "quiet_cap")
    assert (rules.PLAY_OK, rules.PLAY_OVER, rules.PLAY_ILLEGAL) == (0, 1, 2)
    assert search.FEATURES.items() >= {"tt": 1, "killers": 2, "history": 4, "pvs": 8, "threats": 16,
                                       "qsearch": 32, "blocks": 64, "lmr": 128}.items()
    assert engine.SIDES == ("attackers", "defenders") and engine.PIECES == ("", "attacker", "defender", "king")
    assert engine.THRONE == engine.square("d4") and engine.CORNERS == tuple(
        engine.square(s) for s in ("a1", "g1", "a7", "g7"))
    assert engine.SQUARES == 49 and (search.MATE, search.WIN) == (30000, 29000)
    # brandubh.views.text draws position strings with no engine, so it keeps the
    # board's two special places itself: they must be the engine's.
    from brandubh.views import text

    assert (text.THRONE, text.CORNERS) == (engine.THRONE, engine.CORNERS)


# -- 3. no insides ----------------------------------------------------------


@pytest.mark.parametrize("opaque", ["bd_game", "bd_pos"])
def test_record_and_position_are_opaque_to_python(opaque):
    with pytest.raises(ffi.error):
        ffi.sizeof(opaque)


def test_the_package_reaches_no_further_than_the_interface():
    source = package_source()
    assert not re.search(r"\.hist\b|ffi\.addressof|\b_g\.\w|\b_pos\.\w", source)


def test_the_rule_set_struct_has_the_variant_s_fields():
    c_fields = [name for name, _ in ffi.typeof("bd_variant").fields]
    assert c_fields == [f.name for f in dataclasses.fields(variant.Variant) if f.init]
    choices = {"escape": variant.ESCAPES, "king_capture": variant.KING_CAPTURES, "no_move": variant.ENDS,
               "repetition": variant.ENDS}
    assert {field: tuple(values) for field, values in engine.CHOICES.items()} == choices
    assert variant.MAX_PLY_CAP == lib.BD_MAX_PLY_CAP


def test_the_weights_are_the_struct_s_fields():
    # Every field but eval, which picks the evaluation and weighs nothing.
    assert search.WEIGHT_NAMES + ("eval",) == tuple(name for name, _ in ffi.typeof("bd_weights").fields)
    assert tuple(search.default_weights()) == search.WEIGHT_NAMES


# -- 4. the popcount copy exports its entry points only ----------------------


@pytest.mark.skipif(CC is None or shutil.which("nm") is None, reason="needs a C compiler and nm")
def test_the_popcount_copy_exports_its_entry_points_only(tmp_path):
    """csrc/popcnt_build.c compiles the engine again with BD_FN as static:
    everything in it but the entry points has internal linkage, so no name
    of the portable build needs renaming. A function declared without the
    mark would show here (and clash at the link)."""
    obj = tmp_path / "popcnt_build.o"
    subprocess.run([CC, "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-c", f"-I{CSRC}",
                    str(CSRC / "popcnt_build.c"), "-o", str(obj)], check=True)
    out = subprocess.run(["nm", "-g", "--defined-only", str(obj)], capture_output=True, text=True,
                         check=True).stdout
    exported = sorted(line.split()[-1] for line in out.splitlines() if line.strip())
    assert exported == ["bd_cpu_has_popcnt", "bd_popcnt_divide", "bd_popcnt_perft",
                        "bd_popcnt_playouts", "bd_popcnt_search"]


def test_every_function_of_the_engine_carries_the_mark():
    """Every function declared in a header (but the popcount entry points)
    is marked BD_FN: the popcount copy relies on it."""
    decl = re.compile(r"^(?!static\b|typedef\b|extern\b|#)[A-Za-z_][\w\s\*]*?\b(bd_\w+)\s*\([^;{]*\)\s*;",
                      flags=re.M)
    for path in sorted(CSRC.glob("*.h")):
        code = without_comments(path.read_text(encoding="utf-8"))
        for m in decl.finditer(code):
            name = m.group(1)
            if name == "bd_cpu_has_popcnt" or name.startswith("bd_popcnt_"):
                assert not m.group(0).startswith("BD_FN"), name
            else:
                assert m.group(0).startswith("BD_FN "), (path.name, name)

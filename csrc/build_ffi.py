"""cffi build script: compiles csrc/ into the extension brandubh._engine.

setup.py names it in `cffi_modules`, so `pip install .` runs it. The cdef is
not written here: it is the part of csrc/brandubh.h, the public header,
between the lines BD_CDEF_BEGIN and BD_CDEF_END, read from that file as it
stands (the header's opening comment says what may go there). The module's C source is
that same header, so the declarations cffi compiles against are the ones it
was given.

Environment:
    BRANDUBH_SANITIZE=1   build with AddressSanitizer and UndefinedBehavior-
                          Sanitizer (see tools/sanitize.sh)
    BRANDUBH_CFLAGS="…"   extra compiler flags, e.g. "-march=native" for a
                          local benchmark build (never in what ships)
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
SOURCES = sorted(p.name for p in HERE.glob("*.c"))
HEADER = HERE / "brandubh.h"
BEGIN, END = "BD_CDEF_BEGIN", "BD_CDEF_END"


FN_MARK = re.compile(r"^BD_FN ", re.M)


def read_cdef(header: Path = HEADER) -> str:
    """The lines of the header strictly between the line ``/* BD_CDEF_BEGIN */``
    and the line ``/* BD_CDEF_END */`` (one of each), with the mark ``BD_FN``
    taken from the start of each function's declaration (an empty macro in
    C, for the popcount copy of the engine: see core.h; cffi's parser does
    not expand macros)."""
    lines = header.read_text(encoding="utf-8").splitlines()
    marks = [[i for i, line in enumerate(lines) if line.strip() == f"/* {mark} */"] for mark in (BEGIN, END)]
    if [len(m) for m in marks] != [1, 1] or marks[0][0] > marks[1][0]:
        raise RuntimeError(f"{header}: want one {BEGIN} line, then one {END} line")
    return FN_MARK.sub("", "\n".join(lines[marks[0][0] + 1 : marks[1][0]]) + "\n")


CDEF = read_cdef()


def compile_args() -> tuple[list[str], list[str]]:
    if sys.platform == "win32":
        return ["/O2"], []
    # Hidden visibility: the module exports only its init function, so the
    # engine's functions cannot be interposed and the compiler may call and
    # inline them directly (the playouts ran about 10% faster for it).
    # -pthread: the search's helper threads and the batched environments'
    # slices (csrc/thread.c).
    cflags = ["-O3", "-std=c99", "-Wall", "-Wextra", "-fno-strict-aliasing", "-fvisibility=hidden", "-pthread"]
    ldflags: list[str] = ["-pthread"]
    if os.environ.get("BRANDUBH_SANITIZE"):
        san = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
               "-fno-omit-frame-pointer", "-O1", "-g"]
        cflags += san
        ldflags += ["-fsanitize=address,undefined"]
    cflags += shlex.split(os.environ.get("BRANDUBH_CFLAGS", ""))
    return cflags, ldflags


ffibuilder = FFI()
ffibuilder.cdef(CDEF)
_cflags, _ldflags = compile_args()
ffibuilder.set_source(
    "brandubh._engine",
    '#include "brandubh.h"',
    sources=[os.path.relpath(HERE / s) for s in SOURCES],
    include_dirs=[os.path.relpath(HERE)],
    extra_compile_args=_cflags,
    extra_link_args=_ldflags,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

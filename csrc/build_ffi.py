"""cffi build script: compiles csrc/ into the extension brandubh._engine.

setup.py names it in `cffi_modules`, so `pip install .` runs it. The cdef
below is the part of csrc/engine.h that Python calls; cffi checks it against
the real headers when it compiles (structs marked `...` are laid out by the
compiler, not by this file).

Environment:
    BRANDUBH_SANITIZE=1   build with AddressSanitizer and UndefinedBehavior-
                          Sanitizer (see tools/sanitize.sh)
    BRANDUBH_CFLAGS="…"   extra compiler flags, e.g. "-march=native" for a
                          local benchmark build (never in what ships)
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
SOURCES = sorted(p.name for p in HERE.glob("*.c"))

CDEF = """
typedef uint64_t bd_bb;
typedef uint16_t bd_move;

typedef struct bd_variant {
    int escape; int throne_pass; int throne_reentry; int throne_hostile;
    int king_armed; int king_capture; int encirclement; int no_pieces;
    int no_move; int repetition; int repeat; int repeat_counts_start;
    int ply_cap; int quiet_cap;
} bd_variant;

typedef struct bd_pos {
    bd_bb att; bd_bb dfn; uint64_t key; int8_t king; uint8_t side;
    ...;
} bd_pos;

typedef struct bd_report { bd_bb captured; int flags; } bd_report;

typedef struct bd_entry {
    bd_pos pos; bd_bb captured; bd_move move; uint16_t quiet; int flags;
    ...;
} bd_entry;

typedef struct bd_game {
    bd_variant v; bd_entry *hist; int ply; int outcome; int winner;
    int start_outcome;
    ...;
} bd_game;

typedef struct bd_perft_stats {
    uint64_t leaves; uint64_t captures; uint64_t endings;
} bd_perft_stats;

typedef struct bd_playout_stats {
    uint64_t games; uint64_t plies; uint64_t outcomes[9]; uint64_t wins[2];
    uint64_t draws;
} bd_playout_stats;

typedef struct bd_weights {
    int attacker; int defender; int lane_one; int lane_two; int freedom;
    int corner_guard; int ring;
} bd_weights;

typedef struct bd_search_limits {
    uint64_t budget; int depth; uint32_t seed; int off; uint64_t tt_bytes;
    const volatile int *stop;
} bd_search_limits;

typedef struct bd_search_result {
    bd_move move; int score; int depth; uint64_t nodes; int stopped;
    int pv_length; bd_move pv[96];
} bd_search_result;

#define BD_MAX_MOVES 160
#define BD_MATE 30000
#define BD_WIN 29000
#define BD_MAX_DEPTH 64
#define BD_POS_TEXT_MAX 64

int bd_variant_normalize(bd_variant *v, int default_ply_cap);

int bd_piece_at(const bd_pos *p, int sq);
int bd_pos_from_string(const char *text, bd_pos *out);
void bd_pos_to_string(const bd_pos *p, char *out);
bd_report bd_pos_do(const bd_variant *v, bd_pos *p, bd_move m, int slides);
bd_bb bd_pos_captures(const bd_variant *v, const bd_pos *p, bd_move m);

int bd_gen_moves(const bd_variant *v, const bd_pos *p, bd_move *out);
int bd_why_not(const bd_variant *v, const bd_pos *p, int from, int to);

bd_game *bd_game_new(const bd_variant *v, const bd_pos *start);
bd_game *bd_game_clone(const bd_game *g);
void bd_game_free(bd_game *g);
int bd_game_play(bd_game *g, bd_move m, bd_report *report);
int bd_game_undo(bd_game *g);
int bd_game_moves(const bd_game *g, bd_move *out);
int bd_game_repeats(const bd_game *g);
int bd_game_legal(bd_game *g, bd_move *moves, bd_bb *captured, int *outcome, int *winner);

int bd_perft(const bd_variant *v, const bd_pos *p, int depth, int slides, int bulk,
             bd_perft_stats *stats, const volatile int *stop);
int bd_divide(const bd_variant *v, const bd_pos *p, int depth, int slides,
              bd_move *moves, uint64_t *counts, const volatile int *stop);
int bd_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out,
                const volatile int *stop);

void bd_default_weights(bd_weights *w);
int bd_evaluate(const bd_variant *v, const bd_pos *p, const bd_weights *w);
int bd_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
              bd_search_result *out);

int bd_cpu_has_popcnt(void);
int bd_popcnt_perft(const bd_variant *v, const bd_pos *p, int depth, int slides, int bulk,
                    bd_perft_stats *stats, const volatile int *stop);
int bd_popcnt_divide(const bd_variant *v, const bd_pos *p, int depth, int slides,
                     bd_move *moves, uint64_t *counts, const volatile int *stop);
int bd_popcnt_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out,
                       const volatile int *stop);
int bd_popcnt_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
                     bd_search_result *out);
"""


def compile_args() -> tuple[list[str], list[str]]:
    if sys.platform == "win32":
        return ["/O2"], []
    # Hidden visibility: the module exports only its init function, so the
    # engine's functions cannot be interposed and the compiler may call and
    # inline them directly (the playouts ran about 10% faster for it).
    cflags = ["-O3", "-std=c99", "-Wall", "-Wextra", "-fno-strict-aliasing", "-fvisibility=hidden"]
    ldflags: list[str] = []
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
    '#include "engine.h"',
    sources=[os.path.relpath(HERE / s) for s in SOURCES],
    include_dirs=[os.path.relpath(HERE)],
    extra_compile_args=_cflags,
    extra_link_args=_ldflags,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

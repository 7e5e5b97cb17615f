/* The engine built a second time for processors with the popcount
 * instruction, chosen at run time.
 *
 * What ships must run on every x86-64, whose baseline has no popcount; the
 * bit-parallel count it falls back on is a dozen instructions where the
 * instruction is one (counted with callgrind: the popcount build runs 20%
 * fewer instructions in the playouts and in bulk perft, 13% fewer in the
 * search). So the hot entry points exist twice:
 * the portable ones (bd_perft, bd_divide, bd_playouts, bd_search) and the
 * same code compiled here for popcount under the names bd_popcnt_*. Python
 * asks bd_cpu_has_popcnt() once and calls one set or the other
 * (brandubh/core/kernels.py). Both give the same answers, node for node: a test
 * compares them.
 *
 * How: every engine source is included below, after a pragma that lets the
 * compiler use the instruction and with BD_FN (core.h) defined as
 * `static`, so that every function of this copy has internal linkage and
 * cannot clash with the portable one at the link: only the four entry
 * points at the end are seen outside this file, and they alone have names
 * of their own. A function whose declaration lacks the mark would be
 * defined twice, and the link fails: nothing can go stale silently
 * (tests/test_interface.py also compiles this file alone and checks what it
 * exports). The constant tables are shared, not compiled again.
 * Elsewhere than x86 (ARM has the instruction in its baseline) and on
 * compilers without the pragma the second copy is the same code, and
 * bd_cpu_has_popcnt() says 0. */

/* Before anything includes core.h: every function of this copy static. */
#define BD_FN static

/* Before any system header, as memory.c asks on its own: the flags of
 * mmap and madvise, which C99 leaves out. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE
#endif

/* Most of this copy is not called here: the portable build serves every
 * call but the four below, and some functions the headers declare (static,
 * here) are not in it at all. Before core.h, for clang judges each
 * declaration by the setting where it stands. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

#include "core.h"
#include "tables.h"

int bd_cpu_has_popcnt(void) {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") != 0;
#elif defined(_MSC_VER) && defined(_M_X64)
    int info[4];
    __cpuid(info, 1);
    return (info[2] >> 23) & 1;   /* CPUID.1:ECX bit 23 is POPCNT */
#else
    return 0;
#endif
}

#if (defined(__x86_64__) || defined(__i386__)) && defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt"))), apply_to = function)
#define BD_HW_POPCOUNT 1
#define BD_POPCNT_PUSHED 1
#elif (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#pragma GCC target("popcnt")
#define BD_HW_POPCOUNT 1
#elif defined(_MSC_VER) && defined(_M_X64)
#define BD_HW_POPCOUNT 1   /* __popcnt64 needs no compiler switch */
#endif

#include "position.c"
#include "movegen.c"
#include "game.c"
#include "perft.c"
#include "playout.c"
#include "lanes.c"
#include "eval.c"
#include "learned.c"
#include "nnue.c"
#include "memory.c"
#include "tt.c"
#include "thread.c"
#include "movepick.c"
#include "search.c"

/* The entry points: the copy's perft, divide, playouts and search, under
 * names of their own. */
int bd_popcnt_perft(const bd_variant *v, const bd_pos *p, int depth, int slides, int bulk,
                    bd_perft_stats *stats, const volatile int *stop) {
    return bd_perft(v, p, depth, slides, bulk, stats, stop);
}

int bd_popcnt_divide(const bd_variant *v, const bd_pos *p, int depth, int slides,
                     bd_move *moves, uint64_t *counts, const volatile int *stop) {
    return bd_divide(v, p, depth, slides, moves, counts, stop);
}

int bd_popcnt_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out,
                       const volatile int *stop) {
    return bd_playouts(g, games, seed, out, stop);
}

int bd_popcnt_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
                     bd_search_result *out) {
    return bd_search(g, limits, w, out);
}

#ifdef BD_POPCNT_PUSHED
#pragma clang attribute pop
#endif

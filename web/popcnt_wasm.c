/* WebAssembly's stand-in for csrc/popcnt_build.c (web/README: the engine
 * built for browsers and Node).
 *
 * The native build compiles the engine twice, the second copy for x86
 * processors with the popcount instruction, chosen at run time. WebAssembly
 * has the instruction in its baseline (i64.popcnt: csrc/bitboard.h uses it
 * under __wasm__), so it has one build: the bd_popcnt_* entry points that
 * csrc/selfplay.c and csrc/vecenv.c may call are the portable ones, and
 * bd_cpu_has_popcnt says 0, as it does wherever there is one build. */
#include "brandubh.h"

int bd_cpu_has_popcnt(void) { return 0; }

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

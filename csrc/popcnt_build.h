/* The hot entry points compiled a second time for processors with the
 * popcount instruction (csrc/popcnt_build.c). Call them only when
 * bd_cpu_has_popcnt() says 1; they answer exactly as bd_perft, bd_divide,
 * bd_playouts and bd_search do. */
#ifndef BD_POPCNT_BUILD_H
#define BD_POPCNT_BUILD_H

#include "perft.h"
#include "playout.h"
#include "search.h"

/* 1 when this processor runs the popcount build. */
int bd_cpu_has_popcnt(void);

int bd_popcnt_perft(const bd_variant *v, const bd_pos *p, int depth, int slides, int bulk,
                    bd_perft_stats *stats, const volatile int *stop);
int bd_popcnt_divide(const bd_variant *v, const bd_pos *p, int depth, int slides,
                     bd_move *moves, uint64_t *counts, const volatile int *stop);
int bd_popcnt_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out,
                       const volatile int *stop);
int bd_popcnt_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
                     bd_search_result *out);

#endif

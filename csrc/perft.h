/* Perft: the number of leaves of the move tree, to check move generation
 * and capture against known counts and to measure their speed. */
#ifndef BD_PERFT_H
#define BD_PERFT_H

#include "movegen.h"

typedef struct bd_perft_stats {
    uint64_t leaves;    /* positions at the last ply */
    uint64_t captures;  /* moves into the last ply that captured (full mode) */
    uint64_t endings;   /* moves into the last ply that ended the game (full mode) */
} bd_perft_stats;

/* Leaves at `depth` from p. With `slides`, nothing is captured and nothing
 * ends the game. With `bulk`, the last ply is counted, not played; without
 * it every leaf is played and `stats` counts captures and endings too. A
 * position that is already an ending has no moves.
 *
 * `stop`: NULL, or a flag owned by the caller, which may set it non-zero
 * from another thread; the walk then gives up within a fraction of a
 * millisecond. Returns 0, or 1 when stopped (the counts are then of part of
 * the tree, and mean nothing). */
int bd_perft(const bd_variant *v, const bd_pos *p, int depth, int slides, int bulk,
             bd_perft_stats *stats, const volatile int *stop);
/* Perft below each move: writes the moves and the counts (BD_MAX_MOVES at
 * most), returns how many moves, or -1 when stopped (as bd_perft). */
int bd_divide(const bd_variant *v, const bd_pos *p, int depth, int slides,
              bd_move *moves, uint64_t *counts, const volatile int *stop);

#endif

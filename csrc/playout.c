#include "playout.h"

#include <string.h>

/* splitmix64: a small generator with no state but the caller's. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int bd_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out) {
    int base = g->ply, outcome = g->outcome, winner = g->winner;
    uint64_t rng = seed, k;
    memset(out, 0, sizeof *out);
    /* Room for the longest game, so no playout allocates. */
    if (bd_game_reserve(g, g->v.ply_cap + 1) != 0) return -1;
    for (k = 0; k < games; k++) {
        bd_move moves[BD_MAX_MOVES];
        while (g->outcome == BD_ONGOING) {
            int n = bd_game_moves(g, moves);
            /* Multiply-shift maps 32 random bits onto 0..n-1 without division. */
            uint64_t pick = ((next_random(&rng) >> 32) * (uint64_t)n) >> 32;
            bd_game_play(g, moves[pick], NULL);
        }
        out->games++;
        out->plies += (uint64_t)(g->ply - base);
        out->outcomes[g->outcome]++;
        if (g->winner == BD_NOBODY) out->draws++;
        else out->wins[g->winner]++;
        g->ply = base;
        g->outcome = outcome;
        g->winner = winner;
    }
    return 0;
}

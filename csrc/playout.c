#include "playout.h"

#include <string.h>

/* splitmix64: a small generator with no state but the caller's. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The moves of the side to move as counts per piece: a move is chosen from
 * these and only the chosen piece's squares are worked out, with no move
 * list. A soldier's count is two table lookups. */
typedef struct choices {
    bd_bb block;
    int from[13];
    int count[13];
    int pieces;
    int total;
} choices;

static int list_choices(const bd_variant *v, const bd_pos *p, choices *c) {
    bd_bb block = bd_blockers(v, p), movers = bd_movers(p);
    int n = 0, total = 0;
    c->block = block;
    while (movers) {
        int from = bd_pop_lsb(&movers);
        int count = from == p->king ? bd_popcount(bd_king_targets(v, p, block))
                                    : bd_soldier_count(from, block);
        c->from[n] = from;
        c->count[n++] = count;
        total += count;
    }
    c->pieces = n;
    c->total = total;
    return total;
}

static bd_move pick(const bd_variant *v, const bd_pos *p, const choices *c, uint64_t random) {
    /* Multiply-shift maps 32 random bits onto 0..total-1 without division. */
    int k = (int)(((random >> 32) * (uint64_t)c->total) >> 32), i = 0;
    bd_bb t;
    while (k >= c->count[i]) k -= c->count[i++];
    for (t = bd_piece_targets(v, p, c->from[i], c->block); k > 0; k--) t &= t - 1;
    return BD_MOVE(c->from[i], bd_lsb(t));
}

int bd_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out) {
    int base = g->ply, outcome = g->outcome, winner = g->winner;
    uint64_t rng = seed, k;
    choices start, now;
    memset(out, 0, sizeof *out);
    /* Room for the longest game, so no playout allocates. */
    if (bd_game_reserve(g, g->v.ply_cap + 1) != 0) return -1;
    list_choices(&g->v, &g->hist[base].pos, &start);
    for (k = 0; k < games; k++) {
        now = start;
        while (g->outcome == BD_ONGOING) {
            bd_game_push(g, pick(&g->v, &g->hist[g->ply].pos, &now, next_random(&rng)));
            bd_game_judge(g, list_choices(&g->v, &g->hist[g->ply].pos, &now));
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

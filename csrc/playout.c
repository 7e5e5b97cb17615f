#include "playout.h"

#include <string.h>

/* splitmix64: a small generator with no state but the caller's. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The moves of the side to move as five sets of squares: where the soldiers
 * slide east, west, north and south (each square one move), and where the
 * king goes. A move is chosen from the counts; only then is its piece found,
 * by walking back from the square it reaches. No move list is written. */
typedef struct choices {
    bd_bb sets[5];
    int count[5];
    int total;
} choices;

static const int BACK[4] = {-1, 1, -7, 7};

static int list_choices(const bd_variant *v, const bd_pos *p, choices *c) {
    bd_bb block = bd_blockers(v, p), allowed = ~(BD_CORNERS | BD_THRONE_BB);
    int d, total = 0;
    bd_slide_sets(p->side == BD_ATTACKERS ? p->att : p->dfn, BD_ALL & ~block, c->sets);
    c->sets[4] = p->side == BD_DEFENDERS && p->king != BD_NONE ? bd_king_targets(v, p, block) : 0;
    for (d = 0; d < 5; d++) {
        if (d < 4) c->sets[d] &= allowed;
        c->count[d] = bd_popcount(c->sets[d]);
        total += c->count[d];
    }
    c->total = total;
    return total;
}

static bd_move pick_choice(const bd_pos *p, const choices *c, uint64_t random) {
    /* Multiply-shift maps 32 random bits onto 0..total-1 without division. */
    int k = (int)(((random >> 32) * (uint64_t)c->total) >> 32), d = 0, to, from;
    bd_bb t, soldiers;
    while (k >= c->count[d]) k -= c->count[d++];
    for (t = c->sets[d]; k > 0; k--) t &= t - 1;
    to = bd_lsb(t);
    if (d == 4) return BD_MOVE(p->king, to);
    soldiers = p->side == BD_ATTACKERS ? p->att : p->dfn;
    for (from = to + BACK[d]; !(soldiers & bd_bit(from)); from += BACK[d]) {
    }
    return BD_MOVE(from, to);
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
            bd_game_push(g, pick_choice(&g->hist[g->ply].pos, &now, next_random(&rng)));
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

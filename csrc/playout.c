#include "game.h"
#include "random.h"

#include <stdlib.h>
#include <string.h>

/* The moves of the side to move as five sets of squares: where the soldiers
 * slide in each direction (each square one move), and where the king goes.
 * A move is chosen from the counts; only then is its piece found, by walking
 * back from the square it reaches. No move list is written.
 *
 * The choice rule, which tests/test_playouts.py replays with the reference:
 * the moves in the order east, west, north, south (enum bd_dir), king, each
 * set by the square reached; the k-th of them, k = (random >> 32) * count
 * >> 32. */
enum { KING_SET = BD_DIRECTIONS, SETS };   /* the king's set follows the four */
typedef struct choices {
    bd_bb sets[SETS];
    int before[SETS];   /* moves in the sets before set d */
    int total;
} choices;

static inline int list_choices(const bd_variant *v, const bd_pos *p, choices *c) {
    bd_bb block = bd_blockers(v, p);
    bd_slide_sets(p->side == BD_ATTACKERS ? p->att : p->dfn, BD_ALL & ~block, c->sets);
    c->sets[BD_EAST] &= BD_SOLDIER_STOPS;
    c->sets[BD_WEST] &= BD_SOLDIER_STOPS;
    c->sets[BD_NORTH] &= BD_SOLDIER_STOPS;
    c->sets[BD_SOUTH] &= BD_SOLDIER_STOPS;
    c->sets[KING_SET] = p->side == BD_DEFENDERS && p->king != BD_NONE ? bd_king_targets(v, p, block) : 0;
    c->before[BD_EAST] = 0;
    c->before[BD_WEST] = bd_popcount(c->sets[BD_EAST]);
    c->before[BD_NORTH] = c->before[BD_WEST] + bd_popcount(c->sets[BD_WEST]);
    c->before[BD_SOUTH] = c->before[BD_NORTH] + bd_popcount(c->sets[BD_NORTH]);
    c->before[KING_SET] = c->before[BD_SOUTH] + bd_popcount(c->sets[BD_SOUTH]);
    c->total = c->before[KING_SET] + bd_popcount(c->sets[KING_SET]);
    return c->total;
}

/* Straight-line code: the direction, the square in its set and the piece
 * are each found without a loop, so the processor has no branch to guess
 * wrong (each wrong guess costs about as much as twenty instructions). */
static inline bd_move pick_choice(const bd_pos *p, const choices *c, uint64_t random) {
    int k = bd_random_below(random, c->total);
    int d = (k >= c->before[BD_WEST]) + (k >= c->before[BD_NORTH]) + (k >= c->before[BD_SOUTH]) +
            (k >= c->before[KING_SET]);
    int to = bd_select(c->sets[d], k - c->before[d]);
    /* For the king's set (d & 3 is then east) the soldier found is unused:
     * finding it anyway keeps the code free of branches. */
    int from = bd_slid_from(p->side == BD_ATTACKERS ? p->att : p->dfn, to, d & 3);
    return BD_MOVE(d == KING_SET ? p->king : from, to);
}

/* Repetition inside the playouts. The positions since the last capture are
 * kept in `trail` (the only ones a position can repeat), and a table of
 * 4096 stamps says which keys may be among them: a position whose slot holds
 * the current epoch is looked for in the trail, any other is new at once. A
 * capture starts a new epoch, which forgets every slot in one step. */
#define SLOTS 4096
typedef struct trail {
    bd_pos *pos;
    int length;
    uint32_t epoch;
    uint32_t stamp[SLOTS];
} trail;

static inline unsigned slot_of(uint64_t key) { return (unsigned)(key >> 52); }

static void trail_forget(trail *t) {
    t->length = 0;
    if (++t->epoch == 0) {   /* wrapped after 2^32 epochs: clear for real */
        memset(t->stamp, 0, sizeof t->stamp);
        t->epoch = 1;
    }
}

/* Add the position; returns how many times it has now occurred in the trail
 * (positions two plies apart never match: each side has moved since). */
static inline int trail_add(trail *t, const bd_pos *p) {
    unsigned s = slot_of(p->key);
    int n = 1, i;
    if (t->stamp[s] == t->epoch) {
        for (i = t->length - 4; i >= 0; i -= 2) {
            const bd_pos *then = &t->pos[i];
            if (then->key == p->key && then->att == p->att && then->dfn == p->dfn &&
                then->king == p->king)
                n++;
        }
    }
    t->stamp[s] = t->epoch;
    /* Field by field: a copy of the whole struct would read back in wide
     * loads what the move has just written in narrow stores, which the
     * processor cannot forward (measured: 8% of the playouts' time). */
    t->pos[t->length].att = p->att;
    t->pos[t->length].dfn = p->dfn;
    t->pos[t->length].key = p->key;
    t->pos[t->length].king = p->king;
    t->pos[t->length].side = p->side;
    t->length++;
    return n;
}

/* Start a playout: the trail holds the game's own positions since its last
 * capture, as the record counts them (the start only when it counts). */
static void trail_start(trail *t, const bd_game *g) {
    int first = g->v.repeat_counts_start ? 0 : 1;
    int oldest = g->ply - g->hist[g->ply].quiet, i;
    if (oldest < first) oldest = first;
    trail_forget(t);
    for (i = oldest; i <= g->ply; i++) {
        t->stamp[slot_of(g->hist[i].pos.key)] = t->epoch;
        t->pos[t->length++] = g->hist[i].pos;
    }
}

int bd_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out,
                const volatile int *stop) {
    /* A const copy: the compiler may keep its fields in registers, as
     * nothing can change it. */
    const bd_variant rules = g->v, *v = &rules;
    uint64_t rng = seed, k;
    choices start, now;
    trail *t;
    int stopped = 0;
    memset(out, 0, sizeof *out);
    if (g->outcome != BD_ONGOING) {
        /* Every playout of a finished game ends where it stands. */
        out->games = games;
        out->outcomes[g->outcome] = games;
        if (g->winner == BD_NOBODY) out->draws = games;
        else out->wins[g->winner] = games;
        return 0;
    }
    /* Room for every position a game can still reach, so no playout
     * allocates. */
    t = (trail *)calloc(1, sizeof *t);
    if (!t) return -1;
    t->pos = (bd_pos *)malloc((size_t)(g->ply + v->ply_cap + 2) * sizeof *t->pos);
    if (!t->pos) { free(t); return -1; }
    list_choices(v, &g->hist[g->ply].pos, &start);
    for (k = 0; k < games; k++) {
        bd_pos p = g->hist[g->ply].pos;
        int ply = g->ply, quiet = g->hist[g->ply].quiet, outcome, winner;
        if (stop && *stop) {
            stopped = 1;
            break;
        }
        now = start;
        trail_start(t, g);
        do {
            bd_report r = bd_pos_make(v, &p, pick_choice(&p, &now, bd_random_next(&rng)), BD_MAKE_PLAY);
            int repeats;
            ply++;
            if (r.captured) {
                quiet = 0;
                trail_forget(t);
            } else {
                quiet++;
            }
            repeats = trail_add(t, &p);
            outcome = bd_judge(v, &p, r.flags, repeats, ply, quiet, list_choices(v, &p, &now), &winner);
        } while (outcome == BD_ONGOING);
        out->games++;
        out->plies += (uint64_t)(ply - g->ply);
        out->outcomes[outcome]++;
        if (winner == BD_NOBODY) out->draws++;
        else out->wins[winner]++;
    }
    free(t->pos);
    free(t);
    return stopped;
}

/* Batched environments: many games stepped by one call (engine.h).
 *
 * Each game is an ordinary record (game.c), its moves added and judged as
 * bd_game_play does it (bd_game_push, bd_game_judge), its moves listed by
 * bd_gen_moves and observed by encode.c: the rules are the engine's, here
 * only the bookkeeping of many games at once. A game that
 * ends is rewound to the start in the same call, its record's memory kept,
 * so a long run allocates only while some game is longer than any before
 * it. All of it is C, one call for all games, so that a learner pays
 * Python's cost once a batch, not once a game. */
#include "encode.h"
#include "game.h"
#include "random.h"

#include <stdlib.h>
#include <string.h>

struct bd_vec {
    int n;
    int max_plies;      /* 0: games end only by the rules */
    int fixed;          /* observations seen by the attackers */
    bd_game **games;
    uint64_t *rng;      /* one generator state per game */
    /* What each game's row of the masks holds: its legal actions, in
     * increasing order (bd_legal_actions), and how many. A step clears these
     * and marks the new ones, where clearing the whole row (1,176 bytes)
     * cost more than the rest of the mask; bd_vec_random draws from them. */
    uint16_t *acts;     /* [n][BD_MAX_MOVES] */
    uint8_t *nacts;     /* [n] */
};

enum { OBS_BYTES = BD_PLANES * BD_SQUARES };

bd_vec *bd_vec_new(const bd_variant *v, const bd_pos *start, int n, int max_plies, int fixed) {
    bd_vec *e = (bd_vec *)calloc(1, sizeof *e);
    int i;
    if (!e) return NULL;
    e->n = n;
    e->max_plies = max_plies;
    e->fixed = fixed;
    e->games = (bd_game **)calloc((size_t)n, sizeof *e->games);
    e->rng = (uint64_t *)calloc((size_t)n, sizeof *e->rng);
    e->acts = (uint16_t *)calloc((size_t)n * BD_MAX_MOVES, sizeof *e->acts);
    e->nacts = (uint8_t *)calloc((size_t)n, sizeof *e->nacts);
    if (!e->games || !e->rng || !e->acts || !e->nacts) { bd_vec_free(e); return NULL; }
    for (i = 0; i < n; i++) {
        e->games[i] = bd_game_new(v, start);
        if (!e->games[i]) { bd_vec_free(e); return NULL; }
    }
    return e;
}

void bd_vec_free(bd_vec *e) {
    int i;
    if (!e) return;
    if (e->games)
        for (i = 0; i < e->n; i++) bd_game_free(e->games[i]);
    free(e->games);
    free(e->rng);
    free(e->acts);
    free(e->nacts);
    free(e);
}

int bd_vec_size(const bd_vec *e) { return e->n; }

const bd_game *bd_vec_game(const bd_vec *e, int i) { return e->games[i]; }

/* The side a game's observation is seen by. */
static inline int viewer(const bd_vec *e, const bd_game *g) {
    return e->fixed ? BD_ATTACKERS : g->hist[g->ply].pos.side;
}

/* Game i's row of the masks from its legal actions: the whole row cleared
 * when `whole`, else only what the row was last marked with. */
static void mark_row(bd_vec *e, int i, uint8_t *masks, const uint16_t *fresh, int n, int whole) {
    uint8_t *row = masks + (size_t)i * BD_ACTIONS;
    uint16_t *acts = e->acts + (size_t)i * BD_MAX_MOVES;
    int k, old = e->nacts[i];
    /* The row is bytes, which may alias anything: each loop reads only
     * locals and what it does not write, or the compiler would read the
     * environment's fields again after every byte. */
    if (whole) memset(row, 0, BD_ACTIONS);
    else
        for (k = 0; k < old; k++) row[acts[k]] = 0;
    for (k = 0; k < n; k++) row[fresh[k]] = 1;
    memcpy(acts, fresh, (size_t)n * sizeof *acts);
    e->nacts[i] = (uint8_t)n;
}

static inline int legal_actions(const bd_game *g, uint16_t *out) {
    return bd_legal_actions(&g->v, &g->hist[g->ply].pos, out);
}

void bd_vec_observe(bd_vec *e, uint8_t *obs, uint8_t *masks) {
    uint16_t fresh[BD_MAX_MOVES];
    int i;
    for (i = 0; i < e->n; i++) {
        const bd_game *g = e->games[i];
        if (obs) bd_observe(g, viewer(e, g), obs + (size_t)i * OBS_BYTES);
        mark_row(e, i, masks, fresh, legal_actions(g, fresh), 1);
    }
}

void bd_vec_reset(bd_vec *e, uint64_t seed, const bd_vec_out *out) {
    uint64_t mix = seed;
    int i;
    for (i = 0; i < e->n; i++) {
        bd_game_rewind(e->games[i]);
        /* Each game's state is a draw of a generator seeded with `seed`:
         * games far apart in number are as unrelated as neighbours. */
        e->rng[i] = bd_random_next(&mix);
    }
    memset(out->rewards, 0, (size_t)e->n * sizeof *out->rewards);
    memset(out->terminated, 0, (size_t)e->n);
    memset(out->truncated, 0, (size_t)e->n);
    memset(out->outcomes, 0, (size_t)e->n);
    memset(out->winners, BD_NOBODY, (size_t)e->n);
    bd_vec_observe(e, out->obs, out->masks);
}

/* Whether actions[i] is a legal move of game i, with room in its record
 * for it. */
static int check(bd_vec *e, int i, int32_t action, int *code) {
    bd_game *g = e->games[i];
    bd_move m = bd_action_move(action);
    if (m == 0 || g->outcome != BD_ONGOING ||
        !(bd_targets(&g->v, &g->hist[g->ply].pos, BD_FROM(m)) & bd_bit(BD_TO(m)))) {
        *code = BD_VEC_ILLEGAL;
        return 0;
    }
    if (bd_game_reserve(g, 1) != 0) {
        *code = BD_VEC_NO_MEMORY;
        return 0;
    }
    return 1;
}

int bd_vec_step(bd_vec *e, const int32_t *actions, const bd_vec_out *out, int *bad) {
    uint16_t fresh[BD_MAX_MOVES];
    int i, code = BD_VEC_OK;
    /* Every action first, so that a refusal leaves every game as it was. */
    for (i = 0; i < e->n; i++) {
        if (!check(e, i, actions[i], &code)) {
            *bad = i;
            return code;
        }
    }
    for (i = 0; i < e->n; i++) {
        bd_game *g = e->games[i];
        int mover = g->hist[g->ply].pos.side, n, ended, cut;
        /* Checked above, with room reserved: recorded as bd_game_play
         * would, the new position's moves counted once for the ending
         * (no move) and the mask both. */
        bd_game_push(g, bd_action_move(actions[i]), BD_MAKE_PLAY);
        n = legal_actions(g, fresh);
        bd_game_judge(g, n);
        ended = g->outcome != BD_ONGOING;
        cut = !ended && e->max_plies && g->ply >= e->max_plies;
        out->terminated[i] = (uint8_t)ended;
        out->truncated[i] = (uint8_t)cut;
        out->outcomes[i] = (uint8_t)g->outcome;
        out->winners[i] = (int8_t)g->winner;
        out->rewards[i] = !ended || g->winner == BD_NOBODY ? 0.0f : g->winner == mover ? 1.0f : -1.0f;
        if (ended || cut) {
            if (out->final_obs) bd_observe(g, viewer(e, g), out->final_obs + (size_t)i * OBS_BYTES);
            bd_game_rewind(g);
            n = legal_actions(g, fresh);
        }
        bd_observe(g, viewer(e, g), out->obs + (size_t)i * OBS_BYTES);
        mark_row(e, i, out->masks, fresh, n, 0);
    }
    return BD_VEC_OK;
}

void bd_vec_random(bd_vec *e, int32_t *actions) {
    int i;
    /* A game in the environment is never over (it is rewound when it ends,
     * and its start is no ending), so it has a move: the k-th of its mask's
     * actions, in increasing order. */
    for (i = 0; i < e->n; i++)
        actions[i] = e->acts[(size_t)i * BD_MAX_MOVES + bd_random_below(bd_random_next(&e->rng[i]), e->nacts[i])];
}

int bd_vec_search(const bd_vec *e, const bd_search_limits *limits, const bd_weights *w,
                  int popcnt, int32_t *actions, int32_t *scores) {
    bd_search_limits mine = *limits;
    bd_search_result found;
    int i, code;
    for (i = 0; i < e->n; i++) {
        if (limits->stop && *limits->stop) return 1;
        mine.seed = limits->seed + (uint32_t)i;
        code = popcnt ? bd_popcnt_search(e->games[i], &mine, w, &found)
                      : bd_search(e->games[i], &mine, w, &found);
        if (code < 0) return -1;
        actions[i] = code == 0 ? bd_move_action(found.move) : -1;
        if (scores) scores[i] = code == 0 ? found.score : 0;
    }
    return limits->stop && *limits->stop ? 1 : 0;
}

/* Batched environments: many games stepped by one call (brandubh.h).
 *
 * Each game is an ordinary record (game.c), its moves added and judged as
 * bd_game_play does it (bd_game_push, bd_game_judge), its moves listed by
 * bd_gen_moves and observed by encode.c: the rules are the engine's, here
 * only the bookkeeping of many games at once. A game that
 * ends is rewound to the start in the same call, its record's memory kept,
 * so a long run allocates only while some game is longer than any before
 * it. All of it is C, one call for all games, so that a learner pays
 * Python's cost once a batch, not once a game.
 *
 * With threads (bd_vec_set_threads), a call splits the games into
 * contiguous slices, each done by whichever of the calling thread and the
 * workers of the environment's pool (thread.h) takes it first. The pool is
 * kept from call to call: a step of a thousand games takes a fraction of
 * a millisecond, and a thread started and joined in each call cost about
 * as much as the second thread saved.
 * Each game's work reads and writes only that game's state and its own
 * rows of the arrays, and each game has its own generator, so the arrays
 * come out byte for byte as on one thread. */
#include "encode.h"
#include "game.h"
#include "random.h"
#include "thread.h"

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
    int threads;        /* the most threads a call splits its games over */
    bd_pool *pool;      /* threads - 1 workers, made by the first call that splits */
};

enum { OBS_BYTES = BD_PLANES * BD_SQUARES };

bd_vec *bd_vec_new(const bd_variant *v, const bd_pos *start, int n, int max_plies, int fixed) {
    bd_vec *e = (bd_vec *)calloc(1, sizeof *e);
    int i;
    if (!e) return NULL;
    e->n = n;
    e->max_plies = max_plies;
    e->fixed = fixed;
    e->threads = 1;
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
    bd_pool_free(e->pool);
    if (e->games)
        for (i = 0; i < e->n; i++) bd_game_free(e->games[i]);
    free(e->games);
    free(e->rng);
    free(e->acts);
    free(e->nacts);
    free(e);
}

int bd_vec_size(const bd_vec *e) { return e->n; }

void bd_vec_set_threads(bd_vec *e, int threads) {
    threads = threads < 1 ? 1 : threads > BD_MAX_THREADS ? BD_MAX_THREADS : threads;
    if (threads != e->threads) {
        /* Another size: the workers are made again when a call needs them. */
        bd_pool_free(e->pool);
        e->pool = NULL;
    }
    e->threads = threads;
}

/* ---- Slices: one call's games split over threads.
 *
 * A job does games [lo, hi) of one call; `code` and `bad` are what its
 * slice found (a step's refusal, a search's stop), `arg` the call's own
 * arguments. */
typedef struct slice {
    bd_vec *e;
    const void *arg;
    void (*work)(struct slice *);
    int lo, hi;
    int code, bad;
} slice;

static void run_slice(void *slices, int k) {
    slice *s = (slice *)slices + k;
    s->work(s);
}

/* Games at least per thread for the cheap calls (a step, the masks, random
 * actions): below it the thread costs more than it saves. A search is worth
 * a thread a game. */
enum { CHEAP_PER_THREAD = 32 };
/* Games at least per thread for the lightest passes (a step's checks, the
 * random actions: a few nanoseconds a game). When each call started its
 * threads (tens of microseconds) it was 8,192: no split of such a pass over
 * a thousand games paid. With the pool's workers awake between runs a
 * split costs a few microseconds, and 512 made two threads' steps over
 * 1,024 games about a tenth faster than 8,192 did (bench/vecenv_threads.c,
 * docs/rl.md's "Threads"). */
enum { LIGHT_PER_THREAD = 512 };

/* Run work over all games in up to e->threads slices, each taken by the
 * calling thread or one of the pool's workers (all by this thread when
 * there are none), all done before it returns; then the slices'
 * results, in order of their games, into out[0..count). Returns how many
 * slices. */
static int run_slices(bd_vec *e, void (*work)(slice *), const void *arg, int per_thread, slice *out) {
    int k, count = e->threads, n = e->n;
    if (count > n / per_thread) count = n / per_thread;
    if (count < 1) count = 1;
    for (k = 0; k < count; k++) {
        out[k].e = e;
        out[k].arg = arg;
        out[k].work = work;
        out[k].lo = (int)((int64_t)n * k / count);
        out[k].hi = (int)((int64_t)n * (k + 1) / count);
        out[k].code = 0;
        out[k].bad = -1;
    }
    if (count > 1 && !e->pool) e->pool = bd_pool_new(e->threads - 1);
    bd_pool_run(e->pool, count, run_slice, out);
    return count;
}

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

static void observe_slice(slice *s) {
    bd_vec *e = s->e;
    uint8_t *const *arrays = (uint8_t *const *)s->arg;   /* obs, masks */
    uint16_t fresh[BD_MAX_MOVES];
    int i;
    for (i = s->lo; i < s->hi; i++) {
        const bd_game *g = e->games[i];
        if (arrays[0]) bd_observe(g, viewer(e, g), arrays[0] + (size_t)i * OBS_BYTES);
        mark_row(e, i, arrays[1], fresh, legal_actions(g, fresh), 1);
    }
}

void bd_vec_observe(bd_vec *e, uint8_t *obs, uint8_t *masks) {
    slice slices[BD_MAX_THREADS];
    uint8_t *arrays[2];
    arrays[0] = obs;
    arrays[1] = masks;
    run_slices(e, observe_slice, arrays, CHEAP_PER_THREAD, slices);
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

/* A step's first pass over a slice: every action checked; the first
 * refused is the slice's `bad`. */
static void check_slice(slice *s) {
    const int32_t *actions = (const int32_t *)s->arg;
    int i, code = BD_VEC_OK;
    for (i = s->lo; i < s->hi; i++) {
        if (!check(s->e, i, actions[i], &code)) {
            s->code = code;
            s->bad = i;
            return;
        }
    }
}

typedef struct step_args {
    const int32_t *actions;
    const bd_vec_out *out;
} step_args;

/* A step's second pass over a slice: the actions played, the rows written. */
static void play_slice(slice *s) {
    bd_vec *e = s->e;
    const step_args *a = (const step_args *)s->arg;
    const bd_vec_out *out = a->out;
    uint16_t fresh[BD_MAX_MOVES];
    int i;
    for (i = s->lo; i < s->hi; i++) {
        bd_game *g = e->games[i];
        int mover = g->hist[g->ply].pos.side, n, ended, cut;
        /* Checked above, with room reserved: recorded as bd_game_play
         * would, the new position's moves counted once for the ending
         * (no move) and the mask both. */
        bd_game_push(g, bd_action_move(a->actions[i]), BD_MAKE_PLAY);
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
}

int bd_vec_step(bd_vec *e, const int32_t *actions, const bd_vec_out *out, int *bad) {
    slice slices[BD_MAX_THREADS];
    step_args a;
    int k, count;
    /* Every action first, so that a refusal leaves every game as it was;
     * the slices are in order, so the first slice that refuses names the
     * first game refused. (Room reserved for games that pass is kept.) */
    count = run_slices(e, check_slice, actions, LIGHT_PER_THREAD, slices);
    for (k = 0; k < count; k++) {
        if (slices[k].code != BD_VEC_OK) {
            *bad = slices[k].bad;
            return slices[k].code;
        }
    }
    a.actions = actions;
    a.out = out;
    run_slices(e, play_slice, &a, CHEAP_PER_THREAD, slices);
    return BD_VEC_OK;
}

static void random_slice(slice *s) {
    bd_vec *e = s->e;
    int32_t *actions = (int32_t *)s->arg;
    int i;
    /* A game in the environment is never over (it is rewound when it ends,
     * and its start is no ending), so it has a move: the k-th of its mask's
     * actions, in increasing order. */
    for (i = s->lo; i < s->hi; i++)
        actions[i] = e->acts[(size_t)i * BD_MAX_MOVES + bd_random_below(bd_random_next(&e->rng[i]), e->nacts[i])];
}

void bd_vec_random(bd_vec *e, int32_t *actions) {
    slice slices[BD_MAX_THREADS];
    run_slices(e, random_slice, actions, LIGHT_PER_THREAD, slices);
}

typedef struct search_args {
    const bd_search_limits *limits;
    const bd_weights *w;
    int popcnt;
    int32_t *actions, *scores;
} search_args;

/* The searches of a slice's games, one after the other, each on one thread
 * (the environment's threads are the slices); code 1 when the stop flag
 * ended them, -1 when out of memory. */
static void search_slice(slice *s) {
    const search_args *a = (const search_args *)s->arg;
    bd_search_limits mine = *a->limits;
    bd_search_result found;
    int i, code;
    mine.threads = 1;
    for (i = s->lo; i < s->hi; i++) {
        if (mine.stop && bd_load_flag(mine.stop)) {
            s->code = 1;
            return;
        }
        mine.seed = a->limits->seed + (uint32_t)i;
        code = a->popcnt ? bd_popcnt_search(s->e->games[i], &mine, a->w, &found)
                         : bd_search(s->e->games[i], &mine, a->w, &found);
        if (code < 0) {
            s->code = -1;
            return;
        }
        a->actions[i] = code == 0 ? bd_move_action(found.move) : -1;
        if (a->scores) a->scores[i] = code == 0 ? found.score : 0;
    }
}

int bd_vec_search(const bd_vec *e, const bd_search_limits *limits, const bd_weights *w,
                  int popcnt, int32_t *actions, int32_t *scores) {
    slice slices[BD_MAX_THREADS];
    search_args a;
    int k, count, code = 0;
    a.limits = limits;
    a.w = w;
    a.popcnt = popcnt;
    a.actions = actions;
    a.scores = scores;
    /* The slices only read the games: the cast lends them to run_slices,
     * which hands each slice its own. */
    count = run_slices((bd_vec *)e, search_slice, &a, 1, slices);
    for (k = 0; k < count; k++) {
        if (slices[k].code < 0) return -1;
        if (slices[k].code > 0) code = 1;
    }
    return code || (limits->stop && bd_load_flag(limits->stop)) ? 1 : 0;
}

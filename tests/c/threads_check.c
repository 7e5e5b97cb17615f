/* A C driver for the engine's threads, for ThreadSanitizer (tools/tsan.sh)
 * and for the plain build (tests/test_threads_search.py):
 *
 *   1. a search on one thread is the same twice (move, score, nodes);
 *   2. searches on 2 and 4 threads, to a depth and to a budget, under every
 *      preset, give a legal move and count no more than the budget (and
 *      half again);
 *   3. a search on 4 threads with no limit ends when another thread raises
 *      the stop flag, and so does one sharing a caller's table;
 *   4. batched environments stepped with 1 and 3 threads, with random and
 *      searched actions, write the same arrays;
 *   5. the proof solver on 2 threads (each side's win looked for on its own,
 *      the table shared): a forced win proven as on one thread, an open
 *      position to a budget, and a solve stopped by its flag.
 *
 * It prints one line a check and exits 1 when any fails. Linux and other
 * POSIX systems (it sleeps with nanosleep).
 *
 *     gcc -std=c99 -O1 -g -pthread -Icsrc csrc/[a-z]*.c tests/c/threads_check.c -o threads_check
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brandubh.h"
#include "thread.h"

static const bd_variant PRESETS[4] = {
    /* esc pass re-entry hostile armed king         encircle nopieces nomove rep repeat start ply quiet */
    {0, 1, 0, 1, 1, BD_KING_NIELSEN, 0, 1, 0, 0, 3, 1, 400, 0},   /* brandubh */
    {0, 1, 1, 1, 1, BD_KING_FOUR_TWO, 1, 0, 1, 1, 3, 0, 200, 0},  /* codingame */
    {0, 1, 1, 1, 1, BD_KING_TWO, 0, 1, 1, 1, 3, 1, 4096, 100},    /* modern */
    {0, 1, 1, 0, 1, BD_KING_TWO, 0, 1, 1, 0, 3, 1, 4096, 0},      /* opentafl */
};

static int failures = 0;

static void expect(int ok, const char *what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int is_legal(const bd_game *g, bd_move m) {
    bd_move moves[BD_MAX_MOVES];
    int i, n = bd_game_moves(g, moves);
    for (i = 0; i < n; i++)
        if (moves[i] == m) return 1;
    return 0;
}

/* Raises the flag after `ms` milliseconds. */
typedef struct stopper {
    volatile int *flag;
    long ms;
} stopper;

static void raise_later(void *arg) {
    stopper *s = (stopper *)arg;
    struct timespec t;
    t.tv_sec = s->ms / 1000;
    t.tv_nsec = (s->ms % 1000) * 1000000L;
    nanosleep(&t, NULL);
    bd_store_flag(s->flag, 1);
}

static void stopped_search(bd_game *g, const bd_weights *w, bd_table *table, const char *what) {
    volatile int flag = 0;
    stopper s;
    bd_thread *t;
    bd_search_limits lim;
    bd_search_result found;
    double t0;
    char line[160];
    memset(&lim, 0, sizeof lim);
    lim.budget = (uint64_t)1 << 40;
    lim.tt_bytes = 1 << 20; /* not a table sized for no budget: its pages are what a sanitizer makes slow */
    lim.seed = 3;
    lim.threads = 4;
    lim.stop = &flag;
    lim.table = table;
    s.flag = &flag;
    s.ms = 50;
    t = bd_thread_start(raise_later, &s);
    if (!t) {
        expect(0, "a thread to raise the flag");
        return;
    }
    t0 = now_ms();
    expect(bd_search(g, &lim, w, &found) == 0, what);
    bd_thread_join(t);
    snprintf(line, sizeof line, "%s: stopped after %.0f ms (flag at 50), %llu nodes, legal move", what,
             now_ms() - t0, (unsigned long long)found.nodes);
    expect(found.stopped && is_legal(g, found.move), line);
}

static void searches(void) {
    int k, threads;
    bd_weights w;
    bd_default_weights(&w);
    /* The learned tables: the threads are what is checked here, and the
     * sanitizer makes the NNUE's loops many times slower (tests/test_nnue.py
     * checks the NNUE itself). */
    w.eval = BD_EVAL_LEARNED;
    for (k = 0; k < 4; k++) {
        bd_variant v = PRESETS[k];
        bd_game *g;
        bd_search_limits lim;
        bd_search_result a, b;
        char line[160];
        if (bd_variant_normalize(&v, v.ply_cap) != 0) exit(2);
        g = bd_game_from_string(&v, "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a");
        if (!g) exit(3);
        memset(&lim, 0, sizeof lim);
        lim.budget = 50000;
        lim.seed = 7;
        lim.threads = 1;
        bd_search(g, &lim, &w, &a);
        lim.threads = 0;
        bd_search(g, &lim, &w, &b);
        snprintf(line, sizeof line, "preset %d: one thread twice, the same (%llu nodes)", k,
                 (unsigned long long)a.nodes);
        expect(a.move == b.move && a.score == b.score && a.nodes == b.nodes && a.depth == b.depth, line);
        for (threads = 2; threads <= 4; threads += 2) {
            memset(&lim, 0, sizeof lim);
            lim.budget = 200000;
            lim.seed = 7;
            lim.threads = threads;
            expect(bd_search(g, &lim, &w, &a) == 0, "a search on threads");
            snprintf(line, sizeof line, "preset %d, %d threads, budget 200000: %llu nodes, depth %d, legal", k,
                     threads, (unsigned long long)a.nodes, a.depth);
            expect(is_legal(g, a.move) && a.nodes <= 300000 && a.nodes > 0, line);
            lim.budget = (uint64_t)1 << 40;
    lim.tt_bytes = 1 << 20; /* not a table sized for no budget: its pages are what a sanitizer makes slow */
            lim.depth = 5;
            expect(bd_search(g, &lim, &w, &a) == 0, "a search on threads to a depth");
            snprintf(line, sizeof line, "preset %d, %d threads, depth 5: depth %d, not stopped, legal", k, threads,
                     a.depth);
            expect(is_legal(g, a.move) && a.depth == 5 && !a.stopped, line);
        }
        /* Lockstep: the threads take turns, so two runs are the same
         * search, and the calling thread's share of the positions is its
         * turns' (about a third of them, with three threads). */
        {
            bd_search_result c;
            memset(&lim, 0, sizeof lim);
            lim.budget = 150000;
            lim.seed = 7;
            lim.threads = 3;
            lim.lockstep = 1;
            expect(bd_search(g, &lim, &w, &a) == 0 && bd_search(g, &lim, &w, &c) == 0, "searches in lockstep");
            snprintf(line, sizeof line, "preset %d, 3 threads in lockstep: twice the same (%llu nodes, %llu its own)",
                     k, (unsigned long long)a.nodes, (unsigned long long)a.own_nodes);
            expect(a.move == c.move && a.score == c.score && a.nodes == c.nodes && a.depth == c.depth &&
                       a.own_nodes == c.own_nodes && is_legal(g, a.move),
                   line);
            snprintf(line, sizeof line, "preset %d, 3 threads in lockstep: the calling thread's share, %llu of %llu",
                     k, (unsigned long long)a.own_nodes, (unsigned long long)a.nodes);
            expect(a.own_nodes * 4 < a.nodes * 2 && a.own_nodes * 4 > a.nodes, line);
        }
        if (k == 0) {
            bd_table *table = bd_table_new(1 << 20);
            stopped_search(g, &w, NULL, "4 threads, no budget, stop flag");
            if (table) stopped_search(g, &w, table, "4 threads, the caller's table, stop flag");
            bd_table_free(table);
        }
        bd_game_free(g);
    }
}

/* Environments with 1 and 3 threads, stepped alike, compared array by array. */
enum { GAMES = 37, OBS = BD_PLANES * BD_SQUARES };

typedef struct arrays {
    uint8_t obs[GAMES * OBS], masks[GAMES * BD_ACTIONS], terminated[GAMES], truncated[GAMES], outcomes[GAMES];
    uint8_t final_obs[GAMES * OBS];
    float rewards[GAMES];
    int8_t winners[GAMES];
    int32_t actions[GAMES], scores[GAMES];
    bd_vec_out out;
} arrays;

static void wire(arrays *a) {
    memset(a, 0, sizeof *a);
    a->out.obs = a->obs;
    a->out.masks = a->masks;
    a->out.rewards = a->rewards;
    a->out.terminated = a->terminated;
    a->out.truncated = a->truncated;
    a->out.outcomes = a->outcomes;
    a->out.winners = a->winners;
    a->out.final_obs = a->final_obs;
}

static int same(const arrays *a, const arrays *b) {
    return !memcmp(a->obs, b->obs, sizeof a->obs) && !memcmp(a->masks, b->masks, sizeof a->masks) &&
           !memcmp(a->terminated, b->terminated, sizeof a->terminated) &&
           !memcmp(a->truncated, b->truncated, sizeof a->truncated) &&
           !memcmp(a->outcomes, b->outcomes, sizeof a->outcomes) &&
           !memcmp(a->final_obs, b->final_obs, sizeof a->final_obs) &&
           !memcmp(a->rewards, b->rewards, sizeof a->rewards) && !memcmp(a->winners, b->winners, sizeof a->winners) &&
           !memcmp(a->actions, b->actions, sizeof a->actions) && !memcmp(a->scores, b->scores, sizeof a->scores);
}

static void environments(void) {
    static arrays one, three;
    bd_variant v = PRESETS[1];
    bd_pos *start = bd_pos_new();
    bd_vec *e1, *e3;
    bd_weights w;
    bd_search_limits lim;
    int step, bad, ok = 1, steps = 120;
    char line[160];
    if (!start || bd_variant_normalize(&v, v.ply_cap) != 0 ||
        bd_pos_from_string("3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a", start) != BD_POS_OK)
        exit(3);
    bd_default_weights(&w);
    /* The learned tables: the threads are what is checked here, and the
     * sanitizer makes the NNUE's loops many times slower (tests/test_nnue.py
     * checks the NNUE itself). */
    w.eval = BD_EVAL_LEARNED;
    memset(&lim, 0, sizeof lim);
    lim.budget = 400;
    lim.seed = 11;
    e1 = bd_vec_new(&v, start, GAMES, 60, 0);
    e3 = bd_vec_new(&v, start, GAMES, 60, 0);
    if (!e1 || !e3) exit(3);
    bd_vec_set_threads(e3, 3);
    wire(&one);
    wire(&three);
    bd_vec_reset(e1, 5, &one.out);
    bd_vec_reset(e3, 5, &three.out);
    ok = same(&one, &three);
    for (step = 0; step < steps && ok; step++) {
        /* Every third step the search is the teacher; else random moves. */
        if (step % 3 == 0) {
            ok = bd_vec_search(e1, &lim, &w, 0, one.actions, one.scores) == 0 &&
                 bd_vec_search(e3, &lim, &w, 0, three.actions, three.scores) == 0;
        } else {
            bd_vec_random(e1, one.actions);
            bd_vec_random(e3, three.actions);
        }
        ok = ok && bd_vec_step(e1, one.actions, &one.out, &bad) == BD_VEC_OK &&
             bd_vec_step(e3, three.actions, &three.out, &bad) == BD_VEC_OK && same(&one, &three);
    }
    snprintf(line, sizeof line, "%d games, 1 and 3 threads: the same arrays for %d steps", GAMES, step);
    expect(ok && step == steps, line);
    /* An illegal action in two slices: the first game named, nothing played. */
    bd_vec_random(e3, three.actions);
    three.actions[30] = 0;
    three.actions[20] = 0;
    expect(bd_vec_step(e3, three.actions, &three.out, &bad) == BD_VEC_ILLEGAL && bad == 20,
           "3 threads: the first illegal action is named");
    bd_vec_free(e1);
    bd_vec_free(e3);
    bd_pos_free(start);
}

/* Solve to the end, or to `budget` positions, on `threads` threads. */
static bd_solve_status solved(const char *start, const char *moves, int threads, uint64_t budget,
                              const volatile int *stop) {
    bd_variant v = PRESETS[0];
    bd_game *g;
    bd_solver *s;
    bd_solve_status st;
    const char *m;
    memset(&st, 0, sizeof st);
    st.solved = -1;
    if (bd_variant_normalize(&v, v.ply_cap) != 0 || !(g = bd_game_from_string(&v, start))) exit(3);
    for (m = moves; *m; m += m[4] ? 5 : 4) {
        bd_move move = (bd_move)(((m[1] - '1') * 7 + (m[0] - 'a')) * 64 + (m[3] - '1') * 7 + (m[2] - 'a'));
        if (bd_game_play(g, move, NULL) != BD_PLAY_OK) exit(3);
    }
    s = bd_solver_new(g, 1 << 20);
    bd_game_free(g);
    if (!s) exit(2);
    if (bd_solver_threads(s, threads) != threads) expect(0, "the solver takes the threads asked for");
    do {
        uint64_t before = st.nodes;
        if (bd_solver_run(s, budget < 20000 ? budget : 20000, stop, &st) != 0) break;
        budget -= st.nodes - before < budget ? st.nodes - before : budget;
    } while (st.stage != BD_STAGE_DONE && budget && !st.stopped);
    bd_solver_free(s);
    return st;
}

static void solver(void) {
    static const volatile int raised = 1;
    static const char *const START = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a";
    /* The defenders win in 7 (tests/c/solve_check.c). */
    static const char *const WIN = "d7b7 d3c3 b4b2 c4c7 b2b3 c3d3 d2e2 c7d7 f4f5";
    bd_solve_status one = solved(START, WIN, 1, (uint64_t)1 << 30, NULL);
    bd_solve_status two = solved(START, WIN, 2, (uint64_t)1 << 30, NULL);
    char line[160];
    snprintf(line, sizeof line, "solver, 2 threads: a win in %d proven (%llu positions; one thread %llu)", two.plies,
             (unsigned long long)two.nodes, (unsigned long long)one.nodes);
    expect(one.solved == BD_SOLVED_WIN && two.solved == BD_SOLVED_WIN && two.winner == one.winner &&
               two.plies == one.plies && two.shortest && two.proof_positions > 0,
           line);
    two = solved(START, "", 2, 30000, NULL);
    snprintf(line, sizeof line, "solver, 2 threads, the start to 30000 positions: open, %llu positions",
             (unsigned long long)two.nodes);
    expect(two.solved == BD_SOLVED_OPEN && two.nodes >= 30000 && two.nodes <= 30002 && !two.stopped, line);
    two = solved(START, "", 2, (uint64_t)1 << 30, &raised);
    snprintf(line, sizeof line, "solver, 2 threads, the stop flag raised: stopped after %llu positions",
             (unsigned long long)two.nodes);
    expect(two.stopped && two.solved == BD_SOLVED_OPEN && two.nodes <= 2 * 1024 + 2, line);
}

int main(void) {
    searches();
    environments();
    solver();
    printf("%s\n", failures ? "FAILED" : "all ok");
    return failures ? 1 : 0;
}

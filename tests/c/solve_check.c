/* A C driver for memory checkers: the proof solver (csrc/solve.c) on forced
 * wins (one with the smallest table, so that the proof is searched again
 * where the table lost it), a draw, a game whose history makes a
 * repetition, a game over already and a solve stopped by its flag; every
 * proof line read back; the wins and the stop again on two threads (each
 * side's win looked for on its own, the table shared). Prints "ok" when
 * every answer is the one expected (tests/test_solve.py runs it under
 * valgrind). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brandubh.h"

static const bd_variant BRANDUBH = {0, 1, 0, 1, 1, BD_KING_NIELSEN, 0, 1, 0, 0, 3, 1, 400, 0};
static const bd_variant OPENTAFL = {0, 1, 1, 0, 1, BD_KING_TWO, 0, 1, 1, 0, 3, 1, 4096, 0};

static int failures = 0;

static int square(const char *name) { return (name[1] - '1') * 7 + (name[0] - 'a'); }

/* A game from a start and moves (stored form, space-separated). */
static bd_game *game_of(bd_variant v, const char *start, const char *moves) {
    bd_game *g;
    const char *m;
    if (bd_variant_normalize(&v, v.ply_cap) != 0) return NULL;
    g = bd_game_from_string(&v, start);
    for (m = moves; g && *m; m += 5) {
        bd_move move = (bd_move)(square(m) * 64 + square(m + 2));
        if (bd_game_play(g, move, NULL) != BD_PLAY_OK) failures++;
        if (!m[4]) break;
    }
    return g;
}

/* Solve to the end on `threads` threads; check what was found. */
static void check_on(int threads, bd_variant v, const char *start, const char *moves, uint64_t table, int solved,
                     int winner, int plies) {
    bd_game *g = game_of(v, start, moves);
    bd_solver *s;
    bd_solve_status st;
    char text[BD_POS_TEXT_MAX];
    bd_move move;
    uint64_t i;
    if (!g) { failures++; return; }
    s = bd_solver_new(g, table);
    bd_game_free(g);   /* the solver keeps a copy of what it needs */
    if (!s) { failures++; return; }
    if (bd_solver_threads(s, threads) != threads) failures++;
    do {
        if (bd_solver_run(s, 50000, NULL, &st) != 0) { failures++; break; }
    } while (st.stage != BD_STAGE_DONE);
    if (st.solved != solved || (solved == BD_SOLVED_WIN && (st.winner != winner || st.plies != plies || !st.shortest))) {
        printf("%s %s: solved %d winner %d plies %d shortest %d\n", start, moves, st.solved, st.winner, st.plies,
               st.shortest);
        failures++;
    }
    for (i = 0; i < st.proof_lines; i++) {
        if (!bd_solver_proof_line(s, i, text, &move) || !move || strlen(text) < 15) failures++;
    }
    if (bd_solver_proof_line(s, st.proof_lines, text, &move)) failures++;
    bd_solver_free(s);
}

static void check(bd_variant v, const char *start, const char *moves, uint64_t table, int solved, int winner,
                  int plies) {
    check_on(1, v, start, moves, table, solved, winner, plies);
    check_on(2, v, start, moves, table, solved, winner, plies);
}

int main(void) {
    static const volatile int raised = 1;
    bd_variant capped = BRANDUBH, opentafl_two = OPENTAFL;
    bd_game *g;
    bd_solver *s;
    bd_solve_status st;
    int threads;

    check(BRANDUBH, "7/7/7/3k3/7/7/a6 d", "", 1 << 20, BD_SOLVED_WIN, BD_DEFENDERS, 3);
    check(BRANDUBH, "7/7/7/3k3/7/7/a6 a", "", 1 << 20, BD_SOLVED_WIN, BD_DEFENDERS, 4);
    /* A win in 7 whose proof has some 3,500 positions (the proof's map grows). */
    check(BRANDUBH, "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a", "d7b7 d3c3 b4b2 c4c7 b2b3 c3d3 d2e2 c7d7 f4f5", 1 << 20,
          BD_SOLVED_WIN, BD_DEFENDERS, 7);
    /* A win in 8 with the smallest table: facts lost, searched again. */
    check(BRANDUBH, "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a", "d6g6 d3a3 a4a6 e4e1 a6b6 e1e2 d1c1 c4c2 g6f6 d5b5 b6c6 a3b3",
          0, BD_SOLVED_WIN, BD_DEFENDERS, 8);
    /* The ply cap leaves two plies: a draw. */
    capped.ply_cap = 2;
    check(capped, "7/7/7/3k3/7/7/a6 d", "", 1 << 20, BD_SOLVED_DRAW, BD_NOBODY, 0);
    /* The history makes a repetition the attackers escape into: a draw. */
    opentafl_two.repeat = 2;
    opentafl_two.ply_cap = 7;
    check(opentafl_two, "2k4/1a5/7/7/7/7/7 a", "b6b7 c7d7 b7b3 d7c7", 1 << 20, BD_SOLVED_DRAW, BD_NOBODY, 0);
    /* Over already: no attacker left. */
    check(BRANDUBH, "7/7/7/3k3/7/7/7 a", "", 1 << 20, BD_SOLVED_WIN, BD_DEFENDERS, 0);
    /* Stopped by its flag: nothing settled, and it goes on when asked; on
     * one thread and on two. */
    for (threads = 1; threads <= 2; threads++) {
        g = game_of(BRANDUBH, "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a", "");
        s = g ? bd_solver_new(g, 1 << 20) : NULL;
        if (!s || bd_solver_threads(s, threads) != threads || bd_solver_run(s, 1000000, &raised, &st) != 0 ||
            !st.stopped || st.solved != BD_SOLVED_OPEN || st.nodes > 2000)
            failures++;
        if (s && (bd_solver_run(s, 3000, NULL, &st) != 0 || st.stopped || st.nodes < 3000)) failures++;
        bd_solver_free(s);
        bd_game_free(g);
    }
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}

/* A C driver for memory checkers: a search, a long random game with undo,
 * playouts, perft and the move list, under every preset, with every
 * allocation freed. It uses nothing but the public interface (brandubh.h),
 * handles and accessors included, so it also shows that a C caller needs no
 * more. Built and run by tests/test_valgrind.py (and usable with any
 * sanitizer):
 *
 *     gcc -O1 -g -Icsrc csrc/[a-z]*.c tests/c/engine_check.c -o engine_check
 *     valgrind --error-exitcode=1 --leak-check=full ./engine_check
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brandubh.h"

static const bd_variant PRESETS[4] = {
    /* esc pass re-entry hostile armed king         encircle nopieces nomove rep repeat start ply quiet */
    {0, 1, 0, 1, 1, BD_KING_NIELSEN, 0, 1, 0, 0, 3, 1, 400, 0},   /* brandubh */
    {0, 1, 1, 1, 1, BD_KING_FOUR_TWO, 1, 0, 1, 1, 3, 0, 200, 0},  /* codingame */
    {0, 1, 1, 1, 1, BD_KING_TWO, 0, 1, 1, 1, 3, 1, 4096, 100},    /* modern */
    {0, 1, 1, 0, 1, BD_KING_TWO, 0, 1, 1, 0, 3, 1, 4096, 0},      /* opentafl */
};

static uint64_t next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(void) {
    int k, failures = 0;
    uint64_t rng = 88172645463325252ULL;
    for (k = 0; k < 4; k++) {
        bd_variant v = PRESETS[k];
        bd_pos *start = bd_pos_new(), *board;
        bd_game *g, *copy;
        bd_move moves[BD_MAX_MOVES], *log;
        bd_report r;
        bd_bb captured[BD_MAX_MOVES];
        int outcome[BD_MAX_MOVES], winner[BD_MAX_MOVES];
        bd_weights w;
        bd_search_limits limits = {20000, 0, 7, 0, 0, NULL, NULL, 1, 0, NULL, NULL};
        bd_search_result found;
        bd_playout_stats stats;
        bd_perft_stats perft;
        char text[BD_POS_TEXT_MAX];
        int n, i, plies = 0;
        bd_move m;

        if (!start) return 3;
        if (bd_variant_normalize(&v, v.ply_cap) != 0) return 2;
        if (bd_pos_from_string("3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a", start) != BD_POS_OK) return 2;
        g = bd_game_new(&v, start);
        if (!g) return 3;
        bd_default_weights(&w);
        /* A long random game, searching now and then, with undo. */
        while (bd_game_outcome(g) == BD_ONGOING) {
            n = bd_game_legal(g, moves, captured, outcome, winner);
            if (n <= 0) { failures++; break; }
            if (plies % 25 == 0 && bd_search(g, &limits, &w, &found) != 0) failures++;
            m = moves[next(&rng) % (uint64_t)n];
            r = bd_game_preview(g, m);
            if (bd_game_play(g, m, NULL) != BD_PLAY_OK) failures++;
            if (bd_game_move_at(g, bd_game_ply(g)) != m) failures++;
            if (bd_game_report_at(g, bd_game_ply(g)).captured != r.captured) failures++;
            if (next(&rng) % 10 == 0) bd_game_undo(g);
            bd_pos_to_string(bd_game_pos_at(g, bd_game_ply(g)), text);
            plies++;
        }
        /* The record read back, and a position of its own played on. */
        log = (bd_move *)malloc(((size_t)bd_game_ply(g) + 1) * sizeof *log);
        if (!log || bd_game_log(g, log) != bd_game_ply(g)) failures++;
        board = bd_pos_copy(bd_game_pos_at(g, 0));
        if (!board || bd_game_pos_at(g, bd_game_ply(g) + 1) != NULL) failures++;
        for (i = 0; log && board && i < bd_game_ply(g); i++) bd_pos_move(&v, board, log[i]);
        if (board && bd_pos_key(board) != bd_pos_key(bd_game_pos_at(g, bd_game_ply(g)))) failures++;
        if (board && bd_pos_side(board) != bd_game_side(g)) failures++;
        free(log);
        bd_pos_free(board);
        {
            /* A game made from its text; a text refused makes none. */
            bd_game *small = bd_game_from_string(&v, "7/7/7/3k3/7/7/a6 d");
            if (!small || bd_game_side(small) != BD_DEFENDERS || bd_game_from_string(&v, "7/7 d") != NULL)
                failures++;
            bd_game_free(small);
        }
        copy = bd_game_clone(g);
        while (bd_game_undo(copy)) {
        }
        if (bd_playouts(copy, 200, 5, &stats, NULL) != 0 || stats.games != 200) failures++;
        if (bd_perft(&v, start, 3, 0, 0, &perft, NULL) != 0) failures++;
        if (perft.leaves != 39512) failures++;
        limits.budget = 200000;
        if (bd_search(copy, &limits, &w, &found) != 0 || found.nodes > 200000) failures++;
        {
            /* A table kept over two searches and cleared: the caller's to
             * free. 4 MiB: on Linux mapped whole for huge pages (memory.c). */
            bd_table *kept = bd_table_new(4u << 20);
            bd_search_result again;
            if (!kept) return 3;
            limits.table = kept;
            limits.budget = 20000;
            if (bd_search(copy, &limits, &w, &found) != 0 || bd_search(copy, &limits, &w, &again) != 0 ||
                again.move == 0)
                failures++;
            bd_table_clear(kept);
            limits.table = NULL;
            bd_table_free(kept);
        }
        {
            /* Raised stop flags, and a table sized by hand: each call gives
             * up at once and frees what it took. */
            int stop = 1;
            bd_search_limits stopped = {1000000, 0, 7, 0, 1u << 20, &stop, NULL, 1, 0, NULL, NULL};
            bd_search_result none;
            bd_move divided[BD_MAX_MOVES];
            uint64_t counts[BD_MAX_MOVES];
            if (bd_search(copy, &stopped, &w, &none) != 0 || !none.stopped || none.nodes != 0) failures++;
            if (bd_perft(&v, start, 5, 0, 1, &perft, &stop) != 1) failures++;
            if (bd_divide(&v, start, 5, 0, divided, counts, &stop) != -1) failures++;
            if (bd_playouts(copy, 200, 5, &stats, &stop) != 1 || stats.games != 0) failures++;
        }
        {
            /* A batched environment: random games through many endings and
             * restarts (every record grows past its first room), a refused
             * step, a search of every game, and all of it freed. */
            enum { GAMES = 8, OBS = BD_PLANES * BD_SQUARES };
            static uint8_t obs[GAMES][OBS], final_obs[GAMES][OBS], masks[GAMES][BD_ACTIONS];
            static float rewards[GAMES];
            static uint8_t terminated[GAMES], truncated[GAMES], outcomes[GAMES];
            static int8_t winners[GAMES];
            int32_t actions[GAMES], scores[GAMES];
            bd_vec_out out = {obs[0], masks[0], rewards, terminated, truncated, outcomes, winners, final_obs[0]};
            bd_search_limits few = {300, 0, 1, 0, 0, NULL, NULL, 1, 0, NULL, NULL};
            bd_vec *e = bd_vec_new(&v, start, GAMES, k == 0 ? 0 : 30, k & 1);
            int bad = -1, ended = 0, step;
            if (!e || bd_vec_size(e) != GAMES) return 3;
            bd_vec_reset(e, 11, &out);
            for (step = 0; step < 300; step++) {
                bd_vec_random(e, actions);
                for (i = 0; i < GAMES; i++)
                    if (!masks[i][actions[i]]) failures++;
                if (bd_vec_step(e, actions, &out, &bad) != BD_VEC_OK) failures++;
                for (i = 0; i < GAMES; i++) ended += terminated[i] | truncated[i];
            }
            bd_vec_random(e, actions);
            actions[GAMES - 1] = 0;   /* a1 east: no piece of the side to move there */
            if (bd_vec_step(e, actions, &out, &bad) != BD_VEC_ILLEGAL || bad != GAMES - 1) failures++;
            bd_vec_observe(e, obs[0], masks[0]);
            if (bd_vec_search(e, &few, &w, 0, actions, scores) != 0) failures++;
            for (i = 0; i < GAMES; i++)
                if (actions[i] < 0 || !masks[i][actions[i]] || bd_game_ply(bd_vec_game(e, i)) < 0) failures++;
            if (ended == 0 || bd_move_action(bd_action_move(85)) != 85 || bd_action_move(6) != 0) failures++;
            bd_vec_free(e);
        }
        printf("preset %d: %d plies, outcome %d, search %llu nodes\n", k, plies, bd_game_outcome(g),
               (unsigned long long)found.nodes);
        bd_game_free(copy);
        bd_game_free(g);
        bd_pos_free(start);
    }
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}

/* The staged picker (csrc/movepick.c) against the order it stands for:
 * every move of the position keyed (bd_order_keys, the table move above
 * all) and picked from the whole list, the best of the rest swapped into
 * each of the first three places and the rest sorted stably, as the search
 * picked them before it had stages. On positions of random games under
 * several rule sets, with random table moves (a move here, a move from
 * elsewhere, none), killers and sparse history full of ties, each with and
 * without blocks, the picker must give every move once, in that order,
 * each with the kind (bd_picked) its key says.
 *
 * Built and run by tests/test_movepick.py. Prints "ok" and the counts, or
 * the first disagreement. */
#include <stdio.h>
#include <string.h>

/* The engine's insides (the game record's layout), not only its interface. */
#include "game.h"
#include "movepick.h"

#define PICKS 3   /* as in csrc/movepick.c */

static uint64_t next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int below(uint64_t *s, int n) { return (int)(next(s) % (uint64_t)n); }

static const bd_variant VARIANTS[5] = {
    /* esc pass re-entry hostile armed king         encircle nopieces nomove rep repeat start ply quiet */
    {0, 1, 0, 1, 1, BD_KING_NIELSEN, 0, 1, 0, 0, 3, 1, 400, 0},   /* brandubh */
    {0, 1, 1, 1, 1, BD_KING_FOUR_TWO, 1, 0, 1, 1, 3, 0, 200, 0},  /* codingame */
    {0, 1, 1, 1, 1, BD_KING_TWO, 0, 1, 1, 1, 3, 1, 4096, 100},    /* modern */
    {0, 1, 1, 0, 1, BD_KING_TWO, 0, 1, 1, 0, 3, 1, 4096, 0},      /* opentafl */
    {1, 0, 1, 0, 0, BD_KING_TWO, 0, 1, 1, 0, 3, 1, 4096, 0},      /* edge escape, unarmed king */
};

/* A move here, a move from elsewhere (or no move at all), or none. */
static bd_move any_move(uint64_t *rng, const bd_move *moves, int n) {
    int r = below(rng, 4);
    return r == 0 ? 0 : r == 3 ? (bd_move)below(rng, 4096) : moves[below(rng, n)];
}

static int kind_of(int key) {
    return key >= BD_ORDER_TT ? BD_PICKED_TT : key >= BD_ORDER_BLOCK ? BD_PICKED_SPECIAL
         : key >= BD_ORDER_KILLER2 ? BD_PICKED_KILLER : BD_PICKED_QUIET;
}

/* The reference order of moves[0..n) by keys[], in place. */
static void reference_order(bd_move *moves, int *keys, int n) {
    int i, j, k;
    for (i = 0; i < n && i < PICKS; i++) {
        int best = i;
        bd_move m;
        int s;
        for (j = i + 1; j < n; j++)
            if (keys[j] > keys[best]) best = j;
        m = moves[i], s = keys[i];
        moves[i] = moves[best], keys[i] = keys[best];
        moves[best] = m, keys[best] = s;
    }
    for (j = PICKS + 1; j < n; j++) {
        bd_move m = moves[j];
        int s = keys[j];
        for (k = j; k > PICKS && keys[k - 1] < s; k--) {
            moves[k] = moves[k - 1];
            keys[k] = keys[k - 1];
        }
        moves[k] = m;
        keys[k] = s;
    }
}

int main(void) {
    static int32_t history[4096];
    uint64_t rng = 88172645463325252ULL;
    long checked = 0, table_moves = 0, specials_first = 0, killers_first = 0;
    int trial;
    for (trial = 0; trial < 60000; trial++) {
        const bd_variant *v = &VARIANTS[trial % 5];
        bd_move moves[BD_MAX_MOVES], killers[2], tt, m;
        int keys[BD_MAX_MOVES], n, i, k, plies = below(&rng, 40), with_blocks = below(&rng, 4) != 0;
        const int32_t *hist = below(&rng, 5) ? history : NULL;
        bd_picker pk;
        const bd_pos *p;
        bd_pos start;
        bd_game *g;
        bd_pos_from_string("3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a", &start);
        g = bd_game_new(v, &start);
        if (!g) return 2;
        for (k = 0; k < plies && g->outcome == BD_ONGOING; k++) {
            n = bd_gen_moves(v, &g->hist[g->ply].pos, moves);
            if (n == 0) break;
            bd_game_play(g, moves[below(&rng, n)], NULL);
        }
        p = &g->hist[g->ply].pos;
        n = bd_gen_moves(v, p, moves);
        if (g->outcome != BD_ONGOING || n == 0) {
            bd_game_free(g);
            continue;
        }
        memset(history, 0, sizeof history);
        for (i = 0; i < n; i++)
            if (below(&rng, 3) == 0) history[moves[i]] = below(&rng, 4);
        tt = any_move(&rng, moves, n);
        killers[0] = any_move(&rng, moves, n);
        killers[1] = any_move(&rng, moves, n);
        if (killers[1] == killers[0] || !killers[0]) killers[1] = 0;
        bd_order_keys(v, p, moves, n, killers, hist, with_blocks, keys);
        for (i = 0; i < n; i++)
            if (moves[i] == tt) keys[i] = BD_ORDER_TT;
        reference_order(moves, keys, n);
        bd_picker_init(&pk, v, p, tt, killers, hist, with_blocks);
        for (i = 0; (m = bd_next_move(&pk)) != 0; i++) {
            if (i >= n || m != moves[i] || bd_picked(&pk) != kind_of(keys[i])) {
                char text[BD_POS_TEXT_MAX];
                bd_pos_to_string(p, text);
                printf("differs at move %d of %d: %s (variant %d), table move %d, killers %d %d, "
                       "blocks %d, history %s: %d (kind %d) where %d (kind %d)\n",
                       i, n, text, trial % 5, tt, killers[0], killers[1], with_blocks, hist ? "on" : "off",
                       m, bd_picked(&pk), i < n ? moves[i] : 0, i < n ? kind_of(keys[i]) : -1);
                return 1;
            }
        }
        if (i != n) {
            printf("gave %d moves of %d\n", i, n);
            return 1;
        }
        checked++;
        if (keys[0] == BD_ORDER_TT) table_moves++;
        else if (keys[0] >= BD_ORDER_BLOCK) specials_first++;
        else if (keys[0] >= BD_ORDER_KILLER2) killers_first++;
        bd_game_free(g);
    }
    printf("ok %ld positions; the first move the table move in %ld, a special move in %ld, a killer in %ld\n",
           checked, table_moves, specials_first, killers_first);
    return 0;
}

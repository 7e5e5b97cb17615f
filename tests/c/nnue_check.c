/* The NNUE's sums carried from move to move (nnue.h: bd_nnue_move, as the
 * search carries them) against the sums built afresh (bd_nnue_refresh), on
 * random games under one rule set:
 *
 *   - after every move, captures and the king's capture included, the
 *     carried sums are the refreshed ones, byte for byte, and score the
 *     same, made and scored in one pass as the search evaluates
 *     (bd_nnue_move_score) too;
 *   - every few moves a search from the position, built with
 *     BD_NNUE_CHECK, under which the search compares each score it takes
 *     from its carried sums with the full refresh's and aborts on the first
 *     that differs; and the same search with the sums built afresh at
 *     every evaluation (BD_OFF_INCREMENTAL) finds the same move, score,
 *     depth, line and node count;
 *   - where the engine has the AVX2 copy of the NNUE's loops and the
 *     processor runs it (bd_nnue_avx2), which the search then uses, its
 *     sums after every move and its score are the baseline copy's too.
 *
 * Built (with -DBD_NNUE_CHECK) and run by tests/test_nnue.py:
 *
 *     nnue_check VARIANT POSITION SEED GAMES
 *     nnue_check divide
 *
 * The second compares the evaluation's division of the output layer's sum
 * (nnue.h: bd_nnue_divide, a multiplication and a shift) with C's, over
 * every sum a net that tools/gen_nnue.py accepts can reach.
 *
 * VARIANT is the bytes of a bd_variant in hexadecimal, as the caller's
 * compiler laid it out (Python's cffi gives them), so no field is named
 * here. Prints "ok" and what was checked, or the first disagreement (exit
 * status 1), and "avx2" at the end when the AVX2 copy was checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The engine's insides: the sums and the position's layout. */
#include "eval.h"
#include "game.h"
#include "learned.h"
#include "nnue.h"

#ifndef BD_NNUE_CHECK
#error "build with -DBD_NNUE_CHECK, so that the search checks each score"
#endif

static uint64_t next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int read_variant(const char *hex, bd_variant *v) {
    unsigned char bytes[sizeof *v];
    size_t i;
    if (strlen(hex) != 2 * sizeof *v) return -1;
    for (i = 0; i < sizeof *v; i++) {
        unsigned int byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) return -1;
        bytes[i] = (unsigned char)byte;
    }
    memcpy(v, bytes, sizeof *v);
    return bd_variant_normalize(v, v->ply_cap);
}

/* Searches of the position with the sums carried and built afresh: 0 when
 * they agree in everything. (A score that differs stops the first at once:
 * BD_NNUE_CHECK.) */
static int same_searches(const bd_game *g, const bd_weights *w, uint64_t *nodes) {
    bd_search_limits limits = {0};
    bd_search_result carried, afresh;
    int i;
    limits.budget = 3000;
    limits.seed = 7;
    if (bd_search(g, &limits, w, &carried) != 0) return -1;
    limits.off = BD_OFF_INCREMENTAL;
    if (bd_search(g, &limits, w, &afresh) != 0) return -1;
    *nodes += carried.nodes;
    if (carried.move != afresh.move || carried.score != afresh.score || carried.depth != afresh.depth ||
        carried.nodes != afresh.nodes || carried.pv_length != afresh.pv_length)
        return 1;
    for (i = 0; i < carried.pv_length; i++)
        if (carried.pv[i] != afresh.pv[i]) return 1;
    return 0;
}

/* bd_nnue_divide against C's division by BD_NNUE_DIVISOR, truncated
 * toward zero, for every sum from -BD_WIN * BD_NNUE_DIVISOR to
 * BD_WIN * BD_NNUE_DIVISOR: 0 when each is the same. */
static int check_divide(void) {
    int32_t x, top = (int32_t)BD_WIN * BD_NNUE_DIVISOR;
    for (x = -top; x <= top; x++)
        if (bd_nnue_divide(x) != x / BD_NNUE_DIVISOR) {
            printf("the division of %ld differs: %d, not %d\n", (long)x, bd_nnue_divide(x), (int)(x / BD_NNUE_DIVISOR));
            return 1;
        }
    printf("ok %ld sums divided\n", 2L * top + 1);
    return 0;
}

int main(int argc, char **argv) {
    bd_variant v;
    bd_pos start;
    bd_weights w;
    uint64_t rng, nodes = 0;
    long games, game, plies = 0, captures = 0, kings = 0, searches = 0;
    int avx2 = 0;
    if (argc == 2 && strcmp(argv[1], "divide") == 0) return check_divide();
    if (argc != 5 || read_variant(argv[1], &v) != 0 || bd_pos_from_string(argv[2], &start) != BD_POS_OK) {
        fprintf(stderr, "usage: nnue_check VARIANT POSITION SEED GAMES, or nnue_check divide\n");
        return 2;
    }
    rng = strtoull(argv[3], NULL, 10) | 1;
    games = strtol(argv[4], NULL, 10);
    bd_default_weights(&w);
    if (w.eval != BD_EVAL_NNUE) return 2;
#ifdef BD_NNUE_AVX2
    avx2 = bd_nnue_avx2();
#endif
    for (game = 0; game < games; game++) {
        bd_game *g = bd_game_new(&v, &start);
        bd_nnue_sums sums, carried, fresh, pair[2]; /* pair: the sums before and after, as the search holds them */
        if (!g) return 3;
        bd_nnue_refresh(&v, &start, &sums);
        while (bd_game_outcome(g) == BD_ONGOING) {
            bd_move moves[BD_MAX_MOVES], m;
            bd_pos before = *bd_game_pos_at(g, bd_game_ply(g));
            const bd_pos *now;
            const bd_entry *entry;
            bd_report r;
            int score = 0, in[BD_LEARNED_INPUTS];
            bd_bb lanes = 0; /* the escape squares the king reaches in one move: the first count */
            int n = bd_game_moves(g, moves);
            if (n <= 0) break;
            if (bd_game_ply(g) % 8 == 0) {
                int differ = same_searches(g, &w, &nodes);
                searches++;
                if (differ) {
                    printf("searches differ (%d) in game %ld at ply %d\n", differ, game, bd_game_ply(g));
                    return 1;
                }
            }
            m = moves[next(&rng) % (uint64_t)n];
            if (bd_game_play(g, m, &r) != BD_PLAY_OK) return 3;
            now = bd_game_pos_at(g, bd_game_ply(g));
            entry = &g->hist[bd_game_ply(g)];
            bd_nnue_move(&sums, &before, m, r.captured, &carried);
            bd_nnue_refresh(&v, now, &fresh);
            if (now->king != BD_NONE) {
                /* The score as the search takes it, made with the sums. */
                bd_bb reach = bd_king_reach(&v, now);
                bd_learned_counts(&v, now, reach, in);
                lanes = reach & bd_escapes(&v);
                pair[0] = sums;
                score = bd_nnue_move_score(entry, lanes, in[BD_INPUT_LANE_TWO], in[BD_INPUT_FREEDOM], pair);
                if (memcmp(&pair[1], &fresh, sizeof fresh) != 0 ||
                    score != (now->side == BD_ATTACKERS ? 1 : -1) * bd_evaluate_nnue(&v, now, reach)) {
                    printf("the score with the sums made differs in game %ld at ply %d\n", game, bd_game_ply(g));
                    return 1;
                }
            }
            if (memcmp(&carried, &fresh, sizeof fresh) != 0 ||
                (now->king != BD_NONE && bd_nnue_score(&v, now, bd_king_reach(&v, now), &carried) !=
                                             bd_evaluate_nnue(&v, now, bd_king_reach(&v, now)))) {
                printf("the sums differ in game %ld at ply %d, after move %d-%d\n", game, bd_game_ply(g),
                       BD_FROM(m), BD_TO(m));
                return 1;
            }
#ifdef BD_NNUE_AVX2
            if (avx2) {
                int differ;
                pair[0] = sums;
                bd_nnue_carry_avx2(entry, pair);
                differ = memcmp(&pair[1], &fresh, sizeof fresh) != 0;
                if (now->king != BD_NONE) {
                    memset(&pair[1], 0, sizeof pair[1]);
                    differ |= bd_nnue_move_score_avx2(entry, lanes, in[BD_INPUT_LANE_TWO], in[BD_INPUT_FREEDOM],
                                                      pair) != score ||
                              memcmp(&pair[1], &fresh, sizeof fresh) != 0;
                }
                if (differ) {
                    printf("the AVX2 copy differs in game %ld at ply %d, after move %d-%d\n", game,
                           bd_game_ply(g), BD_FROM(m), BD_TO(m));
                    return 1;
                }
            }
#endif
            sums = carried;
            plies++;
            captures += r.captured != 0;
            kings += (r.flags & BD_DID_KING_TAKEN) != 0;
        }
        bd_game_free(g);
    }
    printf("ok %ld moves, %ld captures, %ld kings taken, %ld searches of %llu positions%s\n", plies, captures,
           kings, searches, (unsigned long long)nodes, avx2 ? ", avx2" : "");
    return 0;
}

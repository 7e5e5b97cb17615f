/* The NNUE evaluation (nnue.h): the hidden layer's sums over the pieces
 * and the rule (bd_nnue_sums: built afresh by bd_nnue_refresh, or carried
 * through a search move by move, bd_nnue_move), the four counts added, the
 * sums clipped and weighed by the output layer. */
#include "nnue.h"

#include "learned.h"

/* Adds input row `f` to the sums. The sums are 16 bits wide, twice as
 * many to a vector as 32: tools/gen_nnue.py refuses weights whose sums
 * could leave the range of int16_t on any position at all (48 soldiers,
 * any counts), so the conversion back never wraps. */
static inline void add_row(int16_t *acc, int f) {
    const int16_t *w = BD_NNUE_W1[f];
    int j;
    for (j = 0; j < BD_NNUE_HIDDEN; j++) acc[j] = (int16_t)(acc[j] + w[j]);
}

void bd_nnue_refresh(const bd_variant *v, const bd_pos *p, bd_nnue_sums *out) {
    bd_bb b;
    int j;
    for (j = 0; j < BD_NNUE_HIDDEN; j++) out->s[j] = BD_NNUE_B1[j];
    for (b = p->att; b; b &= b - 1) add_row(out->s, bd_lsb(b));
    for (b = p->dfn; b; b &= b - 1) add_row(out->s, BD_NNUE_DEFENDER + bd_lsb(b));
    if (p->king != BD_NONE) add_row(out->s, BD_NNUE_KING + p->king);
    add_row(out->s, BD_NNUE_RULE + (v->king_capture & 3));
}

/* bd_nnue_score's body, which each copy inlines (nnue.h: BD_NNUE_BODY). */
BD_NNUE_BODY int score_of(const bd_variant *v, const bd_pos *p, bd_bb reach, const bd_nnue_sums *sums) {
    const int16_t *one = BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_LANE_ONE],
                  *two = BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_LANE_TWO],
                  *freedom = BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_FREEDOM],
                  *to_move = BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_TO_MOVE];
    int32_t out = 0;
    int in[BD_LEARNED_INPUTS], j, score;
    /* No king: the game is over before any search asks; material only, as
     * the learned evaluation does. */
    if (p->king == BD_NONE) return 100 * (bd_popcount(p->att) - bd_popcount(p->dfn));
    bd_learned_counts(v, p, reach, in);
    /* The counts' rows, then the clipped ReLU and the output layer, in one
     * pass a vector at a time: 16-bit sums (add_row says why they fit),
     * their products summed in 32 bits. The two counts most often 0 (an
     * escape in one move: no stand pat then; the attackers to move: half
     * the time) are tested outside the loop, which the compiler writes once
     * for each case; the other two are seldom 0. */
    for (j = 0; j < BD_NNUE_HIDDEN; j++) {
        int16_t a = (int16_t)(sums->s[j] + in[BD_INPUT_LANE_TWO] * two[j] + in[BD_INPUT_FREEDOM] * freedom[j]), h;
        if (in[BD_INPUT_LANE_ONE]) a = (int16_t)(a + in[BD_INPUT_LANE_ONE] * one[j]);
        if (in[BD_INPUT_TO_MOVE]) a = (int16_t)(a + to_move[j]);
        h = a < 0 ? 0 : a > BD_NNUE_ONE ? BD_NNUE_ONE : a;
        out += (int32_t)h * BD_NNUE_W2[j];
    }
    /* Division truncates toward zero in C99: the same on every machine. */
    score = (int)((out + BD_NNUE_B2) / (BD_NNUE_ONE * BD_NNUE_OUT_SCALE));
    if (score > BD_WIN - 1) score = BD_WIN - 1;
    if (score < -(BD_WIN - 1)) score = -(BD_WIN - 1);
    return score;
}

int bd_nnue_score(const bd_variant *v, const bd_pos *p, bd_bb reach, const bd_nnue_sums *sums) {
    return score_of(v, p, reach, sums);
}

int bd_nnue_move_score(const bd_variant *v, const bd_entry *e, bd_bb reach, const bd_nnue_sums *before,
                       bd_nnue_sums *after) {
    bd_nnue_move(before, &e[-1].pos, e->move, e->captured, after);
    return score_of(v, &e->pos, reach, after);
}

#ifdef BD_NNUE_AVX2
int bd_nnue_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
}

__attribute__((target("avx2,popcnt"))) void bd_nnue_move_avx2(const bd_nnue_sums *restrict before, const bd_pos *p,
                                                              bd_move m, bd_bb captured, bd_nnue_sums *restrict after) {
    bd_nnue_move(before, p, m, captured, after);
}

__attribute__((target("avx2,popcnt"))) int bd_nnue_move_score_avx2(const bd_variant *v, const bd_entry *e, bd_bb reach,
                                                                   const bd_nnue_sums *restrict before,
                                                                   bd_nnue_sums *restrict after) {
    bd_nnue_move(before, &e[-1].pos, e->move, e->captured, after);
    return score_of(v, &e->pos, reach, after);
}
#endif

int bd_evaluate_nnue(const bd_variant *v, const bd_pos *p, bd_bb reach) {
    bd_nnue_sums sums;
    bd_nnue_refresh(v, p, &sums);
    return bd_nnue_score(v, p, reach, &sums);
}

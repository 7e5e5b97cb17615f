/* The NNUE evaluation (nnue.h): the hidden layer's sums over the pieces
 * and the rule (bd_nnue_sums: built afresh by bd_nnue_refresh, or carried
 * through a search move by move, bd_nnue_move), the four counts added, the
 * sums clipped and weighed by the output layer. */
#include "nnue.h"

#include "eval.h"
#include "learned.h"

/* Adds input row `f`, `times` times, to the sums. The sums are 16 bits
 * wide, twice as many to a vector as 32: tools/gen_nnue.py refuses weights
 * whose sums could leave the range of int16_t on any position at all (48
 * soldiers), so the conversion back never wraps. */
static inline void add_row(int16_t *acc, int f, int times) {
    const int16_t *w = BD_NNUE_W1[f];
    int j;
    for (j = 0; j < BD_NNUE_HIDDEN; j++) acc[j] = (int16_t)(acc[j] + times * w[j]);
}

void bd_nnue_refresh(const bd_variant *v, const bd_pos *p, bd_nnue_sums *out) {
    bd_bb b;
    int j;
    for (j = 0; j < BD_NNUE_HIDDEN; j++) out->s[j] = BD_NNUE_B1[j];
    for (b = p->att; b; b &= b - 1) add_row(out->s, bd_lsb(b), 1);
    for (b = p->dfn; b; b &= b - 1) add_row(out->s, 49 + bd_lsb(b), 1);
    if (p->king != BD_NONE) add_row(out->s, 98 + p->king, 1);
    add_row(out->s, BD_NNUE_RULE + (v->king_capture & 3), 1);
}

int bd_nnue_score(const bd_variant *v, const bd_pos *p, bd_bb reach, const bd_nnue_sums *sums) {
    int16_t acc[BD_NNUE_HIDDEN];
    int32_t out = 0;
    int in[BD_LEARNED_INPUTS], i, j, score;
    /* No king: the game is over before any search asks; material only, as
     * the learned evaluation does. */
    if (p->king == BD_NONE) return 100 * (bd_popcount(p->att) - bd_popcount(p->dfn));
    for (j = 0; j < BD_NNUE_HIDDEN; j++) acc[j] = sums->s[j];
    bd_learned_counts(v, p, reach, in);
    for (i = 0; i < BD_LEARNED_INPUTS; i++)
        if (in[i]) add_row(acc, BD_NNUE_COUNTS + i, in[i]);
    /* Clipped ReLU, then the output layer: 16-bit products summed in 32
     * bits, which the compiler does a vector at a time. */
    for (j = 0; j < BD_NNUE_HIDDEN; j++) {
        int16_t h = acc[j] < 0 ? 0 : acc[j] > BD_NNUE_ONE ? BD_NNUE_ONE : acc[j];
        out += (int32_t)h * BD_NNUE_W2[j];
    }
    /* Division truncates toward zero in C99: the same on every machine. */
    score = (int)((out + BD_NNUE_B2) / (BD_NNUE_ONE * BD_NNUE_OUT_SCALE));
    if (score > BD_WIN - 1) score = BD_WIN - 1;
    if (score < -(BD_WIN - 1)) score = -(BD_WIN - 1);
    return score;
}

int bd_evaluate_nnue(const bd_variant *v, const bd_pos *p, bd_bb reach) {
    bd_nnue_sums sums;
    bd_nnue_refresh(v, p, &sums);
    return bd_nnue_score(v, p, reach, &sums);
}

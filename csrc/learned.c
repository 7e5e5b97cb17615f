/* The learned evaluation (learned.h): one table entry for each piece,
 * looked up by its square and the king's, and a weight for each of a few
 * counts of the king's lines. Everything learned is in learned_weights.c;
 * here only the sum. */
#include "learned.h"

#include "lanes.h"

void bd_learned_counts(const bd_variant *v, const bd_pos *p, bd_bb reach, int *in) {
    bd_king_counts(v, p, reach, in);
    in[BD_INPUT_TO_MOVE] = p->side == BD_ATTACKERS;
}

#ifndef BD_NO_LEARNED
int bd_evaluate_learned(const bd_variant *v, const bd_pos *p, bd_bb reach) {
    /* Which set: the king's capture rule changes the game most between the
     * presets (king_capture is checked to be 0-3 before it reaches C). */
    int set = BD_LEARNED_SET_OF[v->king_capture & 3], in[BD_LEARNED_INPUTS], i, score;
    const uint16_t *pair;
    const int16_t *att = BD_LEARNED_ATT[set], *def = BD_LEARNED_DEF[set];
    bd_bb b;
    /* 1. No king: the game is over before any search asks; material only,
     *    so that a caller still gets a sensible number. */
    if (p->king == BD_NONE) return 100 * (bd_popcount(p->att) - bd_popcount(p->dfn));
    /* 2. The king, and each soldier by its square and the king's. */
    pair = BD_LEARNED_PAIR[p->king];
    score = BD_LEARNED_BIAS[set] + BD_LEARNED_KING[set][pair[p->king]];
    for (b = p->att; b; b &= b - 1) score += att[pair[bd_lsb(b)]];
    for (b = p->dfn; b; b &= b - 1) score += def[pair[bd_lsb(b)]];
    /* 3. The counts of the king's lines. */
    bd_learned_counts(v, p, reach, in);
    for (i = 0; i < BD_LEARNED_INPUTS; i++) score += BD_LEARNED_INPUT_W[set][i] * in[i];
    /* 4. Never a score the search would read as a win found. */
    if (score > BD_WIN - 1) score = BD_WIN - 1;
    if (score < -(BD_WIN - 1)) score = -(BD_WIN - 1);
    return score;
}

void bd_learned_inputs(const bd_variant *v, const bd_sample *samples, int n, int16_t *out) {
    int i, k, in[BD_LEARNED_INPUTS];
    for (i = 0; i < n; i++) {
        bd_pos p;
        p.att = samples[i].att & BD_ALL;
        p.dfn = samples[i].dfn & BD_ALL & ~p.att;
        p.king = samples[i].king >= 0 && samples[i].king < BD_SQUARES ? samples[i].king : BD_NONE;
        p.side = samples[i].side & 1;
        p.key = 0;
        if (p.king != BD_NONE) {
            p.att &= ~bd_bit(p.king);
            p.dfn &= ~bd_bit(p.king);
            bd_learned_counts(v, &p, bd_king_reach(v, &p), in);
        } else {
            for (k = 0; k < BD_LEARNED_INPUTS; k++) in[k] = 0;
        }
        for (k = 0; k < BD_LEARNED_INPUTS; k++) out[i * BD_LEARNED_INPUTS + k] = (int16_t)in[k];
    }
}
#endif

/* The evaluation (eval.h): the classical one, and the one place that
 * chooses among the three (the learned and the NNUE, which depend on the
 * king's lanes below them, never on this file). */
#include "eval.h"

#include "learned.h"
#include "nnue.h"

/* The three squares that close each corner: a2 b1 b2, f1 g2 f2, a6 b7 b6,
 * f7 g6 f6. */
#define CORNER_GUARDS 0x8b18000031a2ULL

/* Tuned by `brandubh tune` (SPSA, 10,000 steps of two pairs of games at
 * 20,000 positions a move, brandubh rules: 40,000 games) from the seven of
 * Game::Brandubh::Rules's documentation, which were 100, 140, 300, 50, 4,
 * 25 and 30 in this order. Against those, colours swapped (Elo, 95%):
 *   brandubh rules, 20,000 positions: +68 +- 15 in 2,000 games (the SPRT
 *     0,10 accepted after 371); as attackers 180-108-712 where the old
 *     weights went 19-42-939, as defenders 939-42-19 against 712-108-180
 *   brandubh rules, 200,000 positions: +37 +- 34 in 400 games
 *   codingame rules, 20,000 positions: +64 +- 22 in 1,000 games
 * so one set serves every preset. A soldier now counts for more than a
 * defender, and an attacker on a square that closes a corner for less than
 * one elsewhere. */
void bd_default_weights(bd_weights *w) {
    w->attacker = 189;
    w->defender = 127;
    w->lane_one = 288;
    w->lane_two = 31;
    w->freedom = 5;
    w->corner_guard = -17;
    w->ring = 8;
    /* The NNUE scores by default: against the learned tables, which beat
     * this one, it won in turn at equal time (docs/learned.md has the
     * figures). */
    w->eval = BD_EVAL_NNUE;
}

int bd_evaluate(const bd_variant *v, const bd_pos *p, const bd_weights *w) {
    return bd_evaluate_with(v, p, w, bd_king_reach(v, p));
}

int bd_evaluate_with(const bd_variant *v, const bd_pos *p, const bd_weights *w, bd_bb reach) {
    int score, in[BD_LEARNED_INPUTS];
#ifndef BD_NO_LEARNED /* the CodinGame export carries the NNUE, not these tables */
    if (w->eval == BD_EVAL_LEARNED) return bd_evaluate_learned(v, p, reach);
#endif
    if (w->eval == BD_EVAL_NNUE) return bd_evaluate_nnue(v, p, reach);
    score = w->attacker * bd_popcount(p->att) - w->defender * bd_popcount(p->dfn);
    score += w->corner_guard * bd_popcount(p->att & CORNER_GUARDS);
    if (p->king == BD_NONE) return score;
    bd_king_counts(v, p, reach, in);
    score -= w->lane_one * in[BD_INPUT_LANE_ONE] + w->lane_two * in[BD_INPUT_LANE_TWO] +
             w->freedom * in[BD_INPUT_FREEDOM];
    score += w->ring * bd_popcount(p->att & BD_ADJACENT[p->king]);
    return score;
}

/* The king's lanes: the squares he reaches and the escape squares he
 * reaches in one move or two. What every evaluation counts (eval.c's
 * classical terms, learned.c's counts, which nnue.c adds too) and what the
 * search reads as a threat: below the evaluations, so that each of them
 * and the dispatch among them (eval.c) depend on it and not on each
 * other. */
#ifndef BD_LANES_H
#define BD_LANES_H

#include "movegen.h"

/* The escape squares the king reaches in two moves and not in one, given
 * his reach (bd_king_reach); 0 when there is no king. */
BD_FN bd_bb bd_king_lanes_two(const bd_variant *v, const bd_pos *p, bd_bb reach);
/* The squares the king could move to if it were the defenders' move (his
 * targets do not depend on whose move it is). */
static inline bd_bb bd_king_reach(const bd_variant *v, const bd_pos *p) {
    return p->king == BD_NONE ? 0 : bd_king_targets(v, p, bd_blockers(v, p));
}
/* The three counts of the king's lanes that the learned evaluation and the
 * NNUE weigh, given his reach (bd_king_reach), into in[BD_INPUT_LANE_ONE],
 * in[BD_INPUT_LANE_TWO] and in[BD_INPUT_FREEDOM] (enum bd_learned_input):
 * the escape squares he reaches in one move, those he reaches in two and
 * not one, the squares he reaches. Written once for the three
 * evaluations (eval.c's classical terms weigh them too) and the search's
 * NNUE call (search.c: nnue_now); inline, so that the counts stay in
 * registers. */
static inline void bd_king_counts(const bd_variant *v, const bd_pos *p, bd_bb reach, int *in) {
    in[BD_INPUT_LANE_TWO] = bd_popcount(bd_king_lanes_two(v, p, reach));
    in[BD_INPUT_LANE_ONE] = bd_popcount(reach & bd_escapes(v));
    in[BD_INPUT_FREEDOM] = bd_popcount(reach);
}
/* The escape squares the king reaches in one move (what makes a "check"). */
static inline bd_bb bd_king_lanes(const bd_variant *v, const bd_pos *p) {
    return bd_king_reach(v, p) & bd_escapes(v);
}

#endif

/* The evaluation: a position scored without looking further, from the
 * attackers' side (positive favours the attackers). The weights,
 * bd_default_weights and bd_evaluate are in brandubh.h. */
#ifndef BD_EVAL_H
#define BD_EVAL_H

#include "movegen.h"

/* bd_evaluate, given bd_king_reach(v, p), for a caller that has it already. */
BD_FN int bd_evaluate_with(const bd_variant *v, const bd_pos *p, const bd_weights *w, bd_bb reach);
/* The escape squares the king reaches in two moves and not in one, given
 * his reach (bd_king_reach); 0 when there is no king. */
BD_FN bd_bb bd_king_lanes_two(const bd_variant *v, const bd_pos *p, bd_bb reach);
/* The squares the king could move to if it were the defenders' move (his
 * targets do not depend on whose move it is). */
static inline bd_bb bd_king_reach(const bd_variant *v, const bd_pos *p) {
    return p->king == BD_NONE ? 0 : bd_king_targets(v, p, bd_blockers(v, p));
}
/* The escape squares the king reaches in one move (what makes a "check"). */
static inline bd_bb bd_king_lanes(const bd_variant *v, const bd_pos *p) {
    return bd_king_reach(v, p) & bd_escapes(v);
}

#endif

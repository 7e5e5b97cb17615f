/* The evaluation: a position scored without looking further, from the
 * attackers' side (positive favours the attackers). The weights,
 * bd_default_weights and bd_evaluate are in brandubh.h. */
#ifndef BD_EVAL_H
#define BD_EVAL_H

#include "lanes.h"

/* bd_evaluate, given bd_king_reach(v, p) (lanes.h), for a caller that has
 * it already. */
BD_FN int bd_evaluate_with(const bd_variant *v, const bd_pos *p, const bd_weights *w, bd_bb reach);

#endif

/* The evaluation: a position scored without looking further, from the
 * attackers' side (positive favours the attackers). */
#ifndef BD_EVAL_H
#define BD_EVAL_H

#include "movegen.h"

/* Seed 003's seven weights. */
typedef struct bd_weights {
    int attacker;      /* each attacker on the board */
    int defender;      /* each defender on the board (counts against) */
    int lane_one;      /* each escape square the king reaches in one move */
    int lane_two;      /* each escape square he reaches in two, not one */
    int freedom;       /* each square the king can move to */
    int corner_guard;  /* each attacker on a square that closes a corner */
    int ring;          /* each attacker beside the king */
} bd_weights;

void bd_default_weights(bd_weights *w);
int bd_evaluate(const bd_variant *v, const bd_pos *p, const bd_weights *w);
/* The same, given bd_king_reach(v, p), for a caller that has it already. */
int bd_evaluate_with(const bd_variant *v, const bd_pos *p, const bd_weights *w, bd_bb reach);
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

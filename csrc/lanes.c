/* The king's lanes (lanes.h): the escape squares he reaches in two moves. */
#include "lanes.h"

/* The escape squares the king reaches in two moves and not in one: slides
 * from every square he reaches at once, his own square now empty. The
 * squares slid from count as occupied (bd_slide_sets wants them so): a
 * slide they stop goes on from the square that stops it, which is one of
 * them, so no escape square is lost. Kept out of line, so that the common
 * case below needs few registers. */
static BD_NOINLINE bd_bb two_move_escapes(const bd_variant *v, const bd_pos *p, bd_bb from, bd_bb one) {
    bd_bb sets[BD_DIRECTIONS];
    bd_slide_sets(from, BD_ALL & ~(bd_blockers(v, p) & ~bd_bit(p->king)) & ~from, sets);
    return bd_slide_union(sets) & bd_escapes(v) & ~one;
}

bd_bb bd_king_lanes_two(const bd_variant *v, const bd_pos *p, bd_bb reach) {
    bd_bb escapes = bd_escapes(v), one = reach & escapes;
    /* Only a square on the edge lies on a line with a corner, so when the
     * corners are the escapes most positions need no slide at all (the
     * slides were a third of the evaluation's cost). */
    bd_bb from = reach & ~escapes & (v->escape == BD_ESCAPE_CORNER ? BD_EDGE : BD_ALL);
    return from ? two_move_escapes(v, p, from, one) : 0;
}

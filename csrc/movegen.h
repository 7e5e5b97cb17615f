/* Move generation and the reason a move is refused (bd_gen_moves, bd_why_not
 * and the reasons are in brandubh.h). */
#ifndef BD_MOVEGEN_H
#define BD_MOVEGEN_H

#include "position.h"

/* Squares that stop a slide: every piece, and the throne itself when pieces
 * may not pass it. */
static inline bd_bb bd_blockers(const bd_variant *v, const bd_pos *p) {
    bd_bb occ = bd_occupied(p);
    return v->throne_pass ? occ : occ | BD_THRONE_BB;
}

/* The pieces of the side to move. */
static inline bd_bb bd_movers(const bd_pos *p) {
    return p->side == BD_ATTACKERS ? p->att : p->dfn | bd_king_bb(p);
}

static inline bd_bb bd_king_targets(const bd_variant *v, const bd_pos *p, bd_bb block) {
    bd_bb t = bd_slides(p->king, block);
    if (!v->throne_reentry) return t & ~BD_THRONE_BB;
    /* A throne that blocks slides can still be reached and stopped on. */
    if (!v->throne_pass && !(bd_occupied(p) & BD_THRONE_BB))
        t |= bd_slides(p->king, block & ~BD_THRONE_BB) & BD_THRONE_BB;
    return t;
}

/* Where a piece of the side to move, on `from`, may stop; `block` is
 * bd_blockers(v, p). */
static inline bd_bb bd_piece_targets(const bd_variant *v, const bd_pos *p, int from, bd_bb block) {
    if (from == p->king) return bd_king_targets(v, p, block);
    return bd_slides(from, block) & BD_SOLDIER_STOPS;
}

/* The squares the piece on `from` may reach: none when it is not a piece
 * of the side to move. */
BD_FN bd_bb bd_targets(const bd_variant *v, const bd_pos *p, int from);
/* The same for a caller that has bd_blockers(v, p), inline. */
static inline bd_bb bd_targets_within(const bd_variant *v, const bd_pos *p, int from, bd_bb block) {
    if (from == p->king) return p->side == BD_DEFENDERS ? bd_king_targets(v, p, block) : 0;
    if (!((p->side == BD_ATTACKERS ? p->att : p->dfn) & bd_bit(from))) return 0;
    return bd_slides(from, block) & BD_SOLDIER_STOPS;
}
/* How many moves the side to move has, without listing them. */
BD_FN int bd_count_moves(const bd_variant *v, const bd_pos *p);
/* The same, inline, for perft's last ply (a call for each position there
 * was 7% of bulk perft's instructions). */
static inline int bd_count_moves_inline(const bd_variant *v, const bd_pos *p) {
    bd_bb block = bd_blockers(v, p), sets[BD_DIRECTIONS];
    bd_bb soldiers = p->side == BD_ATTACKERS ? p->att : p->dfn;
    int n;
    /* All soldiers at once: one square of a slide set is one move. */
    bd_slide_sets(soldiers, BD_ALL & ~block, sets);
    n = bd_popcount(sets[BD_EAST] & BD_SOLDIER_STOPS) + bd_popcount(sets[BD_WEST] & BD_SOLDIER_STOPS) +
        bd_popcount(sets[BD_NORTH] & BD_SOLDIER_STOPS) + bd_popcount(sets[BD_SOUTH] & BD_SOLDIER_STOPS);
    if (p->side == BD_DEFENDERS && p->king != BD_NONE)
        n += bd_popcount(bd_king_targets(v, p, block));
    return n;
}

/* Whether the side to move has any move, piece by piece. */
BD_FN int bd_has_move_slow(const bd_variant *v, const bd_pos *p);
/* The same, usually at once: some piece can almost always step to a free
 * square beside it, and a step to where a soldier may stop is a move for any
 * piece. Inline, since the search asks it at every position (out of line,
 * loop and all, it cost 64 instructions a call). */
static inline int bd_has_move(const bd_variant *v, const bd_pos *p) {
    if (bd_grow(bd_movers(p)) & ~bd_blockers(v, p) & BD_SOLDIER_STOPS) return 1;
    return bd_has_move_slow(v, p);
}

#endif

#include "movegen.h"

#include <stdlib.h>

bd_bb bd_targets(const bd_variant *v, const bd_pos *p, int from) {
    return bd_targets_within(v, p, from, bd_blockers(v, p));
}

int bd_gen_moves(const bd_variant *v, const bd_pos *p, bd_move *out) {
    bd_bb block = bd_blockers(v, p), movers = bd_movers(p);
    int n = 0;
    while (movers) {
        int from = bd_pop_lsb(&movers);
        bd_bb t = bd_piece_targets(v, p, from, block);
        while (t) out[n++] = BD_MOVE(from, bd_pop_lsb(&t));
    }
    return n;
}

int bd_count_moves(const bd_variant *v, const bd_pos *p) { return bd_count_moves_inline(v, p); }

int bd_has_move_slow(const bd_variant *v, const bd_pos *p) {
    bd_bb block = bd_blockers(v, p), movers = bd_movers(p);
    while (movers)
        if (bd_piece_targets(v, p, bd_pop_lsb(&movers), block)) return 1;
    return 0;
}

int bd_why_not(const bd_variant *v, const bd_pos *p, int from, int to) {
    int piece, step, sq;
    if (from < 0 || from >= BD_SQUARES || to < 0 || to >= BD_SQUARES) return BD_WHY_OFF_BOARD;
    piece = bd_piece_at(p, from);
    if (piece == BD_EMPTY) return BD_WHY_NO_PIECE;
    if ((piece == BD_ATTACKER) != (p->side == BD_ATTACKERS)) return BD_WHY_NOT_YOURS;
    if (from == to) return BD_WHY_SAME_SQUARE;
    if (from / 7 == to / 7) step = to > from ? 1 : -1;
    else if (from % 7 == to % 7) step = to > from ? 7 : -7;
    else return BD_WHY_NOT_A_LINE;
    for (sq = from + step;; sq += step) {
        if (bd_piece_at(p, sq) != BD_EMPTY) return BD_WHY_BLOCKED;
        if (sq == to) break;
        if (sq == BD_THRONE && !v->throne_pass) return BD_WHY_BLOCKED;
    }
    /* The soldiers' rule (BD_SOLDIER_STOPS), then the king's own. */
    if (piece != BD_KING && !(bd_bit(to) & BD_SOLDIER_STOPS))
        return to == BD_THRONE ? BD_WHY_THRONE : BD_WHY_CORNER;
    if (piece == BD_KING && to == BD_THRONE && !v->throne_reentry) return BD_WHY_THRONE;
    return BD_WHY_OK;
}

/* The legal actions of a position, for encode.c and the batched
 * environments (brandubh.h has the interface: the action numbers,
 * bd_action_move, bd_move_action, the planes). */
#ifndef BD_ENCODE_H
#define BD_ENCODE_H

#include "movegen.h"

/* An action is from * BD_ACTION_PER_SQUARE + direction * BD_ACTION_DISTANCES
 * + distance - 1, the directions in enum bd_dir's order. */
enum { BD_ACTION_DISTANCES = 6, BD_ACTION_PER_SQUARE = BD_DIRECTIONS * BD_ACTION_DISTANCES };

/* The legal moves of the side to move, as bd_piece_targets gives them
 * (movegen.h), written as actions into out[BD_MAX_MOVES] in increasing
 * order; returns how many. Piece by piece in square order, and each
 * piece's squares direction by direction, nearest first: the order of the
 * action numbers, each found from its square with a subtraction, where
 * listing the moves and then turning each into its action cost a move list
 * and a direction test a move. */
static inline int bd_legal_actions(const bd_variant *v, const bd_pos *p, uint16_t *out) {
    bd_bb block = bd_blockers(v, p), movers = bd_movers(p);
    int n = 0;
    while (movers) {
        int from = bd_pop_lsb(&movers), to;
        int base = from * BD_ACTION_PER_SQUARE - 1;   /* distance 1 is + 0 */
        bd_bb t = bd_piece_targets(v, p, from, block), ahead;
        /* The squares ahead in a direction are those behind in the
         * opposite one (BD_BEHIND). East and north reach higher squares,
         * nearest first from the lowest bit; west and south lower, nearest
         * first from the highest. */
        for (ahead = t & BD_BEHIND[BD_WEST][from]; ahead;)
            out[n++] = (uint16_t)(base + BD_EAST * BD_ACTION_DISTANCES + bd_pop_lsb(&ahead) - from);
        for (ahead = t & BD_BEHIND[BD_EAST][from]; ahead; ahead ^= bd_bit(to)) {
            to = bd_msb(ahead);
            out[n++] = (uint16_t)(base + BD_WEST * BD_ACTION_DISTANCES + from - to);
        }
        for (ahead = t & BD_BEHIND[BD_SOUTH][from]; ahead;)
            out[n++] = (uint16_t)(base + BD_NORTH * BD_ACTION_DISTANCES + (bd_pop_lsb(&ahead) - from) / 7);
        for (ahead = t & BD_BEHIND[BD_NORTH][from]; ahead; ahead ^= bd_bit(to)) {
            to = bd_msb(ahead);
            out[n++] = (uint16_t)(base + BD_SOUTH * BD_ACTION_DISTANCES + (from - to) / 7);
        }
    }
    return n;
}

#endif

/* The action numbers' arithmetic, for encode.c and the batched
 * environments (engine.h has the interface: bd_action_move, bd_move_action,
 * the planes). */
#ifndef BD_ENCODE_H
#define BD_ENCODE_H

#include "position.h"

/* An action is from * BD_ACTION_PER_SQUARE + direction * BD_ACTION_DISTANCES
 * + distance - 1, the directions in enum bd_dir's order. */
enum { BD_ACTION_DISTANCES = 6, BD_ACTION_PER_SQUARE = BD_DIRECTIONS * BD_ACTION_DISTANCES };

/* The action of a slide known to run along a rank or a file. Written
 * without a branch on the direction, which is as good as random from one
 * move to the next (a branch on it was guessed wrong about once a move):
 * east and west are the odd-or-even pair of a rank, north and south of a
 * file, and the lower of each pair is the one towards higher squares. */
static inline int bd_slide_action(int from, int to) {
    int delta = to - from;
    int along_file = BD_RANK_OF[from] != BD_RANK_OF[to];
    int back = delta < 0;
    int length = back ? -delta : delta;
    int distance = along_file ? length / 7 : length;
    return from * BD_ACTION_PER_SQUARE + (2 * along_file + back) * BD_ACTION_DISTANCES + distance - 1;
}

#endif

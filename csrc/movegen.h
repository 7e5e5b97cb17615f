/* Move generation and the reason a move is refused. */
#ifndef BD_MOVEGEN_H
#define BD_MOVEGEN_H

#include "position.h"

/* More than the most moves any position can have (13 pieces, 12 squares each). */
#define BD_MAX_MOVES 160

/* Why a move cannot be played, in the order they are asked. */
enum {
    BD_WHY_OK = 0,
    BD_WHY_OFF_BOARD = 1,
    BD_WHY_NO_PIECE = 2,
    BD_WHY_NOT_YOURS = 3,
    BD_WHY_SAME_SQUARE = 4,
    BD_WHY_NOT_A_LINE = 5,
    BD_WHY_BLOCKED = 6,
    BD_WHY_THRONE = 7,
    BD_WHY_CORNER = 8,
    BD_WHY_GAME_OVER = 9
};

/* The squares the piece on `from` (of the side to move) may reach. */
bd_bb bd_targets(const bd_variant *v, const bd_pos *p, int from);
/* Writes the moves of the side to move into out[BD_MAX_MOVES], ordered by
 * the square left and then the square reached; returns how many. */
int bd_gen_moves(const bd_variant *v, const bd_pos *p, bd_move *out);
/* How many moves the side to move has, without listing them. */
int bd_count_moves(const bd_variant *v, const bd_pos *p);
/* BD_WHY_OK when the slide from -> to is legal in this position. */
int bd_why_not(const bd_variant *v, const bd_pos *p, int from, int to);

#endif

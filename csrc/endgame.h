/* Endgame tables (endgame.c): every position with the king and a few
 * soldiers, won, drawn or lost for the side to move and in how many plies,
 * found by retrograde analysis over the engine's own moves, captures and
 * endings (bd_judge). The functions a caller uses are in brandubh.h; this
 * header is what the engine's files see of them. docs/proofs.md, "Endgame
 * tables", says what a value means. */
#ifndef BD_ENDGAME_H
#define BD_ENDGAME_H

#include "game.h"

/* An entry's byte (the format of the files too): 0 for an index that is no
 * position of the table (a mirror image of another, soldiers on one square,
 * a position already over), 1 a draw, 2 to 128 a win in 1 to 127 plies
 * (the byte less 1), 129 to 255 a loss in 1 to 127 plies (the byte less
 * 128). */
enum {
    BD_EG_BYTE_NONE = 0,
    BD_EG_BYTE_DRAW = 1,
    BD_EG_BYTE_WIN = 1,     /* + plies */
    BD_EG_BYTE_LOSS = 128,  /* + plies */
    BD_EG_MAX_PLIES = 127
};

#endif

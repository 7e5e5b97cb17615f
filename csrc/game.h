/* A game: the layout of the record, and what the playouts and the search
 * use of it. brandubh.h declares bd_game opaque, with the functions callers
 * play and read it through, and the outcomes. */
#ifndef BD_GAME_H
#define BD_GAME_H

#include "movegen.h"

/* One ply of the record: the position reached and how it was reached. */
typedef struct bd_entry {
    bd_pos pos;
    bd_bb captured;     /* squares the move emptied */
    uint64_t seen;      /* the top six bits of every key since the last capture,
                           as bits: most positions are new, and this says so
                           without a look back */
    bd_move move;       /* 0 for the start */
    uint16_t quiet;     /* moves in a row without a capture, up to here */
    int flags;          /* BD_DID_* of the move */
} bd_entry;

struct bd_game {
    bd_variant v;
    bd_entry *hist;     /* hist[0] is the start, hist[ply] the position now */
    int ply;
    int capacity;
    int start_outcome;  /* the ending the start position already is */
    int start_winner;
    int outcome;
    int winner;         /* BD_ATTACKERS, BD_DEFENDERS or BD_NOBODY */
};

/* Make room for `plies` more moves; 0, or -1 when out of memory. */
BD_FN int bd_game_reserve(bd_game *g, int plies);

/* The one way to add a move to the record, for callers that have checked
 * the move and reserved room (bd_game_play, bd_game_legal, the search): the
 * move is made by bd_pos_make with `flags` (enum bd_make) for its captures,
 * BD_MAKE_PLAY for a caller that knows nothing more of it,
 * bd_make_captures_in(reach, m) for one that has the capture reach of the
 * position; the record keeps the key whatever they say. The caller then
 * judges the ending (bd_game_judge). */
BD_FN bd_report bd_game_push(bd_game *g, bd_move m, int flags);
/* Take every move back: the game as it was made, its start and its record's
 * memory kept (the batched environments start each new game so). */
BD_FN void bd_game_rewind(bd_game *g);
/* Judge the ending the last move brought. `moves` is how many moves the
 * side to move now has (any number above 0 will do), or -1 when the caller
 * has not counted them. */
BD_FN void bd_game_judge(bd_game *g, int moves);

/* Encirclement: no defender and not the king can reach an edge square
 * through squares that hold no attacker. */
BD_FN int bd_encircled(const bd_pos *p);

/* The ending a position is in after a move, given the record's counts, or
 * BD_ONGOING; `moves` as for bd_game_judge. `winner` receives the side that
 * won, or BD_NOBODY. Inline: the playouts and the search ask it every move. */
static inline int bd_judge(const bd_variant *v, const bd_pos *p, int flags, int repeats,
                           int ply, int quiet, int moves, int *winner) {
    *winner = BD_NOBODY;
    /* 1. The king reached an escape square. */
    if (flags & BD_DID_KING_HOME) { *winner = BD_DEFENDERS; return BD_BY_CORNER; }
    /* 2. The move captured the king. */
    if (flags & BD_DID_KING_TAKEN) { *winner = BD_ATTACKERS; return BD_BY_CAPTURE; }
    /* 3. The attackers have nothing left. */
    if (v->no_pieces && !p->att) { *winner = BD_DEFENDERS; return BD_BY_NO_PIECES; }
    /* 4. Repetition: a draw, or a loss for the side that made it. */
    if (repeats >= v->repeat) {
        if (v->repetition == BD_END_LOSS) *winner = p->side;
        return BD_BY_REPETITION;
    }
    /* 5. The defenders are shut in. */
    if (v->encirclement && bd_encircled(p)) { *winner = BD_ATTACKERS; return BD_BY_ENCIRCLED; }
    /* 6. No move, when that is a draw. */
    if (v->no_move == BD_END_DRAW) {
        if (moves < 0) moves = bd_has_move(v, p);
        if (moves == 0) return BD_BY_NO_MOVE;
    }
    /* 7 and 8. The caps. */
    if (ply >= v->ply_cap) return BD_BY_PLY_CAP;
    if (v->quiet_cap && quiet >= v->quiet_cap) return BD_BY_QUIET_CAP;
    /* 9. No move, when that is a loss. */
    if (v->no_move == BD_END_LOSS) {
        if (moves < 0) moves = bd_has_move(v, p);
        if (moves == 0) { *winner = p->side ^ 1; return BD_BY_NO_MOVE; }
    }
    return BD_ONGOING;
}

/* The ending a set-up position already is, or BD_ONGOING. */
BD_FN int bd_judge_start(const bd_variant *v, const bd_pos *p, int *winner);

#endif

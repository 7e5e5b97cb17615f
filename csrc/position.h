/* A position: where the pieces stand and whose move it is, with its key.
 *
 * Positions are small values (32 bytes) and are copied rather than undone:
 * a search or a game keeps the position before a move by keeping a copy.
 * The layout is the engine's own: engine.h declares bd_pos opaque, with the
 * functions callers read it through. */
#ifndef BD_POSITION_H
#define BD_POSITION_H

#include <stdint.h>
#include "bitboard.h"

struct bd_pos {
    bd_bb att;      /* attackers */
    bd_bb dfn;      /* defenders, the king not included */
    uint64_t key;   /* Zobrist key of the pieces and the side to move */
    int8_t king;    /* the king's square, or BD_NONE */
    uint8_t side;   /* BD_ATTACKERS or BD_DEFENDERS, to move */
};

/* A move (bd_move, engine.h): the square left in bits 6..11 and the square
 * reached in bits 0..5. */
#define BD_MOVE(from, to) ((bd_move)(((from) << 6) | (to)))
#define BD_FROM(m) ((int)((m) >> 6))
#define BD_TO(m) ((int)((m) & 63))

static inline bd_bb bd_king_bb(const bd_pos *p) {
    return p->king == BD_NONE ? 0 : bd_bit(p->king);
}
static inline bd_bb bd_occupied(const bd_pos *p) {
    return p->att | p->dfn | bd_king_bb(p);
}
/* The squares where the king wins under this variant. */
static inline bd_bb bd_escapes(const bd_variant *v) {
    return v->escape == BD_ESCAPE_EDGE ? BD_EDGE : BD_CORNERS;
}

/* Set the key from the pieces: used after building a position by hand. */
BD_FN void bd_pos_rekey(bd_pos *p);
/* The captures of the piece that has just slid to `to` (the side to move has
 * not yet passed): removes them and records them in r. */
BD_FN void bd_pos_capture(const bd_variant *v, bd_pos *p, int to, bd_report *r);
/* The squares where a soldier of the side to move, arriving, would capture a
 * soldier, one set for each side of the square the victim stands on:
 * lines[d] where the victim is the next square in direction d (enum bd_dir).
 * A soldier arriving on a square that is in k of the sets captures k
 * soldiers. Exact for every mover but an unarmed king (who
 * captures nothing): the square a mover leaves is never the far side of its
 * own capture, since the victim would stand between the two, on its path
 * (so a throne or corner it leaves empty, and hostile, changes nothing). The
 * king himself is captured by rules of his own, not counted here. Returns
 * their union. Lets the search find captures without trying every move. */
BD_FN bd_bb bd_capture_lines(const bd_variant *v, const bd_pos *p, bd_bb lines[BD_DIRECTIONS]);
/* The squares beside the king where an attacker arriving captures him, when
 * the attackers are to move (what bd_pos_captures would say of the king, for
 * every square at once, for less); 0 when the defenders are. */
BD_FN bd_bb bd_king_takers(const bd_variant *v, const bd_pos *p);

/* Move the piece, keeping the key up to date when `keyed` is set. */
static inline void bd_pos_slide_as(bd_pos *p, int from, int to, int keyed) {
    bd_bb fromto = bd_bit(from) | bd_bit(to);
    if (p->king == from) {
        p->king = (int8_t)to;
        if (keyed) p->key ^= BD_ZOBRIST[2][from] ^ BD_ZOBRIST[2][to];
    } else if (p->side == BD_ATTACKERS) {
        p->att ^= fromto;
        if (keyed) p->key ^= BD_ZOBRIST[0][from] ^ BD_ZOBRIST[0][to];
    } else {
        p->dfn ^= fromto;
        if (keyed) p->key ^= BD_ZOBRIST[1][from] ^ BD_ZOBRIST[1][to];
    }
}
static inline void bd_pos_slide(bd_pos *p, int from, int to) { bd_pos_slide_as(p, from, to, 1); }

/* Where a move of the side to move captures: the squares that capture a
 * soldier (bd_capture_lines, which the first form also gives) and those that
 * capture the king (bd_king_takers, also given). A move to any other square
 * captures nothing; a move to one of them captures, unless it is an unarmed
 * king's. */
static inline bd_bb bd_capture_reach_lines(const bd_variant *v, const bd_pos *p, bd_bb lines[BD_DIRECTIONS],
                                           bd_bb *takers) {
    *takers = bd_king_takers(v, p);
    return bd_capture_lines(v, p, lines) | *takers;
}
static inline bd_bb bd_capture_reach(const bd_variant *v, const bd_pos *p) {
    bd_bb lines[BD_DIRECTIONS], takers;
    return bd_capture_reach_lines(v, p, lines, &takers);
}
static inline int bd_may_capture(bd_bb reach, bd_move m) {
    return (reach & bd_bit(BD_TO(m))) != 0;
}

/* The slide, then the captures when `maybe` says there may be some. With
 * `keyed` clear the key is not kept up to date (perft, which never reads
 * it, saves a tenth of its work). */
static inline bd_report bd_pos_play_as(const bd_variant *v, bd_pos *p, bd_move m, int maybe, int keyed) {
    int from = BD_FROM(m), to = BD_TO(m);
    bd_report r;
    r.captured = 0;
    r.flags = 0;
    if (p->king == from) {
        r.flags = BD_DID_KING_MOVED;
        if (bd_escapes(v) & bd_bit(to)) r.flags |= BD_DID_KING_HOME;
    }
    bd_pos_slide_as(p, from, to, keyed);
    if (maybe) bd_pos_capture(v, p, to, &r);
    p->side ^= 1;
    if (keyed) p->key ^= BD_ZOBRIST_SIDE;
    return r;
}
static inline bd_report bd_pos_play(const bd_variant *v, bd_pos *p, bd_move m, int maybe) {
    return bd_pos_play_as(v, p, m, maybe, 1);
}

/* Play a move known to be a legal slide: capture, update the key, pass the
 * turn. With `slides` set, nothing is captured. Inline, since perft, the
 * playouts and the search call it for every node. */
static inline bd_report bd_pos_do(const bd_variant *v, bd_pos *p, bd_move m, int slides) {
    bd_bb enemies = p->side == BD_ATTACKERS ? p->dfn | bd_king_bb(p) : p->att;
    /* Only a move that lands beside an enemy can capture. */
    return bd_pos_play(v, p, m, !slides && (BD_ADJACENT[BD_TO(m)] & enemies) != 0);
}

/* The same for a caller that has bd_capture_reach(v, p): most moves are
 * then known to capture nothing without looking. */
static inline bd_report bd_pos_do_reach(const bd_variant *v, bd_pos *p, bd_move m, bd_bb reach) {
    return bd_pos_play(v, p, m, bd_may_capture(reach, m));
}

#endif

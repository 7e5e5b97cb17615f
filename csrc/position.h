/* A position: where the pieces stand and whose move it is, with its key.
 *
 * Positions are small values (32 bytes) and are copied rather than undone:
 * a search or a game keeps the position before a move by keeping a copy.
 * The layout is the engine's own: brandubh.h declares bd_pos opaque, with the
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

/* A move (bd_move, brandubh.h): the square left in bits 6..11 and the square
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
 * soldiers. Exact for every mover but an unarmed king (who captures
 * nothing): the square a mover leaves is never the far side of its own
 * capture, since the victim would stand between the two, on its path
 * (so a throne or corner it leaves empty, and hostile, changes nothing). The
 * king himself is captured by rules of his own, not counted here. Returns
 * their union. Lets the search find captures without trying every move. */
BD_FN bd_bb bd_capture_lines(const bd_variant *v, const bd_pos *p, bd_bb lines[BD_DIRECTIONS]);
/* The squares beside the king where an attacker arriving captures him, when
 * the attackers are to move (what bd_pos_captures would say of the king, for
 * every square at once, for less); 0 when the defenders are. */
BD_FN bd_bb bd_king_takers(const bd_variant *v, const bd_pos *p);

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

/* How bd_pos_make makes a move: these flags, or-ed together. Each caller
 * names what it needs, and as bd_pos_make is inline the flags it passes as
 * constants cost nothing at run time. */
enum bd_make {
    /* Look for what the move captures, and take it. Without it the move is a
     * slide and takes nothing: perft's slides only, or a caller whose capture
     * reach says the move cannot capture (bd_make_captures_in). */
    BD_MAKE_CAPTURES = 1,
    /* Keep the key up to date. Perft, which never reads it, leaves it out and
     * saves a tenth of its work. */
    BD_MAKE_KEYED = 2,
    /* With BD_MAKE_CAPTURES: look only when the move lands beside an enemy,
     * as any capture does. The test for a caller that has no capture reach. */
    BD_MAKE_IF_BESIDE = 4,
    /* A name, not a fourth flag: a legal move played in full by a caller that
     * knows nothing more of it (the playouts, the game record, bd_pos_move). */
    BD_MAKE_PLAY = BD_MAKE_KEYED | BD_MAKE_CAPTURES | BD_MAKE_IF_BESIDE
};

/* BD_MAKE_CAPTURES when the capture reach (bd_capture_reach) says the move
 * may capture, else 0: for a caller that has the reach, most moves are then
 * known to take nothing without looking. */
static inline int bd_make_captures_in(bd_bb reach, bd_move m) {
    /* 0 or 1, times a flag that is 1, so the compiler sees the test it
     * tests (written `? BD_MAKE_CAPTURES : 0`, perft's every-leaf walk ran
     * 2% more instructions). */
    return bd_may_capture(reach, m) * BD_MAKE_CAPTURES;
}

/* The one way to make a move known to be a legal slide of the side to move:
 * move the piece, take what it captures as `flags` say (enum bd_make), pass
 * the turn, and say what the move did. Inline, since perft, the playouts and
 * the search make every node's move with it. */
static inline bd_report bd_pos_make(const bd_variant *v, bd_pos *p, bd_move m, int flags) {
    int from = BD_FROM(m), to = BD_TO(m);
    bd_bb fromto = bd_bit(from) | bd_bit(to);
    bd_report r;
    r.captured = 0;
    r.flags = 0;
    /* Only a move that lands beside an enemy can capture. The enemies are the
     * side not moving, so they are the same before the slide and after. */
    if ((flags & BD_MAKE_IF_BESIDE) &&
        !(BD_ADJACENT[to] & (p->side == BD_ATTACKERS ? p->dfn | bd_king_bb(p) : p->att)))
        flags &= ~BD_MAKE_CAPTURES;
    if (p->king == from) {
        r.flags = BD_DID_KING_MOVED;
        if (bd_escapes(v) & bd_bit(to)) r.flags |= BD_DID_KING_HOME;
        p->king = (int8_t)to;
        if (flags & BD_MAKE_KEYED) p->key ^= BD_ZOBRIST[2][from] ^ BD_ZOBRIST[2][to];
    } else if (p->side == BD_ATTACKERS) {
        p->att ^= fromto;
        if (flags & BD_MAKE_KEYED) p->key ^= BD_ZOBRIST[0][from] ^ BD_ZOBRIST[0][to];
    } else {
        p->dfn ^= fromto;
        if (flags & BD_MAKE_KEYED) p->key ^= BD_ZOBRIST[1][from] ^ BD_ZOBRIST[1][to];
    }
    if (flags & BD_MAKE_CAPTURES) bd_pos_capture(v, p, to, &r);
    p->side ^= 1;
    if (flags & BD_MAKE_KEYED) p->key ^= BD_ZOBRIST_SIDE;
    return r;
}

#endif

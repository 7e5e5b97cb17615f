/* Move ordering: which move the search tries next at a position.
 *
 * A picker lives on the stack of one node of the search, made there by one
 * of the three bd_picker_init* calls, and gives its moves one at a time
 * (bd_next_move, 0 when there are no more). It works out only what the
 * moves asked for need.
 *
 * For a node of the search (bd_picker_init), in stages:
 *   1. the table move, when it is a move here;
 *   2. else the best special move: a win (the king home, the king taken),
 *      else a capture, most soldiers taken first, else a block of the
 *      king's open line;
 *   3. else a killer, when it is a quiet move here;
 *   4. then the rest, listed and keyed only now, each picked when asked
 *      for, by the same ranks and history.
 * Stages 1 to 3 give one move at most, found without listing any: three
 * nodes in four are cut off by their first move, and most never list
 * their moves at all.
 *
 * For quiescence, the captures, best first (bd_picker_init_captures) or,
 * when the king has an open line home, the moves that can stop him
 * (bd_picker_init_evasions), each listed at once.
 *
 * The order is exactly that of keying every move and picking from the
 * whole list (movepick.c says how); the stages only save the listing. */
#ifndef BD_MOVEPICK_H
#define BD_MOVEPICK_H

#include <stdint.h>

#include "movegen.h"

/* The ordering keys, highest first; a capture adds 1024 for each soldier
 * taken. History must stay below BD_HISTORY_MAX to rank below the killers
 * (the search halves its table when an entry reaches it). */
#define BD_ORDER_TT      (1 << 30)
#define BD_ORDER_WIN     (1 << 29)   /* the king home, or the king captured */
#define BD_ORDER_CAPTURE (1 << 26)
#define BD_ORDER_BLOCK   (1 << 25)   /* an attacker into the king's open line */
#define BD_ORDER_KILLER1 (1 << 24)
#define BD_ORDER_KILLER2 (1 << 23)
#define BD_HISTORY_MAX   (1 << 22)

/* Where the side to move can capture, worked out once for all its moves:
 * the squares that capture soldiers, one set per direction (enum bd_dir,
 * as bd_capture_lines gives them), the squares
 * where an attacker takes the king, and their union, the reach
 * (bd_capture_reach_lines). */
typedef struct bd_capture_map {
    bd_bb lines[BD_DIRECTIONS];
    bd_bb takers;
    bd_bb reach;
} bd_capture_map;

/* What the move given last was (bd_picked), for the search's reductions
 * and its history. */
enum {
    BD_PICKED_TT = 0,       /* the table move */
    BD_PICKED_SPECIAL = 1,  /* a win, a capture or a block */
    BD_PICKED_KILLER = 2,   /* a killer: a quiet move that cut a sibling off */
    BD_PICKED_QUIET = 3     /* any other move, ordered by history alone */
};

/* What the ordering keys read, once for the position: copies rather than
 * reads through the search and the position, which the stores to the score
 * array could alias (the compiler would load them again for every move). */
typedef struct bd_order {
    const bd_variant *v;
    const bd_pos *p;
    const bd_capture_map *cm;
    bd_bb block;                /* bd_blockers */
    bd_bb blocks;               /* where an attacker blocks the king (0: none) */
    bd_bb escapes;
    /* Most moves are none of the special ones, and one test finds them: not
     * to a square where a move may capture, block or (the king's) win. */
    bd_bb special_to;
    bd_move tt_move, killer1, killer2;
    const int32_t *history;     /* NULL when history is off */
} bd_order;

typedef struct bd_picker {
    bd_capture_map cm;
    bd_order o;
    int stage;
    int key;                    /* of the move given last */
    bd_move first;              /* the move given before the list, or 0 */
    /* The list and its keys, from the first move on; i the next place;
     * from place `ready` on, the moves stand in their order (the list
     * sorted, or empty). */
    int n, i, ready;
    bd_move moves[BD_MAX_MOVES];
    int scores[BD_MAX_MOVES];
} bd_picker;

/* The squares between the king and the escape squares he has an open line
 * to: where an attacker blocks him. */
BD_FN bd_bb bd_block_squares(const bd_variant *v, const bd_pos *p);

/* For a node of the search: every move, in the stages above. tt_move is 0
 * when there is none; killers the ply's two (NULL: no killers); history
 * the side to move's table (NULL: no history); with_blocks 0 leaves blocks
 * of the king's line out of the special moves. The tables are read when
 * the moves are keyed, so what the search adds to them meanwhile counts. */
BD_FN void bd_picker_init(bd_picker *pk, const bd_variant *v, const bd_pos *p, bd_move tt_move,
                          const bd_move killers[2], const int32_t *history, int with_blocks);
/* For quiescence: the moves that capture, best first. */
BD_FN void bd_picker_init_captures(bd_picker *pk, const bd_variant *v, const bd_pos *p);
/* For quiescence with the king's line home open, the attackers to move:
 * their moves to a square of `to` (the ones that can save them), keyed as
 * in the search with no table move. Returns how many there are. */
BD_FN int bd_picker_init_evasions(bd_picker *pk, const bd_variant *v, const bd_pos *p, bd_bb to,
                                  const bd_move killers[2], const int32_t *history, int with_blocks);
/* The next move, 0 when none is left. Inline where the list stands in
 * order (most of quiescence has nothing to take, and most moves of a long
 * list come after the sort); the stages and the first picks of a list in
 * bd_picker_next. */
BD_FN bd_move bd_picker_next(bd_picker *pk);
static inline bd_move bd_next_move(bd_picker *pk) {
    if (pk->i < pk->ready) return bd_picker_next(pk);
    if (pk->i >= pk->n) return 0;
    pk->key = pk->scores[pk->i];
    return pk->moves[pk->i++];
}

/* What the move given last was: BD_PICKED_*. */
static inline int bd_picked(const bd_picker *pk) {
    return pk->key >= BD_ORDER_TT       ? BD_PICKED_TT
           : pk->key >= BD_ORDER_BLOCK   ? BD_PICKED_SPECIAL
           : pk->key >= BD_ORDER_KILLER2 ? BD_PICKED_KILLER
                                         : BD_PICKED_QUIET;
}

/* The keys of a list of moves of the side to move, as a picker with no
 * table move keys them: for the root, which is ordered once, and with the
 * seed. Higher first. */
BD_FN void bd_order_keys(const bd_variant *v, const bd_pos *p, const bd_move *moves, int n,
                         const bd_move killers[2], const int32_t *history, int with_blocks, int *keys);

/* The capture reach, for making the moves given (bd_make_captures_in). */
static inline bd_bb bd_picker_reach(const bd_picker *pk) { return pk->cm.reach; }

#endif

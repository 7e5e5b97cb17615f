/* Move ordering: the staged picker of movepick.h.
 *
 * The order. Every move of the position has a key (order_key): the table
 * move, then a win, a capture (by the soldiers taken), a block, the first
 * killer, the second, and history, in that rank. The moves are taken from
 * the list bd_gen_moves would make (by square left, then square reached,
 * which is the order of move numbers) as pick_from_list() takes them: for
 * the first PICKS places, the best of the rest is swapped into the place,
 * ties going to the move standing first; from there on, the rest in one
 * stable sort. (A swap moves a move further down the list, so ties are not
 * always broken by move number: the bench signature pins the order, so
 * the swaps stay, as they were.)
 *
 * The stages. The first move of that order is the table move if it is a
 * move here, else the best special move, else a killer: each can be found
 * without listing the moves (a test that it is a move here; the special
 * moves by square, all soldiers at once). Only the first: from the second
 * move on, the order keys quiet moves by the history as it stands when the
 * second move is asked for, after the first move's search has added to it,
 * and that needs the list. (Giving the other special moves and the killers
 * before listing reads the history after their searches, later: Bench
 * 1155248 where it is 1154633, and no faster, +0.3% instructions in the
 * bench and +1.4% in a search of a million positions.) */
#include "movepick.h"

#include <stddef.h>

#include "eval.h"

/* The first places of a list are picked one by one (most nodes are cut by
 * one of them); the rest are sorted at once, which costs less than picking
 * each. */
#define PICKS 3

/* ---------------------------------------------------------------- keys */

bd_bb bd_block_squares(const bd_variant *v, const bd_pos *p) {
    bd_bb lanes = bd_king_lanes(v, p), block = bd_blockers(v, p), between = 0;
    bd_bb from_king = p->king == BD_NONE ? 0 : bd_slides(p->king, block);
    while (lanes) between |= bd_slides(bd_pop_lsb(&lanes), block) & from_king;
    return between;
}

static inline void map_captures(const bd_variant *v, const bd_pos *p, bd_capture_map *cm) {
    cm->reach = bd_capture_reach_lines(v, p, cm->lines, &cm->takers);
}

/* The key of what a move takes, 0 when nothing: BD_ORDER_WIN for the king,
 * else BD_ORDER_CAPTURE and 1024 for each soldier. Read off the king's
 * takers and the lines, which are exact for every mover but an unarmed
 * king (who takes nothing), so that for any other the square reached
 * decides. (Playing out every move in reach cost a tenth of the search's
 * instructions.) */
static inline int landing_key(const bd_capture_map *cm, int to) {
    int k;
    if (cm->takers & bd_bit(to)) return BD_ORDER_WIN;
    k = (int)(((cm->lines[BD_EAST] >> to) & 1) + ((cm->lines[BD_WEST] >> to) & 1) +
              ((cm->lines[BD_NORTH] >> to) & 1) + ((cm->lines[BD_SOUTH] >> to) & 1));
    return k ? BD_ORDER_CAPTURE + 1024 * k : 0;
}

static inline int capture_key(const bd_order *o, bd_move m) {
    if (!bd_may_capture(o->cm->reach, m)) return 0;
    if (BD_FROM(m) == o->p->king && !o->v->king_armed) return 0;
    return landing_key(o->cm, BD_TO(m));
}

static void order_init(bd_order *o, const bd_variant *v, const bd_pos *p, const bd_capture_map *cm,
                       bd_move tt_move, const bd_move killers[2], const int32_t *history, int with_blocks) {
    o->v = v;
    o->p = p;
    o->cm = cm;
    o->block = bd_blockers(v, p);
    o->blocks = p->side == BD_ATTACKERS && with_blocks ? bd_block_squares(v, p) : 0;
    o->escapes = bd_escapes(v);
    o->special_to = cm->reach | o->blocks | (p->side == BD_DEFENDERS ? o->escapes : 0);
    o->tt_move = tt_move;
    o->killer1 = killers ? killers[0] : 0;
    o->killer2 = killers ? killers[1] : 0;
    o->history = history;
}

static inline int is_plain(const bd_order *o, bd_move m) {
    return !(bd_bit(BD_TO(m)) & o->special_to) && m != o->tt_move && m != o->killer1 && m != o->killer2;
}

static inline int history_key(const bd_order *o, bd_move m) { return o->history ? o->history[m] : 0; }

/* The key of a win, a capture or a block; 0 for any other move. */
static inline int special_key(const bd_order *o, bd_move m) {
    bd_bb to = bd_bit(BD_TO(m));
    int taken;
    if (BD_FROM(m) == o->p->king && (to & o->escapes)) return BD_ORDER_WIN;
    taken = capture_key(o, m);
    if (taken) return taken;
    return to & o->blocks ? BD_ORDER_BLOCK : 0;
}

/* The ordering key: table move, wins, captures, blocks, killers, history. */
static inline int order_key(const bd_order *o, bd_move m) {
    int k;
    if (is_plain(o, m)) return history_key(o, m);
    if (m == o->tt_move) return BD_ORDER_TT;
    if ((k = special_key(o, m)) != 0) return k;
    if (m == o->killer1) return BD_ORDER_KILLER1;
    if (m == o->killer2) return BD_ORDER_KILLER2;
    return history_key(o, m);
}

/* Whether m is a move of the side to move here: the table and the killers
 * hold moves from other positions. */
static inline int is_legal_here(const bd_order *o, bd_move m) {
    return (bd_targets_within(o->v, o->p, BD_FROM(m), o->block) & bd_bit(BD_TO(m))) != 0;
}

/* ---------------------------------------------------------- the list */

/* The moves of the side to move with their keys, in the order bd_gen_moves
 * gives, in one pass: most moves get their history at once, and the list
 * is not read back. (Generating, then keying, ran 1.3% more instructions
 * in the search.) */
static int gen_scored(const bd_order *o, bd_move *moves, int *scores) {
    bd_bb movers = bd_movers(o->p);
    int n = 0;
    while (movers) {
        int from = bd_pop_lsb(&movers);
        bd_bb t = bd_piece_targets(o->v, o->p, from, o->block);
        while (t) {
            bd_move m = BD_MOVE(from, bd_pop_lsb(&t));
            moves[n] = m;
            scores[n++] = is_plain(o, m) ? history_key(o, m) : order_key(o, m);
        }
    }
    return n;
}

static inline void swap_moves(bd_picker *pk, int a, int b) {
    bd_move m = pk->moves[a];
    int s = pk->scores[a];
    pk->moves[a] = pk->moves[b];
    pk->scores[a] = pk->scores[b];
    pk->moves[b] = m;
    pk->scores[b] = s;
}

/* Sort the moves from place `from` on by key, best first, stably. */
static void sort_from(bd_picker *pk, int from) {
    int j, k;
    for (j = from + 1; j < pk->n; j++) {
        bd_move m = pk->moves[j];
        int s = pk->scores[j];
        for (k = j; k > from && pk->scores[k - 1] < s; k--) {
            pk->moves[k] = pk->moves[k - 1];
            pk->scores[k] = pk->scores[k - 1];
        }
        pk->moves[k] = m;
        pk->scores[k] = s;
    }
}

/* The best move left in the list, brought to its place: by selection for
 * the first PICKS places (the best swapped with the move standing
 * there; ties to the one standing first), and from there on the order of
 * one stable sort. */
static inline bd_move pick_from_list(bd_picker *pk) {
    int i = pk->i++, best = i, j;
    if (i == PICKS) {
        sort_from(pk, i);
        pk->ready = i + 1;   /* bd_next_move takes the rest as they stand */
    } else {
        for (j = i + 1; j < pk->n; j++)
            if (pk->scores[j] > pk->scores[best]) best = j;
        if (best != i) swap_moves(pk, i, best);
    }
    pk->key = pk->scores[i];
    return pk->moves[i];
}

/* Until a list is made and sorted, every move goes to bd_picker_next. */
#define NOT_READY (BD_MAX_MOVES + 1)

/* A list just made: picked from place i on (an empty one is ready). */
static inline void list_made(bd_picker *pk, int i) {
    pk->i = i;
    pk->ready = pk->n > 0 ? NOT_READY : 0;
}

/* The whole list, with the move given before it (if any) where
 * pick_from_list() would have put it, swapped into the first place, so
 * that picking goes on from the second as if it had picked that one. */
static void list_all(bd_picker *pk) {
    int k;
    pk->n = gen_scored(&pk->o, pk->moves, pk->scores);
    if (!pk->first) {
        list_made(pk, 0);
        return;
    }
    for (k = 0; pk->moves[k] != pk->first; k++) {
    }
    swap_moves(pk, 0, k);
    list_made(pk, 1);
}

/* ------------------------------------------------- the first move */

/* The lowest-numbered soldier move to a square of `to`: the first of them
 * in list order. */
static bd_move first_to(bd_bb soldiers, const bd_bb sets[BD_DIRECTIONS], bd_bb to) {
    bd_move best = 0xffff;
    int d;
    for (d = BD_EAST; d < BD_DIRECTIONS; d++) {
        bd_bb t = sets[d] & to;
        while (t) {
            int sq = bd_pop_lsb(&t);
            bd_move m = BD_MOVE(bd_slid_from(soldiers, sq, d), sq);
            if (m < best) best = m;
        }
    }
    return best;
}

/* The special move the list would give first: of the highest key, the
 * lowest-numbered (nothing has been picked, so the list stands in the
 * order of move numbers); 0 when there is none. A soldier's capture or
 * block is keyed by the square reached alone, so the squares are ranked
 * first and the pieces found only for the best of them (finding the piece
 * for every candidate cost 6% of the search); then the king's moves. */
static bd_move first_special(const bd_order *o, int *key) {
    const bd_pos *p = o->p;
    bd_bb soldiers = p->side == BD_ATTACKERS ? p->att : p->dfn, sets[BD_DIRECTIONS], reached, top = 0, t;
    bd_move best = 0;
    int best_key = BD_ORDER_BLOCK - 1;   /* below every special key */
    if (o->cm->reach | o->blocks) {
        bd_slide_sets(soldiers, BD_ALL & ~o->block, sets);
        reached = bd_slide_union(sets) & BD_SOLDIER_STOPS;
    } else {
        reached = sets[BD_EAST] = sets[BD_WEST] = sets[BD_NORTH] = sets[BD_SOUTH] = 0;
    }
    /* The soldiers' captures, the best squares; else their blocks. */
    for (t = reached & o->cm->reach; t;) {
        int sq = bd_pop_lsb(&t), k = landing_key(o->cm, sq);
        if (k > best_key) {
            best_key = k;
            top = bd_bit(sq);
        } else if (k == best_key) {
            top |= bd_bit(sq);
        }
    }
    if (!top && (reached & o->blocks)) {
        best_key = BD_ORDER_BLOCK;
        top = reached & o->blocks;
    }
    if (top) best = first_to(soldiers, sets, top);
    /* The king's: home, or (armed) a capture. */
    if (p->side == BD_DEFENDERS && p->king != BD_NONE) {
        for (t = bd_king_targets(o->v, p, o->block) & o->special_to; t;) {
            bd_move m = BD_MOVE(p->king, bd_pop_lsb(&t));
            int k = special_key(o, m);
            if (k > best_key || (k == best_key && m < best)) {
                best_key = k;
                best = m;
            }
        }
    }
    *key = best_key;
    return best;
}

/* A killer that is a quiet move here: neither the table move nor a
 * special move, which outrank it. */
static inline int is_quiet_killer(const bd_order *o, bd_move k) {
    return k && k != o->tt_move && is_legal_here(o, k) && !special_key(o, k);
}

/* ------------------------------------------------------------ stages */

/* The first move is looked for in the first three, one after the other
 * (each falls through to the next when it has none); the list is made when
 * the move after it is asked for. */
enum {
    STAGE_TT,           /* the table move */
    STAGE_SPECIAL,      /* the best special move */
    STAGE_KILLER,       /* a quiet killer */
    STAGE_LIST_INIT,    /* the whole list, keyed now */
    STAGE_LIST          /* picked from it */
};

static inline bd_move give_first(bd_picker *pk, bd_move m, int key) {
    pk->first = m;
    pk->key = key;
    pk->stage = STAGE_LIST_INIT;
    return m;
}

void bd_picker_init(bd_picker *pk, const bd_variant *v, const bd_pos *p, bd_move tt_move,
                    const bd_move killers[2], const int32_t *history, int with_blocks) {
    map_captures(v, p, &pk->cm);
    order_init(&pk->o, v, p, &pk->cm, tt_move, killers, history, with_blocks);
    pk->stage = STAGE_TT;
    pk->first = 0;
    pk->n = pk->i = 0;
    pk->ready = NOT_READY;
}

bd_move bd_picker_next(bd_picker *pk) {
    const bd_order *o = &pk->o;
    bd_move m;
    int key;
    switch (pk->stage) {
    case STAGE_TT:
        if (o->tt_move && is_legal_here(o, o->tt_move)) return give_first(pk, o->tt_move, BD_ORDER_TT);
        /* fall through */
    case STAGE_SPECIAL:
        if ((m = first_special(o, &key)) != 0) return give_first(pk, m, key);
        /* fall through */
    case STAGE_KILLER:
        if (is_quiet_killer(o, o->killer1)) return give_first(pk, o->killer1, BD_ORDER_KILLER1);
        if (is_quiet_killer(o, o->killer2)) return give_first(pk, o->killer2, BD_ORDER_KILLER2);
        /* fall through */
    case STAGE_LIST_INIT:
        list_all(pk);
        pk->stage = STAGE_LIST;
        /* fall through */
    default:
        return pk->i < pk->n ? pick_from_list(pk) : 0;
    }
}

/* -------------------------------------------------------- quiescence */

static inline void add_capture(bd_picker *pk, bd_move m, int score) {
    /* In the order bd_gen_moves would list them (ties are broken by it). */
    int k = pk->n++;
    for (; k > 0 && pk->moves[k - 1] > m; k--) {
        pk->moves[k] = pk->moves[k - 1];
        pk->scores[k] = pk->scores[k - 1];
    }
    pk->moves[k] = m;
    pk->scores[k] = score;
}

/* The moves that capture, keyed by what they take: the soldiers' moves into
 * reach all at once, by direction, then an armed king's. (Piece by piece,
 * every one played out, this was a sixth of the search's instructions.) */
void bd_picker_init_captures(bd_picker *pk, const bd_variant *v, const bd_pos *p) {
    bd_order *o = &pk->o;
    bd_bb soldiers = p->side == BD_ATTACKERS ? p->att : p->dfn, sets[BD_DIRECTIONS], t;
    int d, key;
    /* Only what capture_key reads: quiescence is most of the positions. */
    map_captures(v, p, &pk->cm);
    o->v = v;
    o->p = p;
    o->cm = &pk->cm;
    o->block = bd_blockers(v, p);
    pk->stage = STAGE_LIST;
    pk->n = 0;
    if (pk->cm.reach) {   /* usually not: nothing to take */
        bd_slide_sets(soldiers, BD_ALL & ~o->block, sets);
        for (d = BD_EAST; d < BD_DIRECTIONS; d++) {
            for (t = sets[d] & pk->cm.reach & BD_SOLDIER_STOPS; t;) {
                int to = bd_pop_lsb(&t);
                bd_move m = BD_MOVE(bd_slid_from(soldiers, to, d), to);
                if ((key = capture_key(o, m)) != 0) add_capture(pk, m, key);
            }
        }
        if (p->side == BD_DEFENDERS && p->king != BD_NONE && v->king_armed) {
            for (t = bd_king_targets(v, p, o->block) & pk->cm.reach; t;) {
                bd_move m = BD_MOVE(p->king, bd_pop_lsb(&t));
                if ((key = capture_key(o, m)) != 0) add_capture(pk, m, key);
            }
        }
    }
    list_made(pk, 0);
}

int bd_picker_init_evasions(bd_picker *pk, const bd_variant *v, const bd_pos *p, bd_bb to,
                            const bd_move killers[2], const int32_t *history, int with_blocks) {
    bd_move all[BD_MAX_MOVES];
    int n, i;
    map_captures(v, p, &pk->cm);
    order_init(&pk->o, v, p, &pk->cm, 0, killers, history, with_blocks);
    pk->stage = STAGE_LIST;
    pk->n = 0;
    n = bd_gen_moves(v, p, all);
    for (i = 0; i < n; i++)
        if (to & bd_bit(BD_TO(all[i]))) {
            pk->moves[pk->n] = all[i];
            pk->scores[pk->n++] = order_key(&pk->o, all[i]);
        }
    list_made(pk, 0);
    return pk->n;
}

void bd_order_keys(const bd_variant *v, const bd_pos *p, const bd_move *moves, int n,
                   const bd_move killers[2], const int32_t *history, int with_blocks, int *keys) {
    bd_capture_map cm;
    bd_order o;
    int i;
    map_captures(v, p, &cm);
    order_init(&o, v, p, &cm, 0, killers, history, with_blocks);
    for (i = 0; i < n; i++) keys[i] = order_key(&o, moves[i]);
}

/* The search. Numbered steps in search() and qsearch() are the order things
 * are asked at each position.
 *
 * What each feature is worth, measured with `brandubh match` (the feature
 * on against the same search with it off, 400 games at each budget of
 * positions a move, colours swapped, brandubh rules, Bench: 1154633; Elo
 * with its 95% margin):
 *                                    20,000       200,000
 *   quiescence                      +229 +- 40   +220 +- 40
 *   late move reductions             +26 +- 33    +77 +- 33
 *   principal variation search       +31 +- 33    +71 +- 34
 *   transposition table              +27 +- 33    +38 +- 33
 *   history                           +5 +- 33     +9 +- 33
 *   open line home as check           -5 +- 32     +7 +- 33
 *   killer moves                      -6 +- 32     +5 +- 33
 *   blocks of the king's line first  -24 +- 32    -17 +- 33
 * Clear of the noise: quiescence, and at the larger budget the reductions,
 * PVS and the table. The rest are within it; blocks first measured below
 * zero twice, not clearly, and is the next candidate to drop. Treating an
 * open line as check cost 44 Elo when it tried every attacker move instead
 * of only the saving ones. */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "tt.h"

#define INF 32000
#define QMAX 12          /* quiescence plies at most */
#define LMR_AFTER 3      /* moves searched in full before reductions start */

/* Move-ordering classes, highest first. */
#define ORDER_TT      (1 << 30)
#define ORDER_WIN     (1 << 29)   /* the king home, or the king captured */
#define ORDER_CAPTURE (1 << 26)
#define ORDER_BLOCK   (1 << 25)   /* an attacker into the king's open line */
#define ORDER_KILLER1 (1 << 24)
#define ORDER_KILLER2 (1 << 23)
#define HISTORY_MAX   (1 << 22)

typedef struct ctx {
    bd_game *g;                 /* a private copy: the search path is pushed on it */
    const bd_weights *w;
    bd_tt tt;
    /* nodes reaching limit sends visit() to check_limits(): at the budget,
     * or every STOP_CHECK positions before it to look at the stop flag. */
    uint64_t nodes, limit, budget;
    const volatile int *stop;   /* the caller's, or NULL */
    int stopped;
    int off;                    /* BD_OFF_* */
    bd_move killers[BD_MAX_PLY][2];
    int32_t history[2][4096];
    bd_move pv[BD_MAX_PLY + 1][BD_MAX_PLY];
    int pv_len[BD_MAX_PLY + 1];
} ctx;

/* How often, in positions, the search looks at the caller's stop flag:
 * a fraction of a millisecond apart. */
#define STOP_CHECK 4096

#if defined(__GNUC__) || defined(__clang__)
#define BD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define BD_UNLIKELY(x) (x)
#endif

/* visit()'s slow path, once every STOP_CHECK positions: the budget spent or
 * the flag raised stops the search; otherwise the next check is set. The
 * hot path compares nodes with limit exactly as it once compared them with
 * the budget, so looking at the flag costs nothing per position, and when
 * the flag stays down the search stops where the budget alone stopped it. */
static int check_limits(ctx *c) {
    if (c->stopped || c->nodes >= c->budget || (c->stop && *c->stop)) {
        c->stopped = 1;
        return 0;
    }
    c->limit = c->budget - c->nodes > STOP_CHECK ? c->nodes + STOP_CHECK : c->budget;
    return 1;
}

/* 1. Every position visited is counted; the budget is never passed. */
static inline int visit(ctx *c) {
    if (BD_UNLIKELY(c->nodes >= c->limit) && !check_limits(c)) return 0;
    c->nodes++;
    return 1;
}

static inline const bd_pos *now(const ctx *c) { return &c->g->hist[c->g->ply].pos; }

/* Play a move on the private record and judge it as the game would:
 * repetition and the caps end lines inside the search too. */
static inline void push(ctx *c, bd_move m, bd_bb reach) {
    bd_game_push_reach(c->g, m, reach);
    bd_tt_prefetch(&c->tt, now(c)->key);
    bd_game_judge(c->g, -1);
}

/* Only ever called on a position that was ongoing before the push. */
static inline void pop(ctx *c) {
    c->g->ply--;
    c->g->outcome = BD_ONGOING;
    c->g->winner = BD_NOBODY;
}

/* The scores of a game won, or lost, by the side to move, when it ends
 * `ply` moves from the root: the sooner a win the better, the later a loss
 * the better (both beyond BD_WIN, whatever the evaluation says). */
static inline int mate_in(int ply) { return BD_MATE - ply; }
static inline int mated_in(int ply) { return -BD_MATE + ply; }
static inline int is_mate_score(int s) { return s > BD_WIN || s < -BD_WIN; }
/* How many moves from the root the game ends, for a mate score. */
static inline int mate_distance(int s) { return BD_MATE - (s < 0 ? -s : s); }

/* The table stores a mate score counted from the position, not from the
 * root, so that it reads right wherever the position is met again. */
static inline int value_to_tt(int s, int ply) { return s > BD_WIN ? s + ply : s < -BD_WIN ? s - ply : s; }
static inline int value_from_tt(int s, int ply) { return s > BD_WIN ? s - ply : s < -BD_WIN ? s + ply : s; }

/* The score of a finished game for the side to move. */
static int ended_score(const bd_game *g, int ply) {
    if (g->winner == BD_NOBODY) return 0;
    return g->winner == g->hist[g->ply].pos.side ? mate_in(ply) : mated_in(ply);
}

static inline int relative_eval(const ctx *c, const bd_pos *p, bd_bb king_reach) {
    int s = bd_evaluate_with(&c->g->v, p, c->w, king_reach);
    return p->side == BD_ATTACKERS ? s : -s;
}

/* The squares between the king and the escape squares he has an open line
 * to: where an attacker blocks him. */
static bd_bb block_squares(const bd_variant *v, const bd_pos *p) {
    bd_bb lanes = bd_king_lanes(v, p), block = bd_blockers(v, p), between = 0;
    bd_bb from_king = p->king == BD_NONE ? 0 : bd_slides(p->king, block);
    while (lanes) between |= bd_slides(bd_pop_lsb(&lanes), block) & from_king;
    return between;
}

/* Where the side to move can capture, worked out once for all its moves:
 * the squares that capture soldiers, one set per direction, and the reach
 * (bd_capture_reach_lines). */
typedef struct capture_map {
    bd_bb lines[4];
    bd_bb takers;       /* where an attacker takes the king */
    bd_bb reach;
} capture_map;

static inline void map_captures(const bd_variant *v, const bd_pos *p, capture_map *cm) {
    cm->reach = bd_capture_reach_lines(v, p, cm->lines, &cm->takers);
}

/* The ordering key of what a move takes, 0 when nothing: ORDER_WIN for the
 * king, else ORDER_CAPTURE and 1024 for each soldier. Read off the king's
 * takers and the lines, which are exact for every mover but an unarmed king
 * (who takes nothing), so that for any other the square reached decides
 * (landing_key). (Playing out every move in reach cost a tenth of the
 * search's instructions.) */
static inline int landing_key(const capture_map *cm, int to) {
    int k;
    if (cm->takers & bd_bit(to)) return ORDER_WIN;
    k = (int)(((cm->lines[0] >> to) & 1) + ((cm->lines[1] >> to) & 1) + ((cm->lines[2] >> to) & 1) +
              ((cm->lines[3] >> to) & 1));
    return k ? ORDER_CAPTURE + 1024 * k : 0;
}
static inline int capture_key(const bd_variant *v, const bd_pos *p, const capture_map *cm, bd_move m) {
    if (!bd_may_capture(cm->reach, m)) return 0;
    if (BD_FROM(m) == p->king && !v->king_armed) return 0;
    return landing_key(cm, BD_TO(m));
}

/* What the ordering of one position's moves needs, read once: locals
 * rather than reads through c and p, which the stores to the score array
 * could alias (the compiler would load them again for every move). */
typedef struct order {
    const bd_variant *v;
    const bd_pos *p;
    const capture_map *cm;
    bd_bb blocks, escapes, king_bb;
    /* Most moves are none of the special ones, and one test finds them: not
     * to a square where a move may capture, block or (the king's) win. */
    bd_bb special_to;
    bd_move tt_move, killer1, killer2;
    const int32_t *history;     /* NULL when history is off */
} order;

static inline void order_init(order *o, const ctx *c, const bd_pos *p, const capture_map *cm,
                              bd_move tt_move, int ply) {
    const int off = c->off;
    o->v = &c->g->v;
    o->p = p;
    o->cm = cm;
    o->blocks = p->side == BD_ATTACKERS && !(off & BD_OFF_BLOCKS) ? block_squares(o->v, p) : 0;
    o->escapes = bd_escapes(o->v);
    o->king_bb = bd_king_bb(p);
    o->special_to = cm->reach | o->blocks | (p->side == BD_DEFENDERS ? o->escapes : 0);
    o->tt_move = tt_move;
    o->killer1 = (off & BD_OFF_KILLERS) ? 0 : c->killers[ply][0];
    o->killer2 = (off & BD_OFF_KILLERS) ? 0 : c->killers[ply][1];
    o->history = (off & BD_OFF_HISTORY) ? NULL : c->history[p->side];
}

static inline int is_plain(const order *o, bd_move m) {
    return !(bd_bit(BD_TO(m)) & o->special_to) && m != o->tt_move && m != o->killer1 && m != o->killer2;
}

static inline int history_key(const order *o, bd_move m) { return o->history ? o->history[m] : 0; }

/* The ordering key: table move, wins, captures, blocks, killers, history. */
static inline int order_key(const order *o, bd_move m) {
    bd_bb to = bd_bit(BD_TO(m));
    int taken;
    if (is_plain(o, m)) return history_key(o, m);
    if (m == o->tt_move) return ORDER_TT;
    if (BD_FROM(m) == o->p->king && (to & o->escapes)) return ORDER_WIN;
    taken = capture_key(o->v, o->p, o->cm, m);
    if (taken) return taken;
    if (to & o->blocks) return ORDER_BLOCK;
    if (m == o->killer1) return ORDER_KILLER1;
    if (m == o->killer2) return ORDER_KILLER2;
    return history_key(o, m);
}

static void score_moves(const ctx *c, const bd_pos *p, const capture_map *cm, const bd_move *moves,
                        int n, bd_move tt_move, int ply, int *scores) {
    order o;
    int i;
    order_init(&o, c, p, cm, tt_move, ply);
    for (i = 0; i < n; i++) scores[i] = order_key(&o, moves[i]);
}

/* The moves of the side to move with their ordering keys, in the order
 * bd_gen_moves gives (ties are broken by it), in one pass: most moves get
 * their history at once, and the move list is not read back. (Generating,
 * then scoring, ran 1.3% more instructions in the search.) */
static int gen_scored(const order *o, bd_move *moves, int *scores) {
    bd_bb block = bd_blockers(o->v, o->p), movers = bd_movers(o->p);
    int n = 0;
    while (movers) {
        int from = bd_pop_lsb(&movers);
        bd_bb t = bd_piece_targets(o->v, o->p, from, block);
        while (t) {
            bd_move m = BD_MOVE(from, bd_pop_lsb(&t));
            moves[n] = m;
            scores[n++] = is_plain(o, m) ? history_key(o, m) : order_key(o, m);
        }
    }
    return n;
}

static inline void consider(const order *o, bd_move m, bd_move *best, int *best_key) {
    int s = order_key(o, m);
    /* Ties go to the move listed first: the lower number. */
    if (s > *best_key || (s == *best_key && m < *best)) {
        *best_key = s;
        *best = m;
    }
}

/* Whether m is a move of the side to move here: the table and the killers
 * hold moves from other positions. */
static inline int is_legal_here(const order *o, bd_bb block, bd_move m) {
    return (bd_targets_within(o->v, o->p, BD_FROM(m), block) & bd_bit(BD_TO(m))) != 0;
}

/* The lowest-numbered soldier move to a square of `to`: the first of them
 * in list order. */
static bd_move first_to(bd_bb soldiers, const bd_bb sets[4], bd_bb to) {
    bd_move best = 0xffff;
    int d;
    for (d = 0; d < 4; d++) {
        bd_bb t = sets[d] & to;
        while (t) {
            int sq = bd_pop_lsb(&t);
            bd_move m = BD_MOVE(bd_slid_from(soldiers, sq, d), sq);
            if (m < best) best = m;
        }
    }
    return best;
}

/* The move pick() would choose first from the whole list, found without
 * listing it, when its key is above every history key: the first in list
 * order (by square left, then square reached) among those with the highest
 * key, which can only be the table move, a win, a capture, a block or a
 * killer. 0 when there is none. (Three nodes in four are cut by their first
 * move, so most never list their moves at all.)
 *
 * A soldier's capture or block is keyed by the square reached alone, so the
 * squares are ranked first and the pieces found only for the best of them
 * (finding the piece for every candidate cost 6% of the search). */
static bd_move first_special(const order *o, bd_bb block, int *key) {
    const bd_pos *p = o->p;
    bd_bb soldiers = p->side == BD_ATTACKERS ? p->att : p->dfn, sets[4], reached, t, top = 0;
    bd_move best = 0;
    int best_key = ORDER_KILLER2 - 1;
    /* 1. The table move outranks everything. */
    if (o->tt_move && is_legal_here(o, block, o->tt_move)) {
        *key = ORDER_TT;
        return o->tt_move;
    }
    /* 2. The soldiers' captures, the best squares; else their blocks. */
    if (o->cm->reach | o->blocks) {
        bd_slide_sets(soldiers, BD_ALL & ~block, sets);
        reached = (sets[0] | sets[1] | sets[2] | sets[3]) & ~(BD_CORNERS | BD_THRONE_BB);
    } else {
        reached = sets[0] = sets[1] = sets[2] = sets[3] = 0;
    }
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
        best_key = ORDER_BLOCK;
        top = reached & o->blocks;
    }
    if (top) best = first_to(soldiers, sets, top);
    /* 3. The killers, when they are soldiers' moves here. */
    if (o->killer1 && BD_FROM(o->killer1) != p->king && is_legal_here(o, block, o->killer1))
        consider(o, o->killer1, &best, &best_key);
    if (o->killer2 && BD_FROM(o->killer2) != p->king && is_legal_here(o, block, o->killer2))
        consider(o, o->killer2, &best, &best_key);
    /* 4. The king's moves. */
    if (p->side == BD_DEFENDERS && p->king != BD_NONE) {
        bd_bb wanted = o->special_to;
        if (o->killer1 && BD_FROM(o->killer1) == p->king) wanted |= bd_bit(BD_TO(o->killer1));
        if (o->killer2 && BD_FROM(o->killer2) == p->king) wanted |= bd_bit(BD_TO(o->killer2));
        for (t = bd_king_targets(o->v, p, block) & wanted; t;) {
            bd_move m = BD_MOVE(p->king, bd_pop_lsb(&t));
            if (!is_plain(o, m)) consider(o, m, &best, &best_key);
        }
    }
    *key = best_key;
    return best;
}

/* Bring the best remaining move to place i. The first few are picked one
 * by one (most nodes are cut by one of them); then the rest are sorted once,
 * which costs less than picking each. */
#define PICKS 3
static inline bd_move pick(bd_move *moves, int *scores, int i, int n) {
    int best = i, j;
    if (i == PICKS) {
        for (j = i + 1; j < n; j++) {
            bd_move m = moves[j];
            int s = scores[j], k;
            for (k = j; k > i && scores[k - 1] < s; k--) {
                moves[k] = moves[k - 1];
                scores[k] = scores[k - 1];
            }
            moves[k] = m;
            scores[k] = s;
        }
    }
    if (i >= PICKS) return moves[i];
    for (j = i + 1; j < n; j++)
        if (scores[j] > scores[best]) best = j;
    if (best != i) {
        bd_move m = moves[i];
        int s = scores[i];
        moves[i] = moves[best];
        scores[i] = scores[best];
        moves[best] = m;
        scores[best] = s;
    }
    return moves[i];
}

static void reward(ctx *c, const bd_pos *p, bd_move m, int depth, int ply) {
    int32_t *h = &c->history[p->side][m];
    if (c->killers[ply][0] != m) {
        c->killers[ply][1] = c->killers[ply][0];
        c->killers[ply][0] = m;
    }
    *h += depth * depth;
    if (*h >= HISTORY_MAX) {
        int s, k;
        for (s = 0; s < 2; s++)
            for (k = 0; k < 4096; k++) c->history[s][k] /= 2;
    }
}

static inline void add_capture(bd_move m, int score, bd_move *moves, int *scores, int *n) {
    /* In the order bd_gen_moves would list them (ties are broken by it). */
    int k = (*n)++;
    for (; k > 0 && moves[k - 1] > m; k--) {
        moves[k] = moves[k - 1];
        scores[k] = scores[k - 1];
    }
    moves[k] = m;
    scores[k] = score;
}

/* The moves that capture, scored by what they take: the soldiers' moves into
 * reach all at once, by direction, then an armed king's. (Piece by piece,
 * every one played out, this was a sixth of the search's instructions.) */
static int gen_captures(const bd_variant *v, const bd_pos *p, const capture_map *cm, bd_move *moves,
                        int *scores) {
    bd_bb block = bd_blockers(v, p), soldiers = p->side == BD_ATTACKERS ? p->att : p->dfn, sets[4];
    int n = 0, d, key;
    if (!cm->reach) return 0;   /* the usual case: nothing to take */
    bd_slide_sets(soldiers, BD_ALL & ~block, sets);
    for (d = 0; d < 4; d++) {
        bd_bb t = sets[d] & cm->reach & ~(BD_CORNERS | BD_THRONE_BB);
        while (t) {
            int to = bd_pop_lsb(&t);
            bd_move m = BD_MOVE(bd_slid_from(soldiers, to, d), to);
            if ((key = capture_key(v, p, cm, m)) != 0) add_capture(m, key, moves, scores, &n);
        }
    }
    if (p->side == BD_DEFENDERS && p->king != BD_NONE && v->king_armed) {
        bd_bb t = bd_king_targets(v, p, block) & cm->reach;
        while (t) {
            bd_move m = BD_MOVE(p->king, bd_pop_lsb(&t));
            if ((key = capture_key(v, p, cm, m)) != 0) add_capture(m, key, moves, scores, &n);
        }
    }
    return n;
}

/* Quiescence: captures only, until the position is quiet; but a king with
 * an open line home is like check: the attackers may not stand pat, and
 * every move of theirs is looked at (all but a block or a capture lose). */
static int qsearch(ctx *c, int alpha, int beta, int ply, int qply) {
    const bd_variant *v = &c->g->v;
    const bd_pos *p;
    bd_move moves[BD_MAX_MOVES];
    int scores[BD_MAX_MOVES];
    int n, i, best = -INF, threatened;
    bd_bb king_reach;
    capture_map cm;
    c->pv_len[ply] = 0;
    /* 1. Count the position. */
    if (!visit(c)) return 0;
    /* 2. The game ended with the last move. */
    if (c->g->outcome != BD_ONGOING) return ended_score(c->g, ply);
    p = now(c);
    /* 3. The king has an open line home and it is his side's move: he goes
     *    home with the next one. */
    king_reach = bd_king_reach(v, p);
    threatened = (king_reach & bd_escapes(v)) != 0;
    if (threatened && p->side == BD_DEFENDERS) return mate_in(ply + 1);
    threatened = threatened && p->side == BD_ATTACKERS && !(c->off & BD_OFF_THREATS);
    /* 4. Stand pat, unless threatened. */
    if (c->off & BD_OFF_QSEARCH) return relative_eval(c, p, king_reach);
    if (!threatened) {
        best = relative_eval(c, p, king_reach);
        if (best >= beta || qply >= QMAX || ply >= BD_MAX_PLY - 1) return best;
        if (best > alpha) alpha = best;
    } else if (qply >= QMAX || ply >= BD_MAX_PLY - 1) {
        return relative_eval(c, p, king_reach);
    }
    /* 5. Captures, best first; threatened, only the moves that can save the
     *    king's opponents: into his open line, or beside him (to take him).
     *    Every other move lets him home, so when there is none the position
     *    is lost, the king home the move after next. (Trying every move instead cost 44 Elo at 20,000 positions
     *    a move: -43.7 +- 33.1 over 400 games.) */
    map_captures(v, p, &cm);
    if (threatened) {
        bd_bb saving = block_squares(v, p) | BD_ADJACENT[p->king];
        int k;
        n = bd_gen_moves(v, p, moves);
        for (i = k = 0; i < n; i++)
            if (saving & bd_bit(BD_TO(moves[i]))) moves[k++] = moves[i];
        n = k;
        if (n == 0) return mated_in(ply + 2);
        score_moves(c, p, &cm, moves, n, 0, ply, scores);
    } else {
        n = gen_captures(v, p, &cm, moves, scores);
    }
    for (i = 0; i < n; i++) {
        bd_move m = pick(moves, scores, i, n);
        int s;
        push(c, m, cm.reach);
        s = -qsearch(c, -beta, -alpha, ply + 1, qply + 1);
        pop(c);
        if (c->stopped) return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

static int search(ctx *c, int depth, int alpha, int beta, int ply) {
    const bd_variant *v = &c->g->v;
    const bd_pos *p;
    bd_tt_entry *slot;
    bd_move moves[BD_MAX_MOVES], tt_move = 0, best_move = 0;
    int scores[BD_MAX_MOVES];
    int n, i, k, best = -INF, alpha0 = alpha, pv_node = beta - alpha > 1, first_key;
    capture_map cm;
    bd_move first;
    order o;
    /* 1. Out of depth: quiescence takes the position over, and counts it
     *    (each position is counted once). */
    if (depth <= 0 || ply >= BD_MAX_PLY - QMAX - 1) return qsearch(c, alpha, beta, ply, 0);
    c->pv_len[ply] = 0;
    /* 2. Count the position. */
    if (!visit(c)) return 0;
    /* 3. The game ended with the last move: the record has judged it. */
    if (c->g->outcome != BD_ONGOING) return ended_score(c->g, ply);
    p = now(c);
    /* 4. The defenders to move with the king's line home open: a win, the
     *    king home with the next move. */
    if (p->side == BD_DEFENDERS && bd_king_lanes(v, p)) return mate_in(ply + 1);
    /* 5. Mate distance: no result here beats a win already closer to the
     *    root. (The best here is a win with the next move.) */
    if (alpha < mated_in(ply)) alpha = mated_in(ply);
    if (beta > mate_in(ply + 1)) beta = mate_in(ply + 1);
    if (alpha >= beta) return alpha;
    /* 6. The transposition table: a cut-off off the principal variation, and
     *    its move first in any case. */
    slot = bd_tt_slot(&c->tt, p->key);
    if (slot->key == p->key && slot->bound != BD_BOUND_NONE && !(c->off & BD_OFF_TT)) {
        tt_move = slot->move;
        if (!pv_node && slot->depth >= depth) {
            int s = value_from_tt(slot->score, ply);
            if (slot->bound == BD_BOUND_EXACT ||
                (slot->bound == BD_BOUND_LOWER && s >= beta) ||
                (slot->bound == BD_BOUND_UPPER && s <= alpha))
                return s;
        }
    }
    /* 7. The moves, best first: the first on its own when it is a special
     *    one (see first_special), the rest listed and ordered only when it
     *    does not cut the node off. */
    map_captures(v, p, &cm);
    order_init(&o, c, p, &cm, tt_move, ply);
    first = first_special(&o, bd_blockers(v, p), &first_key);
    n = first ? 1 : gen_scored(&o, moves, scores);
    if (n == 0) return 0;
    if (first) {
        moves[0] = first;
        scores[0] = first_key;
    }
    for (i = 0;; i++) {
        bd_move m;
        int s;
        if (i == 1 && first) {
            /* The rest: the whole list, the first in front as pick() would
             * have put it. */
            n = gen_scored(&o, moves, scores);
            for (k = 0; moves[k] != first; k++) {
            }
            moves[k] = moves[0];
            scores[k] = scores[0];
            moves[0] = first;
            scores[0] = first_key;
        }
        if (i >= n) break;
        m = i == 0 && first ? first : pick(moves, scores, i, n);
        /* 8. Principal variation search: the first move with the full window,
         *    the rest with a null window, searched again if they beat it. */
        push(c, m, cm.reach);
        if (i == 0 || (c->off & BD_OFF_PVS)) {
            s = -search(c, depth - 1, -beta, -alpha, ply + 1);
        } else {
            /* 9. Late move reductions: a soldier's quiet move late in the
             *    order is looked at one move less deep first, and again in
             *    full only when it beats the best so far. */
            int r = depth >= 3 && i >= LMR_AFTER && scores[i] < ORDER_KILLER2 &&
                    BD_FROM(m) != p->king && !(c->off & BD_OFF_LMR);
            s = -search(c, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
            if (r && !c->stopped && s > alpha) s = -search(c, depth - 1, -alpha - 1, -alpha, ply + 1);
            if (!c->stopped && s > alpha && s < beta)
                s = -search(c, depth - 1, -beta, -alpha, ply + 1);
        }
        pop(c);
        if (c->stopped) return 0;
        if (s > best) {
            best = s;
            best_move = m;
            if (s > alpha) {
                alpha = s;
                c->pv[ply][0] = m;
                memcpy(&c->pv[ply][1], c->pv[ply + 1], (size_t)c->pv_len[ply + 1] * sizeof(bd_move));
                c->pv_len[ply] = c->pv_len[ply + 1] + 1;
                if (alpha >= beta) {
                    if (scores[i] < ORDER_BLOCK) reward(c, p, m, depth, ply);
                    break;
                }
            }
        }
    }
    /* 10. Remember what was found. */
    slot->key = p->key;
    slot->move = best_move;
    slot->depth = (int8_t)depth;
    slot->score = (int16_t)value_to_tt(best, ply);
    slot->bound = best >= beta ? BD_BOUND_LOWER : best > alpha0 ? BD_BOUND_EXACT : BD_BOUND_UPPER;
    return best;
}

/* A fixed mix of the seed and the move: the order of root moves that the
 * ordering scores alike, so the seed picks among moves that search alike. */
static uint32_t tie_break(uint32_t seed, bd_move m) {
    uint32_t x = seed * 0x9E3779B1u ^ (uint32_t)m * 0x85EBCA77u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return x;
}

static void sort_root(bd_move *moves, int *keys, uint32_t *ties, int n) {
    int i, j;
    for (i = 1; i < n; i++) {
        bd_move m = moves[i];
        int k = keys[i];
        uint32_t t = ties[i];
        for (j = i; j > 0 && (keys[j - 1] < k || (keys[j - 1] == k && ties[j - 1] < t)); j--) {
            moves[j] = moves[j - 1];
            keys[j] = keys[j - 1];
            ties[j] = ties[j - 1];
        }
        moves[j] = m;
        keys[j] = k;
        ties[j] = t;
    }
}

int bd_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
              bd_search_result *out) {
    bd_move moves[BD_MAX_MOVES];
    int keys[BD_MAX_MOVES];
    uint32_t ties[BD_MAX_MOVES];
    int n, i, depth, max_depth;
    capture_map cm;
    ctx *c;
    memset(out, 0, sizeof *out);
    if (g->outcome != BD_ONGOING) return 1;
    /* Only what is read before it is written is cleared: not the PV table. */
    c = (ctx *)malloc(sizeof *c);
    if (!c) return -1;
    c->nodes = 0;
    c->limit = 0;               /* the first position looks at the flag */
    c->stop = limits->stop;
    c->stopped = 0;
    memset(c->killers, 0, sizeof c->killers);
    memset(c->history, 0, sizeof c->history);
    memset(c->pv_len, 0, sizeof c->pv_len);
    c->g = bd_game_clone(g);
    if (!c->g || bd_game_reserve(c->g, BD_MAX_PLY + 2) != 0 ||
        bd_tt_init(&c->tt, limits->budget, limits->tt_bytes) != 0) {
        bd_game_free(c->g);
        free(c);
        return -1;
    }
    c->w = w;
    c->off = limits->off;
    c->budget = limits->budget ? limits->budget : 1;
    max_depth = limits->depth > 0 && limits->depth < BD_MAX_DEPTH ? limits->depth : BD_MAX_DEPTH;

    /* The root's moves, ordered once by the ordering keys and the seed. */
    n = bd_gen_moves(&g->v, now(c), moves);
    map_captures(&g->v, now(c), &cm);
    score_moves(c, now(c), &cm, moves, n, 0, 0, keys);
    for (i = 0; i < n; i++) ties[i] = tie_break(limits->seed, moves[i]);
    sort_root(moves, keys, ties, n);
    out->move = moves[0];

    /* Iterative deepening. An iteration the budget (or the stop flag) stops
     * is used only when its first move (the previous best) was searched in
     * full: then its best among the moves searched in full stands. Stopped
     * before any iteration finished, the result is the ordering's first
     * move at depth 0. */
    for (depth = 1; depth <= max_depth; depth++) {
        int alpha = -INF, best = -INF, done;
        bd_move best_move = 0;
        bd_move pv[BD_MAX_PLY];
        int pv_len = 0;
        if (!visit(c)) break;
        for (done = 0; done < n; done++) {
            int s;
            push(c, moves[done], cm.reach);
            if (done == 0) {
                s = -search(c, depth - 1, -INF, INF, 1);
            } else {
                s = -search(c, depth - 1, -alpha - 1, -alpha, 1);
                if (!c->stopped && s > alpha) s = -search(c, depth - 1, -INF, -alpha, 1);
            }
            pop(c);
            if (c->stopped) break;
            if (s > best) {
                best = s;
                best_move = moves[done];
                pv[0] = best_move;
                memcpy(&pv[1], c->pv[1], (size_t)c->pv_len[1] * sizeof(bd_move));
                pv_len = c->pv_len[1] + 1;
                if (s > alpha) alpha = s;
            }
        }
        if (done > 0) {
            out->move = best_move;
            out->score = best;
            out->depth = depth;
            out->pv_length = pv_len;
            memcpy(out->pv, pv, (size_t)pv_len * sizeof(bd_move));
        }
        if (c->stopped) break;
        /* The best first next time; the others keep their order. */
        for (i = 0; moves[i] != best_move; i++) {
        }
        for (; i > 0; i--) moves[i] = moves[i - 1];
        moves[0] = best_move;
        /* A forced result needs no deeper look, nor does a lone move. */
        if (is_mate_score(best) && mate_distance(best) <= depth) break;
        if (n == 1) break;
    }
    out->nodes = c->nodes;
    out->stopped = c->stopped;
    bd_tt_free(&c->tt);
    bd_game_free(c->g);
    free(c);
    return 0;
}

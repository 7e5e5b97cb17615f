#include "game.h"

/* Perft keeps no keys: the positions it makes are never looked up. */

/* The endings perft knows: those a move makes on the board. Repetition and
 * the caps depend on the record and play no part; a side with no move simply
 * has no moves below it. */
static inline int ends_game(const bd_variant *v, const bd_pos *p, int flags) {
    if (flags & (BD_DID_KING_HOME | BD_DID_KING_TAKEN)) return 1;
    if (v->no_pieces && !p->att) return 1;
    return v->encirclement && bd_encircled(p);
}

typedef struct walk {
    bd_variant v;           /* a copy: stores to the positions cannot alias it */
    int slides, bulk;
    bd_perft_stats *stats;
    const volatile int *stop;   /* the caller's flag, or `never` */
    int never;              /* stays 0: the flag of a walk nobody stops */
    int *stopped;           /* set once the flag has been seen */
} walk;

static void walk_init(walk *w, const bd_variant *v, int slides, int bulk, bd_perft_stats *stats,
                      const volatile int *stop, int *stopped) {
    w->v = *v;
    w->slides = slides;
    w->bulk = bulk;
    w->stats = stats;
    w->never = 0;
    w->stop = stop ? stop : &w->never;
    w->stopped = stopped;
    *stopped = 0;
}

static uint64_t leaves(const walk *w, const bd_pos *p, int depth) {
    const bd_variant *v = &w->v;
    bd_bb block, movers, reach;
    uint64_t total = 0, captures = 0, endings = 0;
    if (depth == 0) return 1;
    if (depth == 1 && w->bulk) return (uint64_t)bd_count_moves(v, p);
    /* The stop flag, at every position three plies or more from the leaves:
     * hundreds of thousands of instructions apart, nothing beside them.
     * Once stopped, every such position returns at once, so the walk
     * unwinds in a few steps (each position is a copy on the stack: there
     * is nothing to undo). */
    if (depth >= 3 && (*w->stopped || *w->stop)) {
        *w->stopped = 1;
        return 0;
    }
    /* Walk the target squares piece by piece, with no move list; where a
     * move can capture is worked out once for them all. */
    block = bd_blockers(v, p);
    movers = bd_movers(p);
    reach = w->slides ? 0 : bd_capture_reach(v, p);
    while (movers) {
        int from = bd_pop_lsb(&movers);
        bd_bb targets = bd_piece_targets(v, p, from, block);
        while (targets) {
            bd_pos child = *p;
            bd_move m = BD_MOVE(from, bd_pop_lsb(&targets));
            /* Unkeyed; slides only, the reach is empty and nothing is taken. */
            bd_report r = bd_pos_make(v, &child, m, bd_make_captures_in(reach, m));
            int over = !w->slides && ends_game(v, &child, r.flags);
            if (depth == 1) {
                total++;
                captures += r.captured != 0;
                endings += over;
            } else if (!over) {
                /* The last ply bulk-counted here, without a call. */
                total += depth == 2 && w->bulk ? (uint64_t)bd_count_moves_inline(v, &child)
                                               : leaves(w, &child, depth - 1);
            }
        }
    }
    w->stats->captures += captures;
    w->stats->endings += endings;
    return total;
}

static int root_is_over(const bd_variant *v, const bd_pos *p, int slides) {
    int winner;
    if (slides) return 0;
    return bd_judge_start(v, p, &winner) != BD_ONGOING;
}

int bd_perft(const bd_variant *v, const bd_pos *p, int depth, int slides, int bulk,
             bd_perft_stats *stats, const volatile int *stop) {
    walk w;
    int stopped;
    walk_init(&w, v, slides, bulk, stats, stop, &stopped);
    stats->leaves = stats->captures = stats->endings = 0;
    if (depth > 0 && root_is_over(v, p, slides)) return 0;
    stats->leaves = leaves(&w, p, depth);
    return stopped;
}

int bd_divide(const bd_variant *v, const bd_pos *p, int depth, int slides,
              bd_move *moves, uint64_t *counts, const volatile int *stop) {
    bd_perft_stats stats = {0, 0, 0};
    walk w;
    int n, i, stopped;
    if (depth < 1 || root_is_over(v, p, slides)) return 0;
    walk_init(&w, v, slides, 1, &stats, stop, &stopped);
    n = bd_gen_moves(v, p, moves);
    for (i = 0; i < n && !stopped; i++) {
        bd_pos child = *p;
        bd_report r = bd_pos_make(v, &child, moves[i], slides ? 0 : BD_MAKE_CAPTURES | BD_MAKE_IF_BESIDE);
        if (depth == 1) counts[i] = 1;
        else if (!slides && ends_game(v, &child, r.flags)) counts[i] = 0;
        else counts[i] = leaves(&w, &child, depth - 1);
    }
    return stopped ? -1 : n;
}

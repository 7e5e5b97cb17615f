/* The search: iterative deepening alpha-beta over the game record, limited
 * by a count of positions and never by a clock.
 *
 * Same game (position and history), variant, budget, depth, seed, table
 * size and weights: same move, score and node count, on any machine, unless
 * the caller's stop flag ends it (the only limit that is not deterministic:
 * when it is raised is up to the caller, and so is the node it lands on). */
#ifndef BD_SEARCH_H
#define BD_SEARCH_H

#include "eval.h"
#include "game.h"

#define BD_MATE 30000
/* Scores beyond this are wins (or, negated, losses) found by the search. */
#define BD_WIN 29000
#define BD_MAX_PLY 96
#define BD_MAX_DEPTH 64

/* Features that can be turned off, one at a time, to measure what each is
 * worth (brandubh match); 0 in play. */
enum {
    BD_OFF_TT = 1,          /* transposition table: no cut-offs, no table move */
    BD_OFF_KILLERS = 2,
    BD_OFF_HISTORY = 4,
    BD_OFF_PVS = 8,         /* every move searched with the full window */
    BD_OFF_THREATS = 16,    /* an open line home is not treated as check */
    BD_OFF_QSEARCH = 32,    /* the evaluation at the horizon, no quiescence */
    BD_OFF_BLOCKS = 64,     /* blocks of the king's line not ordered first */
    BD_OFF_LMR = 128        /* late quiet moves searched to full depth at once */
};

typedef struct bd_search_limits {
    uint64_t budget;    /* positions the search may visit, at least 1 */
    int depth;          /* stop after this many moves ahead; 0 for no limit */
    uint32_t seed;      /* settles the choice among root moves that score alike */
    int off;            /* BD_OFF_* features turned off; 0 in play */
    uint64_t tt_bytes;  /* the table's size in bytes, rounded down to a power
                           of two entries (at least 2^10); 0: sized from the
                           budget (bd_tt_init) */
    /* NULL, or a flag owned by the caller, which may set it non-zero from
     * another thread at any time: the search then ends within a few
     * thousand positions, as if the budget had run out there. Never
     * written by the search. */
    const volatile int *stop;
} bd_search_limits;

typedef struct bd_search_result {
    bd_move move;       /* 0 when the game is over */
    int score;          /* for the side to move */
    int depth;          /* the deepest look whose result was used */
    uint64_t nodes;     /* positions visited, never more than the budget */
    int stopped;        /* the budget or the stop flag ended the search part
                           way through an iteration */
    int pv_length;
    bd_move pv[BD_MAX_PLY];
} bd_search_result;

/* 0; 1 when the game is over (no move); -1 when out of memory. The game is
 * left as it was. */
int bd_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
              bd_search_result *out);

#endif

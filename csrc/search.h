/* The search: iterative deepening alpha-beta over the game record, limited
 * by a count of positions and never by a clock.
 *
 * Same game (position and history), variant, budget, depth, seed and
 * weights: same move, score and node count, on any machine. */
#ifndef BD_SEARCH_H
#define BD_SEARCH_H

#include "eval.h"
#include "game.h"

#define BD_MATE 30000
/* Scores beyond this are wins (or, negated, losses) found by the search. */
#define BD_WIN 29000
#define BD_MAX_PLY 96
#define BD_MAX_DEPTH 64

typedef struct bd_search_limits {
    uint64_t budget;    /* positions the search may visit, at least 1 */
    int depth;          /* stop after this many moves ahead; 0 for no limit */
    uint32_t seed;      /* settles the choice among root moves that score alike */
} bd_search_limits;

typedef struct bd_search_result {
    bd_move move;       /* 0 when the game is over */
    int score;          /* for the side to move */
    int depth;          /* the deepest look whose result was used */
    uint64_t nodes;     /* positions visited, never more than the budget */
    int stopped;        /* the budget ended an iteration part way */
    int pv_length;
    bd_move pv[BD_MAX_PLY];
} bd_search_result;

/* 0; 1 when the game is over (no move); -1 when out of memory. The game is
 * left as it was. */
int bd_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
              bd_search_result *out);

#endif

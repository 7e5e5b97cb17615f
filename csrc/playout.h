/* Random playouts: whole games of uniformly random moves, played in C. The
 * fast path for Monte Carlo bots. */
#ifndef BD_PLAYOUT_H
#define BD_PLAYOUT_H

#include "game.h"

typedef struct bd_playout_stats {
    uint64_t games;
    uint64_t plies;                      /* moves played, over all games */
    uint64_t outcomes[BD_OUTCOMES];      /* games per ending */
    uint64_t wins[2];                    /* games won by attackers, defenders */
    uint64_t draws;
} bd_playout_stats;

/* Play `games` games from where g stands, each move chosen uniformly from
 * the legal ones by a generator seeded with `seed`. g is left as it was.
 *
 * `stop`: NULL, or a flag owned by the caller, which may set it non-zero
 * from another thread; it is looked at before each game, so the playouts
 * then end after the game being played, and `out` counts the games
 * finished (the first out->games of the same call run to the end).
 * Returns 0, 1 when stopped, or -1 when out of memory. */
int bd_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out,
                const volatile int *stop);

#endif

/* The engine's one random number generator: splitmix64, whose whole state
 * is the caller's 64-bit word. Nothing else is kept, so the playouts and
 * the batched environments each own their generators, the same seed gives
 * the same numbers on every machine, and two threads never share one. */
#ifndef BD_RANDOM_H
#define BD_RANDOM_H

#include <stdint.h>

static inline uint64_t bd_random_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A number from 0 to n - 1 from 32 of the generator's bits: multiply-shift,
 * which needs no division (the playouts' choice rule, which
 * tests/test_playouts.py replays, is this on the top 32 bits). */
static inline int bd_random_below(uint64_t random, int n) {
    return (int)(((random >> 32) * (uint64_t)n) >> 32);
}

#endif

/* The transposition table: positions already searched, by Zobrist key.
 * A search owns its table, sized from its budget or by its caller, so its
 * result never depends on an earlier one; unless its caller hands it a
 * table kept from search to search (bd_table, engine.h). */
#ifndef BD_TT_H
#define BD_TT_H

#include <stdint.h>
#include "position.h"

enum { BD_BOUND_NONE = 0, BD_BOUND_UPPER = 1, BD_BOUND_LOWER = 2, BD_BOUND_EXACT = 3 };

typedef struct bd_tt_entry {
    uint64_t key;
    int16_t score;
    bd_move move;
    int8_t depth;
    uint8_t bound;
} bd_tt_entry;

typedef struct bd_tt {
    bd_tt_entry *entries;
    uint64_t mask;
} bd_tt;

/* A table of a power of two entries. With bytes 0, about one entry per
 * eight nodes of budget, between 2^10 and 2^21 (32 MiB): a larger table
 * costs more in page faults than it saves. Otherwise the most entries that
 * fit in that many bytes, at least 2^10. 0, or -1 when out of memory. */
BD_FN int bd_tt_init(bd_tt *tt, uint64_t budget, uint64_t bytes);
BD_FN void bd_tt_free(bd_tt *tt);

/* engine.h's bd_table: a table the caller keeps between searches. */
struct bd_table {
    bd_tt tt;
};

static inline bd_tt_entry *bd_tt_slot(const bd_tt *tt, uint64_t key) {
    return &tt->entries[key & tt->mask];
}

/* Start loading a slot that will be read soon. */
static inline void bd_tt_prefetch(const bd_tt *tt, uint64_t key) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(bd_tt_slot(tt, key));
#else
    (void)tt;
    (void)key;
#endif
}

#endif

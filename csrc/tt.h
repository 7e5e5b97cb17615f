/* The transposition table: positions already searched, by Zobrist key.
 * A search owns its table, sized from its budget or by its caller, so its
 * result never depends on an earlier one; unless its caller hands it a
 * table kept from search to search (bd_table, brandubh.h). The threads of one
 * search share its table, with no lock (see bd_tt_entry). */
#ifndef BD_TT_H
#define BD_TT_H

#include <stdint.h>
#include "position.h"
#include "thread.h"

enum { BD_BOUND_NONE = 0, BD_BOUND_UPPER = 1, BD_BOUND_LOWER = 2, BD_BOUND_EXACT = 3 };

/* An entry is two words: what was found (data: the move, the score, the
 * depth and the bound, packed by bd_tt_pack) and its check, the position's
 * key xor'ed with the data. The threads of one search share the table
 * without a lock (search.c): each word is read and written whole
 * (thread.h), but two threads storing into one slot at once can leave one
 * thread's check beside the other's data. Such a torn entry fails the
 * check for both positions, and reads as empty; so does every entry whose
 * words do not belong together. One thread alone reads exactly what it
 * wrote. */
typedef struct bd_tt_entry {
    uint64_t check;     /* key ^ data */
    uint64_t data;
} bd_tt_entry;

/* An entry's data, unpacked. */
typedef struct bd_tt_hit {
    bd_move move;
    int16_t score;
    int8_t depth;
    uint8_t bound;      /* BD_BOUND_NONE: nothing for this position */
} bd_tt_hit;

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

/* brandubh.h's bd_table: a table the caller keeps between searches. */
struct bd_table {
    bd_tt tt;
};

/* A slot is two entries side by side (a bucket of 32 bytes): the key's bits
 * above the lowest pick it. A table of 2 MiB or more starts on a huge page
 * on Linux (memory.c), so each bucket lies in one cache line; a smaller
 * one, from calloc, may split a bucket across two. */
static inline bd_tt_entry *bd_tt_slot(const bd_tt *tt, uint64_t key) {
    return &tt->entries[key & tt->mask & ~(uint64_t)1];
}

static inline uint64_t bd_tt_pack(bd_move move, int score, int depth, int bound) {
    return (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 16 | (uint64_t)(uint8_t)(int8_t)depth << 32 |
           (uint64_t)(uint8_t)bound << 40;
}

/* What the slot holds for the position of `key`; bound BD_BOUND_NONE when
 * it holds nothing for it (another position, nothing yet, or torn). */
static inline bd_tt_hit tt_probe_one(const bd_tt_entry *slot, uint64_t key) {
    uint64_t data = bd_load64(&slot->data), check = bd_load64(&slot->check);
    bd_tt_hit hit;
    if ((check ^ data) != key) data = 0;
    hit.move = (bd_move)(data & 0xFFFF);
    hit.score = (int16_t)(uint16_t)(data >> 16);
    hit.depth = (int8_t)(uint8_t)(data >> 32);
    hit.bound = (uint8_t)(data >> 40);
    return hit;
}

/* Write what was found for the position of `key` into this one entry. */
static inline void tt_store_one(bd_tt_entry *slot, uint64_t key, bd_move move, int score, int depth, int bound) {
    uint64_t data = bd_tt_pack(move, score, depth, bound);
    bd_store64(&slot->check, key ^ data);
    bd_store64(&slot->data, data);
}

/* What the slot's two entries hold for the position of `key`. */
static inline bd_tt_hit bd_tt_probe(const bd_tt_entry *slot, uint64_t key) {
    bd_tt_hit hit = tt_probe_one(slot, key);
    return hit.bound != BD_BOUND_NONE ? hit : tt_probe_one(slot + 1, key);
}

/* An entry's depth, for the choice of which to replace; below any depth
 * when empty. */
static inline int tt_depth_of(const bd_tt_entry *e) {
    uint64_t data = bd_load64(&e->data);
    return data ? (int8_t)(uint8_t)(data >> 32) : -128;
}

/* Write what was found for the position of `key`: over its own entry when
 * the slot holds one, else over the shallower of the two (the second when
 * they are as deep), so the deeper result stays. */
static inline void bd_tt_store(bd_tt_entry *slot, uint64_t key, bd_move move, int score, int depth, int bound) {
    bd_tt_entry *e = slot;
    if (tt_probe_one(slot, key).bound == BD_BOUND_NONE &&
        (tt_probe_one(slot + 1, key).bound != BD_BOUND_NONE || tt_depth_of(slot + 1) <= tt_depth_of(slot)))
        e = slot + 1;
    tt_store_one(e, key, move, score, depth, bound);
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

/* Large blocks of zeroed memory: the transposition tables (tt.c).
 *
 * A block is given by the system a page at a time, when first touched. With
 * 4 KiB pages a fresh 32 MiB table cost a search about 35 ms of page faults
 * on this project's machine, and two threads faulting one table at once
 * slowed each other: to depth 7 from the bench positions with a 32 MiB
 * table, one thread took 0.70 s (234,000 faults) and two 1.29 s, with 1.9 s
 * of system time. On Linux, memory.c maps blocks of 2 MiB and more on 2 MiB
 * boundaries and offers them huge pages (madvise; the system may decline,
 * as with transparent_hugepage "never"): the same searches then took
 * 0.29 s and 0.19 s, with about 500 faults. Elsewhere, calloc.
 *
 * The exported CodinGame bot, which keeps to the C library, defines
 * BD_PLAIN_MEMORY and gets calloc here. */
#ifndef BD_MEMORY_H
#define BD_MEMORY_H

#include <stddef.h>

#include "core.h"

#ifdef BD_PLAIN_MEMORY
#include <stdlib.h>
static inline void *bd_zeroed(size_t bytes) { return calloc(1, bytes); }
static inline void bd_zeroed_free(void *p, size_t bytes) {
    (void)bytes;
    free(p);
}
#else
/* `bytes` of zeroed memory, or NULL. */
BD_FN void *bd_zeroed(size_t bytes);
/* Give back a block of bd_zeroed, with the size it was asked for. */
BD_FN void bd_zeroed_free(void *p, size_t bytes);
#endif

#endif

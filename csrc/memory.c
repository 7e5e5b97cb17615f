/* Large zeroed blocks (memory.h): huge pages on Linux, calloc elsewhere. */

/* mmap's MAP_ANONYMOUS and madvise's MADV_HUGEPAGE are not C99: ask glibc
 * and musl for them, before any system header. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE
#endif

#include "memory.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
#define BD_HUGE_PAGES 1
/* A huge page on x86-64 and on ARM64 with 4 KiB pages. */
enum { HUGE = 2u << 20 };
#endif

void *bd_zeroed(size_t bytes) {
#ifdef BD_HUGE_PAGES
    if (bytes >= HUGE && bytes <= SIZE_MAX - HUGE) {
        /* Anonymous memory is zero. Map a huge page more than asked and give
         * back the ends, so that the block starts on a boundary. */
        size_t lead;
        char *p = (char *)mmap(NULL, bytes + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == (char *)MAP_FAILED) return NULL;
        lead = (HUGE - (size_t)((uintptr_t)p % HUGE)) % HUGE;
        if (lead) munmap(p, lead);
        munmap(p + lead + bytes, HUGE - lead);
        madvise(p + lead, bytes, MADV_HUGEPAGE);   /* a hint: refused, the block still serves */
        return p + lead;
    }
#endif
    return calloc(1, bytes);
}

void bd_zeroed_free(void *p, size_t bytes) {
    if (!p) return;
#ifdef BD_HUGE_PAGES
    if (bytes >= HUGE && bytes <= SIZE_MAX - HUGE) {
        munmap(p, bytes);
        return;
    }
#endif
    (void)bytes;
    free(p);
}

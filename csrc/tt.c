#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "memory.h"

#define TT_MAX_ENTRIES ((uint64_t)1 << 40)

int bd_tt_init(bd_tt *tt, uint64_t budget, uint64_t bytes) {
    uint64_t size = 1u << 10;
    if (bytes) {
        while (size < TT_MAX_ENTRIES && size * 2 * sizeof *tt->entries <= bytes) size *= 2;
    } else {
        while (size < (1u << 21) && size * 8 <= budget) size *= 2;
    }
    tt->entries = NULL;
    tt->mask = size - 1;
    if (size > (uint64_t)SIZE_MAX / sizeof *tt->entries) return -1;
    tt->entries = (bd_tt_entry *)bd_zeroed((size_t)size * sizeof *tt->entries);
    return tt->entries ? 0 : -1;
}

void bd_tt_free(bd_tt *tt) {
    bd_zeroed_free(tt->entries, (size_t)(tt->mask + 1) * sizeof *tt->entries);
    tt->entries = NULL;
}

bd_table *bd_table_new(uint64_t bytes) {
    bd_table *t = (bd_table *)malloc(sizeof *t);
    if (!t) return NULL;
    if (bd_tt_init(&t->tt, 0, bytes ? bytes : 1) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

void bd_table_clear(bd_table *t) {
    memset(t->tt.entries, 0, (size_t)(t->tt.mask + 1) * sizeof *t->tt.entries);
}

void bd_table_free(bd_table *t) {
    if (!t) return;
    bd_tt_free(&t->tt);
    free(t);
}

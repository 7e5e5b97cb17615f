#include "tt.h"

#include <stdlib.h>

int bd_tt_init(bd_tt *tt, uint64_t budget) {
    uint64_t size = 1u << 10;
    while (size < (1u << 21) && size * 8 <= budget) size *= 2;
    tt->entries = (bd_tt_entry *)calloc((size_t)size, sizeof *tt->entries);
    tt->mask = size - 1;
    return tt->entries ? 0 : -1;
}

void bd_tt_free(bd_tt *tt) {
    free(tt->entries);
    tt->entries = NULL;
}

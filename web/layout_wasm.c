/* Where the fields of brandubh.h's structs lie in WebAssembly's memory, for
 * the JavaScript over the engine (web/brandubh.js), so that no offset is
 * written twice: the script reads them here once, when it loads.
 *
 * bdw_layout writes BDW_LAYOUT numbers into out, in the order below: the
 * size of each struct the script fills in or reads back, then each field's
 * offset. Built only into the WebAssembly engine (tools/build-web). */
#include <stddef.h>

#include "brandubh.h"

#define BDW_LAYOUT 26

__attribute__((export_name("bdw_layout"))) int bdw_layout(int *out) {
    int n = 0;
    out[n++] = (int)sizeof(bd_variant);
    out[n++] = (int)sizeof(bd_weights);
    out[n++] = (int)offsetof(bd_weights, eval);
    out[n++] = (int)sizeof(bd_search_limits);
    out[n++] = (int)offsetof(bd_search_limits, budget);
    out[n++] = (int)offsetof(bd_search_limits, depth);
    out[n++] = (int)offsetof(bd_search_limits, seed);
    out[n++] = (int)offsetof(bd_search_limits, off);
    out[n++] = (int)offsetof(bd_search_limits, tt_bytes);
    out[n++] = (int)offsetof(bd_search_limits, stop);
    out[n++] = (int)offsetof(bd_search_limits, table);
    out[n++] = (int)offsetof(bd_search_limits, threads);
    out[n++] = (int)sizeof(bd_search_result);
    out[n++] = (int)offsetof(bd_search_result, move);
    out[n++] = (int)offsetof(bd_search_result, score);
    out[n++] = (int)offsetof(bd_search_result, depth);
    out[n++] = (int)offsetof(bd_search_result, nodes);
    out[n++] = (int)offsetof(bd_search_result, stopped);
    out[n++] = (int)offsetof(bd_search_result, pv_length);
    out[n++] = (int)offsetof(bd_search_result, pv);
    out[n++] = (int)sizeof(bd_perft_stats);
    out[n++] = (int)offsetof(bd_perft_stats, leaves);
    out[n++] = (int)offsetof(bd_perft_stats, captures);
    out[n++] = (int)offsetof(bd_perft_stats, endings);
    out[n++] = (int)sizeof(bd_report);
    out[n++] = (int)offsetof(bd_report, flags);
    return n;
}

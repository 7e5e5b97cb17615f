/* The WebAssembly engine's stop (web/brandubh.js), put before every source of
 * that build alone (tools/build-web: -include web/stop_wasm.h).
 *
 * The engine's own stop flag (bd_search_limits.stop) lives in its memory,
 * which another thread can write only when that memory is shared, and
 * WebAssembly's shared memory needs a libc built for threads. So instead
 * the search asks the script, every few thousand positions (check_limits in
 * csrc/search.c, through its BD_EXPORT_CLOCK_CHECK hook), whether to stop:
 * the script answers from a flag in a SharedArrayBuffer that another thread
 * (a page's main thread, Node's) may raise at any time. Stopped, the search
 * ends as if its budget had run out there. The one function the module
 * imports. */
#ifndef BDW_STOP_WASM_H
#define BDW_STOP_WASM_H

__attribute__((import_module("env"), import_name("bdw_stop_requested"))) int bdw_stop_requested(void);

#define BD_EXPORT_CLOCK_CHECK(c) \
    do { \
        if (bdw_stop_requested()) (c)->stopped = 1; \
    } while (0)

#endif

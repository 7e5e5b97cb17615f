/* The search (search.c). Its interface (bd_search, its limits and its
 * result, the BD_OFF_* features, BD_MATE) is in brandubh.h; this header gathers
 * what the search's sources use. */
#ifndef BD_SEARCH_H
#define BD_SEARCH_H

#include "eval.h"
#include "game.h"

/* The exported CodinGame bot's clock (brandubh/export.py defines it to stop
 * the search at the turn's deadline), and the WebAssembly build's stop
 * (web/stop_wasm.h): check_limits() runs it every few thousand positions.
 * Nothing here, so the engine reads no clock. */
#ifndef BD_EXPORT_CLOCK_CHECK
#define BD_EXPORT_CLOCK_CHECK(c) ((void)0)
#endif

#endif

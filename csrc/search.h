/* The search (search.c). Its interface (bd_search, its limits and its
 * result, the BD_OFF_* features, BD_MATE) is in engine.h; this header gathers
 * what the search's sources use. */
#ifndef BD_SEARCH_H
#define BD_SEARCH_H

#include "eval.h"
#include "game.h"

#endif

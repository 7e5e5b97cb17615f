/* The engine's whole interface, for the Python bindings and for C callers. */
#ifndef BD_ENGINE_H
#define BD_ENGINE_H

#include "bitboard.h"
#include "variant.h"
#include "position.h"
#include "movegen.h"
#include "game.h"
#include "perft.h"
#include "playout.h"
#include "eval.h"
#include "search.h"
#include "popcnt_build.h"

#endif

/* The engine's base: what every file of the engine includes first, itself
 * or through its concept's header (position.h, game.h, ...), and no caller
 * sees.
 *
 * The base types and constants (bd_bb, bd_move, bd_variant, BD_SQUARES, the
 * enums) are the interface's own, so they are written once, in brandubh.h,
 * which this header includes; the engine's files reach the public header
 * through here alone (tests/test_interface.py holds it so). What is only
 * the engine's own goes here or in a concept's header, never in brandubh.h.
 *
 * BD_FN, the mark before every function of the engine (brandubh.h's and the
 * internal headers' alike), is empty except in csrc/popcnt_build.c, which
 * compiles the engine a second time for processors with the popcount
 * instruction and defines it as `static` before anything includes this
 * header: there every function of that copy has internal linkage, and only
 * its entry points (bd_popcnt_*, declared without the mark) are seen
 * outside it. */
#ifndef BD_CORE_H
#define BD_CORE_H

#include "brandubh.h"

/* For a rare path kept out of a hot function. */
#if defined(_MSC_VER) && !defined(__clang__)
#define BD_NOINLINE __declspec(noinline)
#else
#define BD_NOINLINE __attribute__((noinline))
#endif

/* No square: the king's, when he is off the board. */
#define BD_NONE (-1)

#endif

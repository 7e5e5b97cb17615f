/* The learned evaluation: tables fitted to self-play by `brandubh train`
 * (docs/learned.md), compiled in from learned_weights.c, which
 * tools/gen_learned.py writes from a trained net. Integer arithmetic only,
 * so it scores alike on every machine. */
#ifndef BD_LEARNED_H
#define BD_LEARNED_H

#include "movegen.h"

/* Without BD_NO_LEARNED (the CodinGame export defines it: the NNUE plays
 * there, and only its counts are kept), the tables and their sum. */
#ifndef BD_NO_LEARNED
/* How many pairs of squares there are up to the eight symmetries: of the
 * 49 * 49 pairs, 325 kinds (tools/gen_learned.py counts them). */
#define BD_LEARNED_PAIRS 325

/* The number, from 0 to BD_LEARNED_PAIRS - 1, of the pair (the king's
 * square, another square), the same for a pair and its seven mirror images
 * (pairs with the king on both squares stand for the king alone). */
extern const uint16_t BD_LEARNED_PAIR[BD_SQUARES][BD_SQUARES];
/* Which set of tables a variant uses, by its king_capture (enum
 * bd_king_capture). */
extern const uint8_t BD_LEARNED_SET_OF[4];
/* [set][pair number]: an attacker's worth, a defender's and the king's
 * (the king's on the pairs of his square with itself), from the attackers'
 * side, in the search's units. */
extern const int16_t BD_LEARNED_ATT[][BD_LEARNED_PAIRS];
extern const int16_t BD_LEARNED_DEF[][BD_LEARNED_PAIRS];
extern const int16_t BD_LEARNED_KING[][BD_LEARNED_PAIRS];
/* [set][input]: each count's weight (enum bd_learned_input), and [set] the
 * constant. */
extern const int16_t BD_LEARNED_INPUT_W[][BD_LEARNED_INPUTS];
extern const int16_t BD_LEARNED_BIAS[];

/* The learned evaluation, from the attackers' side, given the king's
 * reach (bd_king_reach). Within the scores of a position not yet won. */
BD_FN int bd_evaluate_learned(const bd_variant *v, const bd_pos *p, bd_bb reach);
#endif
/* Its counts (enum bd_learned_input) for a position, into
 * in[BD_LEARNED_INPUTS]. */
BD_FN void bd_learned_counts(const bd_variant *v, const bd_pos *p, bd_bb reach, int *in);

#endif

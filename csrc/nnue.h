/* A small NNUE (efficiently updatable neural network) evaluation: one
 * hidden layer of clipped ReLUs over piece-square inputs, trained on
 * self-play by tools/train_nnue.py (docs/learned.md, "A small NNUE"), its
 * weights compiled in from nnue_weights.c, which tools/gen_nnue.py writes.
 * Integer arithmetic only, so it scores alike on every machine. Chosen by
 * the weight eval = BD_EVAL_NNUE, the default. */
#ifndef BD_NNUE_H
#define BD_NNUE_H

#include "movegen.h"

/* The inputs, each a count (0 or 1 for a piece on a square):
 *   [0, 49)    an attacker on the square
 *   [49, 98)   a defender on the square
 *   [98, 147)  the king on the square
 *   [147, 151) the learned evaluation's four counts (enum bd_learned_input:
 *              the king's escapes in one move, in two, his squares to move
 *              to, the attackers to move)
 *   [151, 155) the variant's king_capture rule, one of the four set */
#define BD_NNUE_COUNTS 147
#define BD_NNUE_RULE (BD_NNUE_COUNTS + BD_LEARNED_INPUTS)
#define BD_NNUE_INPUTS (BD_NNUE_RULE + 4)
#define BD_NNUE_HIDDEN 64
/* A hidden unit's activation is clipped to [0, BD_NNUE_ONE], which stands
 * for 1.0; the output's sum is divided by BD_NNUE_ONE * BD_NNUE_OUT_SCALE. */
#define BD_NNUE_ONE 255
#define BD_NNUE_OUT_SCALE 16

/* [input][hidden unit]: the first layer's weights, in units of
 * 1 / BD_NNUE_ONE; its biases; the output layer's weights, in units of
 * 1 / BD_NNUE_OUT_SCALE of the search's; its bias, in units of
 * 1 / (BD_NNUE_ONE * BD_NNUE_OUT_SCALE). */
extern const int16_t BD_NNUE_W1[BD_NNUE_INPUTS][BD_NNUE_HIDDEN];
extern const int16_t BD_NNUE_B1[BD_NNUE_HIDDEN];
extern const int16_t BD_NNUE_W2[BD_NNUE_HIDDEN];
extern const int32_t BD_NNUE_B2;

/* The NNUE evaluation, from the attackers' side, given the king's reach
 * (bd_king_reach). Within the scores of a position not yet won. */
BD_FN int bd_evaluate_nnue(const bd_variant *v, const bd_pos *p, bd_bb reach);

#endif

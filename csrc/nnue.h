/* A small NNUE (efficiently updatable neural network) evaluation: one
 * hidden layer of clipped ReLUs over piece-square inputs, trained on
 * self-play by tools/train_nnue.py (docs/learned.md, "A small NNUE"), its
 * weights compiled in from nnue_weights.c, which tools/gen_nnue.py writes.
 * Integer arithmetic only, so it scores alike on every machine. Chosen by
 * the weight eval = BD_EVAL_NNUE, the default. */
#ifndef BD_NNUE_H
#define BD_NNUE_H

#include "game.h"

/* The inputs, each a count (0 or 1 for a piece on a square):
 *   [0, 49)    an attacker on the square
 *   [49, 98)   a defender on the square (BD_NNUE_DEFENDER + the square)
 *   [98, 147)  the king on the square (BD_NNUE_KING + the square)
 *   [147, 151) the learned evaluation's four counts (enum bd_learned_input:
 *              the king's escapes in one move, in two, his squares to move
 *              to, the attackers to move)
 *   [151, 155) the variant's king_capture rule, one of the four set */
#define BD_NNUE_DEFENDER BD_SQUARES
#define BD_NNUE_KING (2 * BD_SQUARES)
#define BD_NNUE_COUNTS (3 * BD_SQUARES)
#define BD_NNUE_RULE (BD_NNUE_COUNTS + BD_LEARNED_INPUTS)
#define BD_NNUE_INPUTS (BD_NNUE_RULE + 4)
#define BD_NNUE_HIDDEN 64
/* A hidden unit's activation is clipped to [0, BD_NNUE_ONE], which stands
 * for 1.0; the output's sum is divided by BD_NNUE_ONE * BD_NNUE_OUT_SCALE. */
#define BD_NNUE_ONE 255
#define BD_NNUE_OUT_SCALE 16

/* What the output layer's sum is divided by, and the division: x /
 * BD_NNUE_DIVISOR, truncated toward zero as C99 divides, as a
 * multiplication by BD_NNUE_MAGIC (2^BD_NNUE_SHIFT / BD_NNUE_DIVISOR,
 * rounded up), a shift, and 1 added below zero: five instructions where the
 * compiler's division of an int was seven (1.4 a node of the NNUE's
 * searches, callgrind). Exact for |x| < 2^42 / 3,056 (the rounding's excess
 * over 2^42), 1.4e9; an output's sum stays below BD_WIN * BD_NNUE_DIVISOR,
 * 1.2e8 (tools/gen_nnue.py refuses a net that could reach it). A negative
 * number shifts arithmetically with every compiler the engine is built
 * with (C99 leaves it to them); tests/c/nnue_check.c compares the two
 * divisions over that whole range. */
#define BD_NNUE_DIVISOR (BD_NNUE_ONE * BD_NNUE_OUT_SCALE)
#define BD_NNUE_SHIFT 42
#define BD_NNUE_MAGIC (((1LL << BD_NNUE_SHIFT) + BD_NNUE_DIVISOR - 1) / BD_NNUE_DIVISOR)
static inline int bd_nnue_divide(int32_t x) {
    return (int)(((int64_t)x * BD_NNUE_MAGIC) >> BD_NNUE_SHIFT) + (x < 0);
}

/* The weights and the sums start on 16-byte boundaries (a row is 128
 * bytes), so that the vectors of the loops below read them straight from
 * memory, one instruction less a vector (3% of the NNUE search's
 * instructions, callgrind). 16 bytes is the fundamental alignment of every
 * 64-bit target, which malloc gives: the search's context (search.c) is
 * malloc'd. A compiler without the attribute (MSVC) aligns as it likes and
 * reads them with unaligned loads. */
#if defined(__GNUC__) || defined(__clang__)
#define BD_NNUE_ALIGNED __attribute__((aligned(16)))
#else
#define BD_NNUE_ALIGNED
#endif

/* [input][hidden unit]: the first layer's weights, in units of
 * 1 / BD_NNUE_ONE; its biases; the output layer's weights, in units of
 * 1 / BD_NNUE_OUT_SCALE of the search's; its bias, in units of
 * 1 / (BD_NNUE_ONE * BD_NNUE_OUT_SCALE). Declared hidden where the
 * engine is an ELF shared library, as the build defines them
 * (-fvisibility=hidden): the NNUE's code then reads them straight at their
 * addresses, where a declaration that another library might define had it
 * fetch each address first (1.4 instructions a node of the NNUE's
 * searches, callgrind). */
#ifdef __ELF__
#pragma GCC visibility push(hidden)
#endif
extern const int16_t BD_NNUE_W1[BD_NNUE_INPUTS][BD_NNUE_HIDDEN] BD_NNUE_ALIGNED;
extern const int16_t BD_NNUE_B1[BD_NNUE_HIDDEN] BD_NNUE_ALIGNED;
extern const int16_t BD_NNUE_W2[BD_NNUE_HIDDEN] BD_NNUE_ALIGNED;
extern const int32_t BD_NNUE_B2;
#ifdef __ELF__
#pragma GCC visibility pop
#endif

/* The first layer's sums over the inputs that only the pieces set (where
 * each stands) and the rule, with the biases: what a move changes by a few
 * rows, so the search carries them from move to move (an "accumulator")
 * instead of adding every piece's row at each evaluation. The counts are
 * added at the evaluation (bd_nnue_score): they need the king's slides. */
typedef struct bd_nnue_sums {
    int16_t s[BD_NNUE_HIDDEN] BD_NNUE_ALIGNED;
} bd_nnue_sums;

/* The sums of a position, built afresh. */
BD_FN void bd_nnue_refresh(const bd_variant *v, const bd_pos *p, bd_nnue_sums *out);

/* The input of the piece that stands on `sq` in `p`: an attacker's, a
 * defender's or the king's on that square. */
static inline int bd_nnue_input(const bd_pos *p, int sq) {
    return (sq == p->king ? BD_NNUE_KING : (p->att >> sq) & 1 ? 0 : BD_NNUE_DEFENDER) + sq;
}

/* A second copy of the NNUE's loops, the sums' update below and the
 * evaluation's, compiled for AVX2 (sixteen 16-bit sums to a vector where
 * x86-64's baseline, SSE2, has eight), which the search runs when the
 * processor has it (bd_nnue_avx2); its evaluation of a position the search
 * has just entered makes the sums and weighs them in one pass, written in
 * AVX2's intrinsics (nnue.c). The same integers, so the same sums and
 * scores bit for bit (tests/c/nnue_check.c
 * holds them to the baseline copy's after every move of its games, and
 * each of the search's scores to the full refresh's). Only the NNUE's loops:
 * the rest of the engine built for AVX2 ran more instructions, not fewer
 * (the classical evaluation's searches +1.3%, callgrind). GCC alone: its
 * target attribute is what compiles one function for AVX2 in a build that
 * may not assume it; elsewhere, and in the CodinGame export (which leaves
 * these out), only the baseline copy. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__clang__)
#define BD_NNUE_AVX2 1
#endif

/* The body that both copies inline: each compiles it for its own
 * instructions. */
#ifdef BD_NNUE_AVX2
#define BD_NNUE_BODY static inline __attribute__((always_inline))
#else
#define BD_NNUE_BODY static inline
#endif

/* The rows of the piece that the move `m` of `side` moves, the king on
 * `king` before it: `left`, its input's on the square it left, and
 * `reached`, on the one it reached. The side says whose it is, the king's
 * square which of the defenders'. The side passed on its own, so that a
 * caller that knows it (the AVX2 copy's cases) tests it no more; the move
 * and the rows' numbers unsigned, so that the compiler widens none of them
 * again (it did the 16-bit move's squares: 1.9 instructions a node). */
static inline void bd_nnue_moved_rows(int side, int king, unsigned m, const int16_t **left, const int16_t **reached) {
    unsigned kind = side == BD_ATTACKERS ? 0 : BD_FROM(m) == king ? BD_NNUE_KING : BD_NNUE_DEFENDER;
    *left = BD_NNUE_W1[kind + (unsigned)BD_FROM(m)];
    *reached = BD_NNUE_W1[kind + (unsigned)BD_TO(m)];
}

/* The sums after the move `m` of the side to move in `p` (the position
 * before it), which took the pieces on `captured` (bd_report.captured),
 * from `before`, the sums of `p`: the mover's row out of the square it
 * left and into the one it reached, and each taken piece's row out. The
 * same sums as bd_nnue_refresh of the position after it, bit for bit:
 * whole numbers added in another order, and every sum on the way is that
 * of some set of pieces, which tools/gen_nnue.py sees fits in 16 bits.
 * Inline: the search makes every move with it. */
BD_NNUE_BODY void bd_nnue_move(const bd_nnue_sums *before, const bd_pos *p, bd_move m, bd_bb captured,
                               bd_nnue_sums *after) {
    const int16_t *left, *reached;
    int j;
    bd_nnue_moved_rows(p->side, p->king, m, &left, &reached);
    for (j = 0; j < BD_NNUE_HIDDEN; j++) after->s[j] = (int16_t)(before->s[j] - left[j] + reached[j]);
    /* Captures are a few moves in a hundred: rows one at a time. */
    for (; captured; captured &= captured - 1) {
        const int16_t *taken = BD_NNUE_W1[bd_nnue_input(p, bd_lsb(captured))];
        for (j = 0; j < BD_NNUE_HIDDEN; j++) after->s[j] = (int16_t)(after->s[j] - taken[j]);
    }
}

/* The NNUE evaluation of `p`, whose sums are `sums`, from the attackers'
 * side, given the king's reach (bd_king_reach). Within the scores of a
 * position not yet won. */
BD_FN int bd_nnue_score(const bd_variant *v, const bd_pos *p, bd_bb reach, const bd_nnue_sums *sums);

/* The sums of the position of the record's entry `e` (e->pos) into
 * sums[1], made from sums[0], those of the position before it (e[-1].pos),
 * with the move that reached it (bd_nnue_move): where the search goes on
 * to a position's moves without evaluating it. Its arguments the record
 * and the search's row of sums, two registers, where bd_nnue_move's are
 * five and a sixth on the stack. */
BD_FN void bd_nnue_carry(const bd_entry *e, bd_nnue_sums *sums);

/* The sums of the position of the record's entry `e` (e->pos), made into
 * sums[1] from sums[0], those of the position before it (e[-1].pos), with
 * the move that reached it (bd_nnue_move), and its score from them (in one
 * pass in the AVX2 copy), where the search evaluates a position it has
 * just entered. Its counts come from the caller (bd_learned_counts's
 * first three: the escapes in one move, in two, the king's squares to move
 * to; the fourth, the side to move, it reads from the position), so that
 * this is a leaf: with the counts made inside, it saved and restored four
 * registers and aligned a frame for their call, and read them back from
 * memory. The first comes as `lanes`, the escape squares the king reaches
 * in one move, whose number it is: the AVX2 copy only tests it (no stand
 * pat where there are any, so seldom an evaluation), and the caller counts
 * nothing (1 instruction a node). The
 * score for the side to move, as the search takes it (bd_nnue_score's,
 * negated when the defenders are to move): each of its cases knows the
 * side. Never for a position without the king: the game is over there,
 * and no search evaluates it. */
BD_FN int bd_nnue_move_score(const bd_entry *e, bd_bb lanes, int two, int freedom, bd_nnue_sums *sums);

/* The NNUE evaluation of `p` from the attackers' side, its sums built
 * afresh: bd_nnue_refresh, then bd_nnue_score. */
BD_FN int bd_evaluate_nnue(const bd_variant *v, const bd_pos *p, bd_bb reach);

#ifdef BD_NNUE_AVX2
/* 1 when the processor runs AVX2 (and the popcount instruction and BMI1,
 * which the copy may use too: every processor with AVX2 has both, and its
 * first test is one BMI1 instruction, x & (x - 1), where it was two: 0.9
 * instructions a node of the NNUE's searches, callgrind): then the search calls the two below in place of
 * bd_nnue_carry and bd_nnue_move_score, which they equal. */
BD_FN int bd_nnue_avx2(void);
BD_FN void bd_nnue_carry_avx2(const bd_entry *e, bd_nnue_sums *restrict sums);
BD_FN int bd_nnue_move_score_avx2(const bd_entry *e, bd_bb lanes, int two, int freedom, bd_nnue_sums *restrict sums);
#endif

#endif

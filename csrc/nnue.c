/* The NNUE evaluation (nnue.h): the hidden layer's sums over the pieces
 * and the rule (bd_nnue_sums: built afresh by bd_nnue_refresh, or carried
 * through a search move by move, bd_nnue_move), the four counts added, the
 * sums clipped and weighed by the output layer. */
#include "nnue.h"

#include "learned.h"

#ifdef BD_NNUE_AVX2
#include <immintrin.h>
#endif

/* Adds input row `f` to the sums. The sums are 16 bits wide, twice as
 * many to a vector as 32: tools/gen_nnue.py refuses weights whose sums
 * could leave the range of int16_t on any position at all (48 soldiers,
 * any counts), so the conversion back never wraps. */
static inline void add_row(int16_t *acc, int f) {
    const int16_t *w = BD_NNUE_W1[f];
    int j;
    for (j = 0; j < BD_NNUE_HIDDEN; j++) acc[j] = (int16_t)(acc[j] + w[j]);
}

void bd_nnue_refresh(const bd_variant *v, const bd_pos *p, bd_nnue_sums *out) {
    bd_bb b;
    int j;
    for (j = 0; j < BD_NNUE_HIDDEN; j++) out->s[j] = BD_NNUE_B1[j];
    for (b = p->att; b; b &= b - 1) add_row(out->s, bd_lsb(b));
    for (b = p->dfn; b; b &= b - 1) add_row(out->s, BD_NNUE_DEFENDER + bd_lsb(b));
    if (p->king != BD_NONE) add_row(out->s, BD_NNUE_KING + p->king);
    add_row(out->s, BD_NNUE_RULE + (v->king_capture & 3));
}

/* The score of the output layer's sum `out` of the units, divided as C99
 * divides, toward zero (bd_nnue_divide): the same on every machine. Within
 * the scores of a position not yet won with no clamp: tools/gen_nnue.py
 * refuses an output layer that could reach BD_WIN (the clamp cost four
 * instructions an evaluation and never acted). */
BD_NNUE_BODY int score_from(int32_t out) { return bd_nnue_divide(out + BD_NNUE_B2); }

/* bd_nnue_score's body, given the counts (bd_nnue_move_score): the
 * counts' rows added, the clipped ReLU, the output layer. 16-bit sums
 * (add_row says why they fit), their products summed in 32 bits. The two
 * counts most often 0 (an escape in one move: no stand pat then; the
 * attackers to move: half the time) are tested in the loop, which the
 * compiler writes once for each case; the other two are seldom 0. */
BD_NNUE_BODY int score_of(const bd_pos *p, int lane_one, int lane_two, int freedom, const bd_nnue_sums *sums) {
    int32_t out = 0;
    int j, attackers = p->side == BD_ATTACKERS;
    /* No king: the game is over before any search asks; material only, as
     * the learned evaluation does. */
    if (p->king == BD_NONE) return 100 * (bd_popcount(p->att) - bd_popcount(p->dfn));
    for (j = 0; j < BD_NNUE_HIDDEN; j++) {
        int16_t a = (int16_t)(sums->s[j] + lane_two * BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_LANE_TWO][j] +
                              freedom * BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_FREEDOM][j]);
        if (lane_one) a = (int16_t)(a + lane_one * BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_LANE_ONE][j]);
        if (attackers) a = (int16_t)(a + BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_TO_MOVE][j]);
        out += (int32_t)(a < 0 ? 0 : a > BD_NNUE_ONE ? BD_NNUE_ONE : a) * BD_NNUE_W2[j];
    }
    return score_from(out);
}

int bd_nnue_score(const bd_variant *v, const bd_pos *p, bd_bb reach, const bd_nnue_sums *sums) {
    int in[BD_LEARNED_INPUTS];
    bd_learned_counts(v, p, reach, in);
    return score_of(p, in[BD_INPUT_LANE_ONE], in[BD_INPUT_LANE_TWO], in[BD_INPUT_FREEDOM], sums);
}

void bd_nnue_carry(const bd_entry *e, bd_nnue_sums *sums) {
    bd_nnue_move(&sums[0], &e[-1].pos, e->move, e->captured, &sums[1]);
}

/* The baseline copy: the sums, then the score from them (the AVX2 copy's
 * one pass, written for the baseline's vectors of eight, cost the
 * CodinGame export 1,300 characters of its 100,000; where the processor
 * has AVX2 the search runs that copy). Inline in the AVX2 copy too, for
 * the positions it leaves to it. */
BD_NNUE_BODY int move_score_of(const bd_entry *e, bd_bb lanes, int two, int freedom, bd_nnue_sums *sums) {
    int score;
    bd_nnue_move(&sums[0], &e[-1].pos, e->move, e->captured, &sums[1]);
    score = score_of(&e->pos, bd_popcount(lanes), two, freedom, &sums[1]);
    return e->pos.side == BD_ATTACKERS ? score : -score;
}

int bd_nnue_move_score(const bd_entry *e, bd_bb lanes, int two, int freedom, bd_nnue_sums *sums) {
    return move_score_of(e, lanes, two, freedom, sums);
}

#ifdef BD_NNUE_AVX2
int bd_nnue_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi");
}

__attribute__((target("avx2,popcnt,bmi"))) void bd_nnue_carry_avx2(const bd_entry *e, bd_nnue_sums *restrict sums) {
    bd_nnue_move(&sums[0], &e[-1].pos, e->move, e->captured, &sums[1]);
}

/* The score of a position whose sums are sums[0] with the row `left` taken
 * out and `reached` added (and `taken` taken out, unless 0), its sums
 * written into sums[1], given the counts (and the side to move's row
 * `side` added, unless 0): each sum made and weighed at once, in AVX2's
 * intrinsics. Inline, and called with 0 written out for a row that adds
 * nothing: the loop written once for each case, with no test inside.
 * Sixteen sums to a vector, and the clip to [0, BD_NNUE_ONE] of two vectors at once by a pack to
 * unsigned bytes with saturation (BD_NNUE_ONE is a byte's largest), which
 * unpacking with zeros widens back in the units' order (both work within
 * each half of a vector): seven instructions where the compiler's minimum
 * and maximum of each vector, with their constants, were twelve. The last
 * four 32-bit sums added by two horizontal additions, two instructions
 * where two shuffles and two additions were four (1.4 a node of the NNUE's
 * searches, callgrind; each is three micro-operations where those were
 * two). Whole numbers in any order, far from 32 bits: the same integers,
 * the same sums and score as the baseline's, bit for bit. */
__attribute__((target("avx2,popcnt,bmi"))) BD_NNUE_BODY int fused_score_avx2(bd_nnue_sums *restrict sums,
                                                                         const int16_t *left, const int16_t *reached,
                                                                         const int16_t *taken, const int16_t *side,
                                                                         int two, int freedom) {
    const __m256i *before = (const __m256i *)(const void *)sums[0].s;
    __m256i *after = (__m256i *)(void *)sums[1].s;
    const __m256i *out_w = (const __m256i *)(const void *)BD_NNUE_W2,
                  *two_w = (const __m256i *)(const void *)BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_LANE_TWO],
                  *free_w = (const __m256i *)(const void *)BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_FREEDOM];
    __m256i twos = _mm256_set1_epi16((short)two), frees = _mm256_set1_epi16((short)freedom);
    __m256i zero = _mm256_setzero_si256(), acc = zero;
    __m128i half;
    int k, i;
    for (k = 0; k < BD_NNUE_HIDDEN / 16; k += 2) {
        __m256i a[2], bytes;
        for (i = 0; i < 2; i++) {
            __m256i sum = _mm256_add_epi16(
                _mm256_sub_epi16(_mm256_loadu_si256(&before[k + i]), _mm256_loadu_si256((const __m256i *)(const void *)left + k + i)),
                _mm256_loadu_si256((const __m256i *)(const void *)reached + k + i));
            if (taken) sum = _mm256_sub_epi16(sum, _mm256_loadu_si256((const __m256i *)(const void *)taken + k + i));
            _mm256_storeu_si256(&after[k + i], sum);
            sum = _mm256_add_epi16(sum, _mm256_add_epi16(_mm256_mullo_epi16(twos, _mm256_loadu_si256(&two_w[k + i])),
                                                         _mm256_mullo_epi16(frees, _mm256_loadu_si256(&free_w[k + i]))));
            if (side) sum = _mm256_add_epi16(sum, _mm256_loadu_si256((const __m256i *)(const void *)side + k + i));
            a[i] = sum;
        }
        bytes = _mm256_packus_epi16(a[0], a[1]);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_unpacklo_epi8(bytes, zero), _mm256_loadu_si256(&out_w[k])));
        acc = _mm256_add_epi32(acc,
                               _mm256_madd_epi16(_mm256_unpackhi_epi8(bytes, zero), _mm256_loadu_si256(&out_w[k + 1])));
    }
    half = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    half = _mm_hadd_epi32(half, half);
    half = _mm_hadd_epi32(half, half);
    return score_from(_mm_cvtsi128_si32(half));
}

/* move_score_of, compiled for AVX2, out of line. */
static BD_NOINLINE __attribute__((target("avx2,popcnt,bmi"))) int move_score_other_avx2(const bd_entry *e, bd_bb lanes,
                                                                                     int two, int freedom,
                                                                                     bd_nnue_sums *restrict sums) {
    return move_score_of(e, lanes, two, freedom, sums);
}

/* Most positions in one pass (fused_score_avx2), with no call, so that it
 * needs no frame: a move that takes one piece or none, the side to move's
 * row added or not, four cases. The rest through move_score_other_avx2, a
 * call out of line that ends it: a move that takes more than one piece (a
 * few in a thousand), or a position where the king reaches an escape
 * square (no stand pat there: seldom evaluated). Never a position without
 * the king (nnue.h). Each case knows the side to move, whose score it is. */
__attribute__((target("avx2,popcnt,bmi"))) int bd_nnue_move_score_avx2(const bd_entry *e, bd_bb lanes, int two, int freedom,
                                                                   bd_nnue_sums *restrict sums) {
    const int16_t *left, *reached, *to_move = BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_TO_MOVE];
    if ((e->captured & (e->captured - 1)) | lanes) return move_score_other_avx2(e, lanes, two, freedom, sums);
    /* A piece taken is always of the side to move now, never the king
     * (whose capture ends the game). The side to move now tested once: the
     * mover is the other. */
    if (e->pos.side == BD_ATTACKERS) {
        bd_nnue_moved_rows(BD_DEFENDERS, e[-1].pos.king, e->move, &left, &reached);
        if (e->captured)
            return fused_score_avx2(sums, left, reached, BD_NNUE_W1[bd_lsb(e->captured)], to_move, two, freedom);
        return fused_score_avx2(sums, left, reached, 0, to_move, two, freedom);
    }
    bd_nnue_moved_rows(BD_ATTACKERS, e[-1].pos.king, e->move, &left, &reached);
    if (e->captured)
        return -fused_score_avx2(sums, left, reached, BD_NNUE_W1[BD_NNUE_DEFENDER + bd_lsb(e->captured)], 0, two,
                                 freedom);
    return -fused_score_avx2(sums, left, reached, 0, 0, two, freedom);
}
#endif

int bd_evaluate_nnue(const bd_variant *v, const bd_pos *p, bd_bb reach) {
    bd_nnue_sums sums;
    bd_nnue_refresh(v, p, &sums);
    return bd_nnue_score(v, p, reach, &sums);
}

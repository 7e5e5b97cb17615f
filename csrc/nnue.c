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

/* What hidden unit j gives the output, its sum over the pieces and the rule
 * being `sum`: the counts' rows added, the clipped ReLU, its output weight.
 * 16-bit sums (add_row says why they fit), the product in 32 bits. The two
 * counts most often 0 (an escape in one move: no stand pat then; the
 * attackers to move: half the time) are tested in the callers' loops,
 * which the compiler writes once for each case; the other two are seldom
 * 0. */
BD_NNUE_BODY int32_t unit_out(int16_t sum, int j, int lane_one, int lane_two, int freedom, int attackers) {
    int16_t a = (int16_t)(sum + lane_two * BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_LANE_TWO][j] +
                          freedom * BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_FREEDOM][j]),
            h;
    if (lane_one) a = (int16_t)(a + lane_one * BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_LANE_ONE][j]);
    if (attackers) a = (int16_t)(a + BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_TO_MOVE][j]);
    h = a < 0 ? 0 : a > BD_NNUE_ONE ? BD_NNUE_ONE : a;
    return (int32_t)h * BD_NNUE_W2[j];
}

/* The score of the output layer's sum `out` of the units. Division
 * truncates toward zero in C99: the same on every machine. Within the
 * scores of a position not yet won with no clamp: tools/gen_nnue.py
 * refuses an output layer that could reach BD_WIN (the clamp cost four
 * instructions an evaluation and never acted). */
BD_NNUE_BODY int score_from(int32_t out) { return (int)((out + BD_NNUE_B2) / (BD_NNUE_ONE * BD_NNUE_OUT_SCALE)); }

/* bd_nnue_score's body, given the counts (bd_nnue_move_score). */
BD_NNUE_BODY int score_of(const bd_pos *p, int lane_one, int lane_two, int freedom, const bd_nnue_sums *sums) {
    int32_t out = 0;
    int j, attackers = p->side == BD_ATTACKERS;
    /* No king: the game is over before any search asks; material only, as
     * the learned evaluation does. */
    if (p->king == BD_NONE) return 100 * (bd_popcount(p->att) - bd_popcount(p->dfn));
    for (j = 0; j < BD_NNUE_HIDDEN; j++) out += unit_out(sums->s[j], j, lane_one, lane_two, freedom, attackers);
    return score_from(out);
}

int bd_nnue_score(const bd_variant *v, const bd_pos *p, bd_bb reach, const bd_nnue_sums *sums) {
    int in[BD_LEARNED_INPUTS];
    bd_learned_counts(v, p, reach, in);
    return score_of(p, in[BD_INPUT_LANE_ONE], in[BD_INPUT_LANE_TWO], in[BD_INPUT_FREEDOM], sums);
}

/* The score of a position whose sums are sums[0] with the row `left` taken
 * out and `reached` added (and `taken` taken out, unless 0), its sums
 * written into sums[1], given the counts (and the side to move's row
 * `side` added, unless 0): each sum made and weighed at once. Inline, and
 * called with 0 written out for a row that adds nothing: the loop written
 * once for each case, with no test inside. */
BD_NNUE_BODY int fused_score(bd_nnue_sums *restrict sums, const int16_t *left, const int16_t *reached,
                             const int16_t *taken, const int16_t *side, int two, int freedom) {
    int32_t out = 0;
    int j;
    for (j = 0; j < BD_NNUE_HIDDEN; j++) {
        int16_t sum = (int16_t)(sums[0].s[j] - left[j] + reached[j]), a, h;
        if (taken) sum = (int16_t)(sum - taken[j]);
        sums[1].s[j] = sum;
        a = (int16_t)(sum + two * BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_LANE_TWO][j] +
                      freedom * BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_FREEDOM][j]);
        if (side) a = (int16_t)(a + side[j]);
        h = a < 0 ? 0 : a > BD_NNUE_ONE ? BD_NNUE_ONE : a;
        out += (int32_t)h * BD_NNUE_W2[j];
    }
    return score_from(out);
}

/* bd_nnue_move_score's body, which each copy inlines: most positions in
 * one pass (`fused`: fused_score or its AVX2 form), with no call, so that
 * it needs no frame: a move that takes one piece or none, the side to
 * move's row added or not, four cases. The rows by the side that moved
 * (bd_nnue_moved_rows). The rest through `other`, a call out of line that
 * ends it: a move that takes more than one piece (a few in a thousand), or
 * a position where the king reaches an escape square (no stand pat there:
 * seldom evaluated). Never a position without the king (nnue.h). The
 * score for the side to move: each case knows it. */
#define MOVE_SCORE_BODY(other, fused)                                                                              \
    const int16_t *left, *reached, *to_move = BD_NNUE_W1[BD_NNUE_COUNTS + BD_INPUT_TO_MOVE];                       \
    if ((e->captured & (e->captured - 1)) | (bd_bb)one) return other(e, one, two, freedom, sums);                  \
    bd_nnue_moved_rows(&e[-1].pos, e->move, &left, &reached);                                                      \
    if (e->captured) {                                                                                             \
        const int16_t *taken = bd_nnue_taken_row(&e[-1].pos, bd_lsb(e->captured));                                \
        if (e->pos.side == BD_ATTACKERS) return fused(sums, left, reached, taken, to_move, two, freedom);          \
        return -fused(sums, left, reached, taken, 0, two, freedom);                                                \
    }                                                                                                              \
    if (e->pos.side == BD_ATTACKERS) return fused(sums, left, reached, 0, to_move, two, freedom);                  \
    return -fused(sums, left, reached, 0, 0, two, freedom)

/* A move that takes more than one piece, or a position where the king
 * reaches an escape square: the sums, then the score from them. */
static BD_NOINLINE int move_score_other(const bd_entry *e, int one, int two, int freedom, bd_nnue_sums *sums) {
    int score;
    bd_nnue_move(&sums[0], &e[-1].pos, e->move, e->captured, &sums[1]);
    score = score_of(&e->pos, one, two, freedom, &sums[1]);
    return e->pos.side == BD_ATTACKERS ? score : -score;
}

void bd_nnue_carry(const bd_entry *e, bd_nnue_sums *restrict sums) {
    bd_nnue_move(&sums[0], &e[-1].pos, e->move, e->captured, &sums[1]);
}

int bd_nnue_move_score(const bd_entry *e, int one, int two, int freedom, bd_nnue_sums *restrict sums) {
    MOVE_SCORE_BODY(move_score_other, fused_score);
}

#ifdef BD_NNUE_AVX2
int bd_nnue_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
}

__attribute__((target("avx2,popcnt"))) void bd_nnue_carry_avx2(const bd_entry *e, bd_nnue_sums *restrict sums) {
    bd_nnue_move(&sums[0], &e[-1].pos, e->move, e->captured, &sums[1]);
}

/* fused_score for AVX2, in its intrinsics: sixteen sums to a vector, and
 * the clip to [0, BD_NNUE_ONE] of two vectors at once by a pack to
 * unsigned bytes with saturation (BD_NNUE_ONE is a byte's largest), which
 * unpacking with zeros widens back in the units' order (both work within
 * each half of a vector): seven instructions where the compiler's minimum
 * and maximum of each vector, with their constants, were twelve. The same
 * integers: the same sums and score as fused_score, bit for bit. */
__attribute__((target("avx2,popcnt"))) BD_NNUE_BODY int fused_score_avx2(bd_nnue_sums *restrict sums,
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
    half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0x4e));
    half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0xb1));
    return score_from(_mm_cvtsi128_si32(half));
}

/* move_score_other, compiled for AVX2. */
static BD_NOINLINE __attribute__((target("avx2,popcnt"))) int move_score_other_avx2(const bd_entry *e, int one,
                                                                                     int two, int freedom,
                                                                                     bd_nnue_sums *restrict sums) {
    int score;
    bd_nnue_move(&sums[0], &e[-1].pos, e->move, e->captured, &sums[1]);
    score = score_of(&e->pos, one, two, freedom, &sums[1]);
    return e->pos.side == BD_ATTACKERS ? score : -score;
}

__attribute__((target("avx2,popcnt"))) int bd_nnue_move_score_avx2(const bd_entry *e, int one, int two, int freedom,
                                                                   bd_nnue_sums *restrict sums) {
    MOVE_SCORE_BODY(move_score_other_avx2, fused_score_avx2);
}
#endif

int bd_evaluate_nnue(const bd_variant *v, const bd_pos *p, bd_bb reach) {
    bd_nnue_sums sums;
    bd_nnue_refresh(v, p, &sums);
    return bd_nnue_score(v, p, reach, &sums);
}

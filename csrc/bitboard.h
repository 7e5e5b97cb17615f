/* Bitboards: the 7x7 board in the low 49 bits of a uint64_t.
 *
 * Square index = rank * 7 + file, so a1 = 0, g1 = 6, d4 = 24, g7 = 48.
 * Everything here is a constant or a small inline function; no state. The
 * board's public constants (bd_bb, BD_SQUARES, BD_THRONE, BD_CORNERS) are in
 * brandubh.h. */
#ifndef BD_BITBOARD_H
#define BD_BITBOARD_H

#include <stdint.h>
#include "core.h"
#include "tables.h"

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

#define BD_ALL     0x1ffffffffffffULL
#define BD_EDGE    0x1fe0c183060ffULL
#define BD_THRONE_BB (1ULL << BD_THRONE)
/* Where a soldier (an attacker or a defender) may end a move: anywhere but
 * the corners and the throne. The one mask for that rule, wherever moves are
 * made, counted or checked; a slide may still pass the throne (throne_pass,
 * bd_blockers). The king's own squares depend on the variant
 * (throne_reentry): bd_king_targets. */
#define BD_SOLDIER_STOPS (BD_ALL & ~(BD_CORNERS | BD_THRONE_BB))
#define BD_FILE_A  0x40810204081ULL
#define BD_FILE_MAGIC 0x41041041040ULL
/* Bitboard shifts by one square, with wrap-around between ranks masked. */
#define BD_NOT_FILE_A (BD_ALL & ~BD_FILE_A)
#define BD_NOT_FILE_G (BD_ALL & ~(BD_FILE_A << 6))

static inline bd_bb bd_bit(int sq) { return 1ULL << sq; }

/* The popcount instruction only where the build may assume it: ARM's
 * baseline has it, so has WebAssembly's (i64.popcnt: web/popcnt_wasm.c),
 * and csrc/popcnt_build.c compiles a second copy of the engine with
 * BD_HW_POPCOUNT for x86 processors that have it. Elsewhere (the portable
 * x86-64 build) the classic bit-parallel sum, which is faster than the
 * library call the compiler would make. */
static inline int bd_popcount(bd_bb b) {
#if defined(BD_HW_POPCOUNT) && defined(_MSC_VER) && !defined(__clang__)
    return (int)__popcnt64(b);
#elif defined(__POPCNT__) || defined(BD_HW_POPCOUNT) || defined(__aarch64__) || defined(__ARM_NEON) || defined(__wasm__)
    return __builtin_popcountll(b);
#else
    b = b - ((b >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((b * 0x0101010101010101ULL) >> 56);
#endif
}

/* The place of the k-th lowest set bit of b (k from 0, below its popcount),
 * with no loop and no branch: the bit-parallel count leaves each byte's
 * count in that byte; one multiplication turns them into running totals,
 * one subtraction compares all eight with k at once, and a table finishes
 * inside the byte. (The broadword select of Vigna's rank/select papers.) */
static inline int bd_select(bd_bb b, int k) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t s = b - ((b >> 1) & 0x5555555555555555ULL), running, at_most_k;
    int byte, before;
    s = (s & 0x3333333333333333ULL) + ((s >> 2) & 0x3333333333333333ULL);
    s = (s + (s >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    running = s * ones;     /* byte i: the set bits in bytes 0..i */
    /* A byte's high bit stays set where its running total is at most k:
     * totals are at most 64, so no byte borrows from the next. */
    at_most_k = (((uint64_t)k * ones | highs) - running) & highs;
    byte = (int)(((at_most_k >> 7) * ones) >> 56);   /* bytes wholly before */
    before = (int)(((running << 8) >> (8 * byte)) & 0xff);
    return 8 * byte + BD_SELECT_IN_BYTE[(b >> (8 * byte)) & 0xff][k - before];
}

/* Index of the lowest set bit; b must not be 0. */
static inline int bd_lsb(bd_bb b) {
#if defined(_MSC_VER) && !defined(__clang__)
    unsigned long i;
    _BitScanForward64(&i, b);
    return (int)i;
#else
    return __builtin_ctzll(b);
#endif
}

/* Index of the highest set bit; b must not be 0. */
static inline int bd_msb(bd_bb b) {
#if defined(_MSC_VER) && !defined(__clang__)
    unsigned long i;
    _BitScanReverse64(&i, b);
    return (int)i;
#else
    return 63 - __builtin_clzll(b);
#endif
}

static inline int bd_pop_lsb(bd_bb *b) {
    int sq = bd_lsb(*b);
    *b &= *b - 1;
    return sq;
}

/* The 7-bit occupancy of a square's rank and of its file. */
static inline unsigned bd_rank_occ(bd_bb occ, int rank) {
    return (unsigned)(occ >> (7 * rank)) & 127u;
}
static inline unsigned bd_file_occ(bd_bb occ, int file) {
    return (unsigned)((((occ >> file) & BD_FILE_A) * BD_FILE_MAGIC) >> 42) & 127u;
}

/* The empty squares a rook on `sq` reaches over the occupancy `occ`. The
 * rank and the file are each looked up in a 7-bit table: the rank's bits
 * are contiguous; the file's are gathered by one multiplication. */
static inline bd_bb bd_slides(int sq, bd_bb occ) {
    int file = BD_FILE_OF[sq], rank = BD_RANK_OF[sq];
    bd_bb along_rank = (bd_bb)BD_SLIDE[file][bd_rank_occ(occ, rank)] << (7 * rank);
    bd_bb along_file = BD_SPREAD[BD_SLIDE[rank][bd_file_occ(occ, file)]] << file;
    return along_rank | along_file;
}

/* Where a set of rooks slides, direction by direction, over the empty squares
 * `empty` (no rook stands on one): each square of out[d] is reached in
 * direction d (enum bd_dir) by exactly one of them (the nearest behind it),
 * so out[d] holds as many moves as squares.
 *
 * East, towards the higher bits, by one addition: a 1 added at the first
 * square of each run of empty squares that a rook starts carries through
 * the whole run and clears it (the run stops at file a, left out of the
 * empty squares, and a carry spent there reaches no further). The other
 * three by occluded fills, doubling (Kogge-Stone); the masks keep a slide
 * on its rank. (The addition is 7 instructions where the fill was 25.) */
static inline void bd_slide_sets(bd_bb rooks, bd_bb empty, bd_bb out[BD_DIRECTIONS]) {
    bd_bb gen, pro, runs = empty & BD_NOT_FILE_A;
    const bd_bb not_g = BD_NOT_FILE_G;
    out[BD_EAST] = runs & ~(runs + ((rooks << 1) & runs));
    gen = rooks; pro = empty & not_g;
    gen |= pro & (gen >> 1); pro &= pro >> 1;
    gen |= pro & (gen >> 2); pro &= pro >> 2;
    gen |= pro & (gen >> 4);
    out[BD_WEST] = (gen >> 1) & empty & not_g;
    gen = rooks; pro = empty;
    gen |= pro & (gen << 7); pro &= pro << 7;
    gen |= pro & (gen << 14); pro &= pro << 14;
    gen |= pro & (gen << 28);
    out[BD_NORTH] = (gen << 7) & empty;
    gen = rooks; pro = empty;
    gen |= pro & (gen >> 7); pro &= pro >> 7;
    gen |= pro & (gen >> 14); pro &= pro >> 14;
    gen |= pro & (gen >> 28);
    out[BD_SOUTH] = (gen >> 7) & empty;
}

/* All the squares of the four sets. */
static inline bd_bb bd_slide_union(const bd_bb sets[BD_DIRECTIONS]) {
    return sets[BD_EAST] | sets[BD_WEST] | sets[BD_NORTH] | sets[BD_SOUTH];
}

/* The piece of `pieces` that slid to `to` in direction d, as bd_slide_sets
 * found it: the nearest one behind `to` (every square between them is
 * empty, or it could not have slid). Behind an even direction (east, north)
 * lie lower squares, so the highest piece there; behind an odd one (west,
 * south) the lowest. Both are found and one is kept, with no branch: d is
 * as good as random in the playouts, and a branch on it was guessed wrong
 * about once a move. */
static inline int bd_slid_from(bd_bb pieces, int to, int d) {
    bd_bb behind = pieces & BD_BEHIND[d][to];
    int below = bd_msb(behind | 1), above = bd_lsb(behind | (1ULL << 63)), odd = -(d & 1);
    return (above & odd) | (below & ~odd);
}

/* Every square one orthogonal step from a square of b. */
static inline bd_bb bd_grow(bd_bb b) {
    return b | ((b << 1) & BD_NOT_FILE_A) | ((b >> 1) & BD_NOT_FILE_G) |
           ((b << 7) & BD_ALL) | (b >> 7);
}

#endif

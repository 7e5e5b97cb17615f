/* The engine built a second time for processors with the popcount
 * instruction, chosen at run time.
 *
 * What ships must run on every x86-64, whose baseline has no popcount; the
 * bit-parallel count it falls back on is a dozen instructions where the
 * instruction is one (counted with callgrind: the popcount build runs 20%
 * fewer instructions in the playouts and in bulk perft, 13% fewer in the
 * search). So the hot entry points exist twice:
 * the portable ones (bd_perft, bd_divide, bd_playouts, bd_search) and the
 * same code compiled here for popcount under the names bd_popcnt_*. Python
 * asks bd_cpu_has_popcnt() once and calls one set or the other
 * (brandubh/kernels.py). Both give the same answers, node for node: a test
 * compares them.
 *
 * How: every engine source is included below with its external names
 * renamed, after a pragma that lets the compiler use the instruction. A name
 * forgotten in the list below is defined twice, and the link fails: nothing
 * can go stale silently. The constant tables are shared, not renamed, and so
 * are engine.c's handles and accessors (compiled once: the two builds lay
 * positions and games out alike). engine.h, which declares bd_popcnt_perft
 * and the three others, is included by the sources below with the names
 * renamed: it then declares each of them twice, under its own name and
 * renamed from bd_perft..., so the compiler checks the definitions against
 * the interface.
 * Elsewhere than x86 (ARM has the instruction in its baseline) and on
 * compilers without the pragma the second copy is the same code, and
 * bd_cpu_has_popcnt() says 0. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

#include "tables.h"

int bd_cpu_has_popcnt(void) {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") != 0;
#elif defined(_MSC_VER) && defined(_M_X64)
    int info[4];
    __cpuid(info, 1);
    return (info[2] >> 23) & 1;   /* CPUID.1:ECX bit 23 is POPCNT */
#else
    return 0;
#endif
}

#if (defined(__x86_64__) || defined(__i386__)) && defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt"))), apply_to = function)
#define BD_HW_POPCOUNT 1
#define BD_POPCNT_PUSHED 1
#elif (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#pragma GCC target("popcnt")
#define BD_HW_POPCOUNT 1
#elif defined(_MSC_VER) && defined(_M_X64)
#define BD_HW_POPCOUNT 1   /* __popcnt64 needs no compiler switch */
#endif

#define bd_block_squares bd_popcnt_block_squares
#define bd_capture_lines bd_popcnt_capture_lines
#define bd_count_moves bd_popcnt_count_moves
#define bd_default_weights bd_popcnt_default_weights
#define bd_divide bd_popcnt_divide
#define bd_encircled bd_popcnt_encircled
#define bd_evaluate bd_popcnt_evaluate
#define bd_evaluate_with bd_popcnt_evaluate_with
#define bd_game_clone bd_popcnt_game_clone
#define bd_game_free bd_popcnt_game_free
#define bd_game_judge bd_popcnt_game_judge
#define bd_game_legal bd_popcnt_game_legal
#define bd_game_moves bd_popcnt_game_moves
#define bd_game_new bd_popcnt_game_new
#define bd_game_play bd_popcnt_game_play
#define bd_game_push bd_popcnt_game_push
#define bd_game_push_reach bd_popcnt_game_push_reach
#define bd_game_repeats bd_popcnt_game_repeats
#define bd_game_reserve bd_popcnt_game_reserve
#define bd_game_undo bd_popcnt_game_undo
#define bd_gen_moves bd_popcnt_gen_moves
#define bd_has_move_slow bd_popcnt_has_move_slow
#define bd_judge_start bd_popcnt_judge_start
#define bd_order_keys bd_popcnt_order_keys
#define bd_perft bd_popcnt_perft
#define bd_picker_init bd_popcnt_picker_init
#define bd_picker_next bd_popcnt_picker_next
#define bd_picker_init_captures bd_popcnt_picker_init_captures
#define bd_picker_init_evasions bd_popcnt_picker_init_evasions
#define bd_piece_at bd_popcnt_piece_at
#define bd_playouts bd_popcnt_playouts
#define bd_pos_capture bd_popcnt_pos_capture
#define bd_pos_captures bd_popcnt_pos_captures
#define bd_pos_from_string bd_popcnt_pos_from_string
#define bd_pos_rekey bd_popcnt_pos_rekey
#define bd_pos_to_string bd_popcnt_pos_to_string
#define bd_search bd_popcnt_search
#define bd_king_takers bd_popcnt_king_takers
#define bd_targets bd_popcnt_targets
#define bd_tt_free bd_popcnt_tt_free
#define bd_tt_init bd_popcnt_tt_init
#define bd_why_not bd_popcnt_why_not

#include "position.c"
#include "movegen.c"
#include "game.c"
#include "perft.c"
#include "playout.c"
#include "eval.c"
#include "tt.c"
#include "movepick.c"
#include "search.c"

#ifdef BD_POPCNT_PUSHED
#pragma clang attribute pop
#endif

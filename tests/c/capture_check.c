/* The shortcuts the search takes to know what a move captures, checked
 * against playing the move out (bd_pos_captures), on random placements under
 * random rule sets, every legal move of each:
 *
 *   - a move that bd_may_capture rules out captures nothing;
 *   - a soldier or an armed king captures as many soldiers as
 *     bd_capture_lines says, wherever it leaves from (the throne and the
 *     corners included: a third of the positions have the king on the
 *     throne, and any piece may stand on a corner);
 *   - an attacker arriving beside the king takes him exactly when
 *     bd_king_takers says so, under each of the four king_capture modes
 *     (the king on the throne, beside it, on the edge, in the open).
 *
 * Built and run by tests/test_capture_shortcuts.py. Prints "ok" and the
 * number of moves checked, or the first disagreement. */
#include <stdio.h>

/* The engine's insides (the layout of a position, the inline shortcuts),
 * not only its interface: this driver checks them. */
#include "movegen.h"

static uint64_t next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int below(uint64_t *s, int n) { return (int)(next(s) % (uint64_t)n); }

/* A random placement: any piece may stand anywhere, the throne and the
 * corners included; sometimes no king. */
static void random_position(uint64_t *s, bd_pos *p) {
    int i, sq;
    bd_bb used = 0;
    p->att = p->dfn = 0;
    p->king = BD_NONE;
    for (i = below(s, 9); i > 0; i--) {
        sq = below(s, BD_SQUARES);
        if (!(used & bd_bit(sq))) { p->att |= bd_bit(sq); used |= bd_bit(sq); }
    }
    for (i = below(s, 5); i > 0; i--) {
        sq = below(s, BD_SQUARES);
        if (!(used & bd_bit(sq))) { p->dfn |= bd_bit(sq); used |= bd_bit(sq); }
    }
    if (below(s, 10)) {
        sq = below(s, 3) ? below(s, BD_SQUARES) : BD_THRONE;
        if (!(used & bd_bit(sq))) p->king = (int8_t)sq;
    }
    p->side = (uint8_t)below(s, 2);
    bd_pos_rekey(p);
}

static void random_variant(uint64_t *s, bd_variant *v) {
    v->escape = below(s, 2);
    v->throne_pass = below(s, 2);
    v->throne_reentry = below(s, 2);
    v->throne_hostile = below(s, 2);
    v->king_armed = below(s, 2);
    v->king_capture = below(s, 4);
    v->encirclement = below(s, 2);
    v->no_pieces = below(s, 2);
    v->no_move = below(s, 2);
    v->repetition = below(s, 2);
    v->repeat = 3;
    v->repeat_counts_start = 1;
    v->ply_cap = 400;
    v->quiet_cap = 0;
}

int main(void) {
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    long checked = 0, beside_king = 0, counted = 0, odd = 0;
    int round, i;
    for (round = 0; round < 200000; round++) {
        bd_variant v;
        bd_pos p;
        bd_move moves[BD_MAX_MOVES];
        bd_bb lines[BD_DIRECTIONS], reach, takers;
        int n;
        random_variant(&rng, &v);
        random_position(&rng, &p);
        reach = bd_capture_reach_lines(&v, &p, lines, &takers);
        n = bd_gen_moves(&v, &p, moves);
        for (i = 0; i < n; i++) {
            bd_move m = moves[i];
            int from = BD_FROM(m), to = BD_TO(m);
            bd_bb taken = bd_pos_captures(&v, &p, m), soldiers = taken & ~bd_king_bb(&p);
            char text[BD_POS_TEXT_MAX];
            checked++;
            if (!bd_may_capture(reach, m) && taken) {
                bd_pos_to_string(&p, text);
                printf("ruled out, but captures: %s move %d-%d (round %d)\n", text, from, to, round);
                return 1;
            }
            if (!(from == p.king && !v.king_armed)) {
                int k = (int)(((lines[BD_EAST] >> to) & 1) + ((lines[BD_WEST] >> to) & 1) +
                              ((lines[BD_NORTH] >> to) & 1) + ((lines[BD_SOUTH] >> to) & 1));
                counted++;
                odd += (bd_bit(from) & (BD_CORNERS | BD_THRONE_BB)) != 0;
                if (k != bd_popcount(soldiers)) {
                    bd_pos_to_string(&p, text);
                    printf("lines count %d, played out %d: %s move %d-%d (round %d)\n", k,
                           bd_popcount(soldiers), text, from, to, round);
                    return 1;
                }
            }
            if (p.side == BD_ATTACKERS && p.king != BD_NONE && (BD_ADJACENT[p.king] & bd_bit(to))) {
                beside_king++;
                if (((takers & bd_bit(to)) != 0) != ((taken & bd_king_bb(&p)) != 0)) {
                    bd_pos_to_string(&p, text);
                    printf("king_takers wrong: %s move %d-%d (round %d)\n", text, from, to, round);
                    return 1;
                }
            }
        }
    }
    printf("ok %ld moves, %ld counted from the lines (%ld leaving the throne or a corner), %ld beside the king\n",
           checked, counted, odd, beside_king);
    return 0;
}

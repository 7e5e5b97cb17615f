#include "position.h"

#include <string.h>

int bd_piece_at(const bd_pos *p, int sq) {
    bd_bb b = bd_bit(sq);
    if (p->att & b) return BD_ATTACKER;
    if (p->dfn & b) return BD_DEFENDER;
    if (p->king == sq) return BD_KING;
    return BD_EMPTY;
}

void bd_pos_rekey(bd_pos *p) {
    uint64_t key = p->side == BD_DEFENDERS ? BD_ZOBRIST_SIDE : 0;
    bd_bb b;
    for (b = p->att; b;) key ^= BD_ZOBRIST[0][bd_pop_lsb(&b)];
    for (b = p->dfn; b;) key ^= BD_ZOBRIST[1][bd_pop_lsb(&b)];
    if (p->king != BD_NONE) key ^= BD_ZOBRIST[2][p->king];
    p->key = key;
}

int bd_pos_from_string(const char *text, bd_pos *out) {
    bd_pos p;
    int kings = 0, rank, i = 0;
    memset(&p, 0, sizeof p);
    p.king = BD_NONE;
    for (rank = 6; rank >= 0; rank--) {
        int file = 0;
        while (file < 7) {
            char c = text[i++];
            if (c >= '1' && c <= '7') {
                file += c - '0';
                if (file > 7) return BD_POS_BAD_TEXT;
                continue;
            }
            if (c == 'a') p.att |= bd_bit(rank * 7 + file);
            else if (c == 'd') p.dfn |= bd_bit(rank * 7 + file);
            else if (c == 'k') { p.king = (int8_t)(rank * 7 + file); kings++; }
            else return BD_POS_BAD_TEXT;
            file++;
        }
        if (rank > 0 && text[i++] != '/') return BD_POS_BAD_TEXT;
    }
    if (text[i++] != ' ') return BD_POS_BAD_TEXT;
    if (text[i] == 'a') p.side = BD_ATTACKERS;
    else if (text[i] == 'd') p.side = BD_DEFENDERS;
    else return BD_POS_BAD_TEXT;
    if (text[i + 1] != '\0') return BD_POS_BAD_TEXT;
    if (kings > 1) return BD_POS_TWO_KINGS;
    bd_pos_rekey(&p);
    *out = p;
    return BD_POS_OK;
}

void bd_pos_to_string(const bd_pos *p, char *out) {
    static const char letter[4] = {0, 'a', 'd', 'k'};
    int rank, file, n = 0;
    for (rank = 6; rank >= 0; rank--) {
        int run = 0;
        for (file = 0; file < 7; file++) {
            int piece = bd_piece_at(p, rank * 7 + file);
            if (piece == BD_EMPTY) { run++; continue; }
            if (run) { out[n++] = (char)('0' + run); run = 0; }
            out[n++] = letter[piece];
        }
        if (run) out[n++] = (char)('0' + run);
        if (rank) out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = p->side == BD_ATTACKERS ? 'a' : 'd';
    out[n] = '\0';
}

/* Squares hostile to an attacker and to a defender, for the far side of a
 * custodial capture. An empty corner is hostile to both; the empty throne to
 * both when throne_hostile; the king only when armed, and never to his own. */
static bd_bb hostile_to_attackers(const bd_variant *v, const bd_pos *p, bd_bb empty) {
    bd_bb h = p->dfn | (BD_CORNERS & empty);
    if (v->king_armed) h |= bd_king_bb(p);
    if (v->throne_hostile) h |= BD_THRONE_BB & empty;
    return h;
}
static bd_bb hostile_to_defenders(const bd_variant *v, const bd_pos *p, bd_bb empty) {
    bd_bb h = p->att | (BD_CORNERS & empty);
    if (v->throne_hostile) h |= BD_THRONE_BB & empty;
    return h;
}

/* Is the king taken by an attacker that has just reached `to`, the king the
 * next square from it in direction `dir` (enum bd_dir)? p is the position
 * after the slide. */
static int king_taken(const bd_variant *v, const bd_pos *p, int to, int dir, bd_bb empty) {
    bd_bb around = BD_ADJACENT[p->king], att = p->att;
    bd_bb far = BD_FAR[to][dir] == BD_NONE ? 0 : bd_bit(BD_FAR[to][dir]);
    /* As any piece: the mover and an attacker or an empty corner opposite. */
    int as_any_piece = (far & (att | (BD_CORNERS & empty))) != 0;
    switch (v->king_capture) {
    case BD_KING_NIELSEN:
        if (p->king == BD_THRONE) return (around & ~att) == 0;
        /* Beside the throne: the three other sides, and the throne empty. */
        if (around & BD_THRONE_BB)
            return (empty & BD_THRONE_BB) && (around & ~BD_THRONE_BB & ~att) == 0;
        return as_any_piece;
    case BD_KING_TWO:
        return (far & hostile_to_defenders(v, p, empty)) != 0;
    case BD_KING_FOUR_TWO:
        if (p->king == BD_THRONE) return (around & ~att) == 0;
        return as_any_piece;
    default: /* BD_KING_FOUR: every side closed; on the edge a side is open. */
        return !(bd_bit(p->king) & BD_EDGE) && (around & ~(att | (BD_THRONE_BB & empty))) == 0;
    }
}

/* Of the candidates beside `at`, those with a hostile square beyond them on
 * the same line, all four directions at once. The masks stop a shift from
 * wrapping from one rank to the next. */
static inline bd_bb closed_against(bd_bb at, bd_bb candidates, bd_bb hostile) {
    return candidates & (((at << 1) & ((hostile & ~BD_FILE_A) >> 1)) |
                         ((at >> 1) & ((hostile & ~(BD_FILE_A << 6)) << 1)) |
                         ((at << 7) & (hostile >> 7)) |
                         ((at >> 7) & (hostile << 7)));
}

/* Squares captured by the piece now on `to`, in position p (after the slide,
 * before anything is removed). */
static bd_bb captures_at(const bd_variant *v, const bd_pos *p, int to, int *king_gone) {
    bd_bb empty = BD_ALL & ~bd_occupied(p), at = bd_bit(to), taken;
    int dir;
    *king_gone = 0;
    if (p->side == BD_DEFENDERS) {
        if (to == p->king && !v->king_armed) return 0;
        return closed_against(at, BD_ADJACENT[to] & p->att, hostile_to_attackers(v, p, empty));
    }
    taken = closed_against(at, BD_ADJACENT[to] & p->dfn, hostile_to_defenders(v, p, empty));
    if (p->king != BD_NONE && (BD_ADJACENT[to] & bd_bit(p->king))) {
        for (dir = BD_EAST; BD_NEAR[to][dir] != p->king; dir++) {
        }
        if (king_taken(v, p, to, dir, empty)) {
            *king_gone = 1;
            taken |= bd_bit(p->king);
        }
    }
    return taken;
}

/* One step in each direction, with the masks that keep a step on its rank. */
static inline bd_bb step_east(bd_bb b) { return (b << 1) & ~BD_FILE_A & BD_ALL; }
static inline bd_bb step_west(bd_bb b) { return (b >> 1) & ~(BD_FILE_A << 6); }
static inline bd_bb step_north(bd_bb b) { return (b << 7) & BD_ALL; }
static inline bd_bb step_south(bd_bb b) { return b >> 7; }

bd_bb bd_capture_lines(const bd_variant *v, const bd_pos *p, bd_bb lines[BD_DIRECTIONS]) {
    bd_bb empty = BD_ALL & ~bd_occupied(p), victims, hostile;
    if (p->side == BD_ATTACKERS) {
        victims = p->dfn;
        hostile = hostile_to_defenders(v, p, empty);
    } else {
        victims = p->att;
        hostile = hostile_to_attackers(v, p, empty);
    }
    /* A victim with a hostile square beyond it, seen from the square before
     * it: lines[d] holds the squares whose victim is the next square in
     * direction d, so each is two steps back from its hostile square. */
    lines[BD_EAST] = step_west(victims & step_west(hostile)) & empty;
    lines[BD_WEST] = step_east(victims & step_east(hostile)) & empty;
    lines[BD_NORTH] = step_south(victims & step_south(hostile)) & empty;
    lines[BD_SOUTH] = step_north(victims & step_north(hostile)) & empty;
    return lines[BD_EAST] | lines[BD_WEST] | lines[BD_NORTH] | lines[BD_SOUTH];
}

void bd_pos_capture(const bd_variant *v, bd_pos *p, int to, bd_report *r) {
    int king_gone;
    bd_bb taken = captures_at(v, p, to, &king_gone), b;
    if (!taken) return;
    if (king_gone) {
        p->key ^= BD_ZOBRIST[2][p->king];
        p->king = BD_NONE;
        r->flags |= BD_DID_KING_TAKEN;
    }
    if (p->side == BD_ATTACKERS) {
        for (b = taken & p->dfn; b;) p->key ^= BD_ZOBRIST[1][bd_pop_lsb(&b)];
        p->dfn &= ~taken;
    } else {
        for (b = taken; b;) p->key ^= BD_ZOBRIST[0][bd_pop_lsb(&b)];
        p->att &= ~taken;
    }
    r->captured = taken;
}

/* The one piece of `missing` when it has exactly one, else nothing: the last
 * side the king's captors still have to close. */
static inline bd_bb last_gap(bd_bb missing) { return missing & (missing - 1) ? 0 : missing; }

/* The squares beside the king whose opposite neighbour, across the king, is
 * in `far`: where an attacker arriving holds him between itself and it. */
static bd_bb across_king(int king, bd_bb far) {
    int file = BD_FILE_OF[king], rank = BD_RANK_OF[king];
    bd_bb t = 0;
    if (file > 0 && file < 6)
        t |= ((far & bd_bit(king + 1)) >> 2) | ((far & bd_bit(king - 1)) << 2);
    if (rank > 0 && rank < 6)
        t |= ((far & bd_bit(king + 7)) >> 14) | ((far & bd_bit(king - 7)) << 14);
    return t;
}

/* king_taken for every empty square beside the king at once, with the
 * attackers to move; the square an attacker leaves plays no part (it is
 * never beside the king, nor across him, nor the throne he is beside: a
 * slide from there to beside him would pass through him). Checked against
 * king_taken by tests/c/capture_check.c. */
bd_bb bd_king_takers(const bd_variant *v, const bd_pos *p) {
    bd_bb empty, around, open, att = p->att;
    int k = p->king;
    if (p->side != BD_ATTACKERS || k == BD_NONE) return 0;
    empty = BD_ALL & ~bd_occupied(p);
    around = BD_ADJACENT[k];
    open = around & empty;
    switch (v->king_capture) {
    case BD_KING_NIELSEN:
        if (k == BD_THRONE) return last_gap(around & ~att) & open;
        if (around & BD_THRONE_BB)
            return (empty & BD_THRONE_BB) ? last_gap(around & ~BD_THRONE_BB & ~att) & open : 0;
        return across_king(k, att | (BD_CORNERS & empty)) & open;
    case BD_KING_TWO:
        return across_king(k, hostile_to_defenders(v, p, empty)) & open;
    case BD_KING_FOUR_TWO:
        if (k == BD_THRONE) return last_gap(around & ~att) & open;
        return across_king(k, att | (BD_CORNERS & empty)) & open;
    default: /* BD_KING_FOUR */
        if (bd_bit(k) & BD_EDGE) return 0;
        return last_gap(around & ~(att | (BD_THRONE_BB & empty))) & open;
    }
}

bd_bb bd_pos_captures(const bd_variant *v, const bd_pos *p, bd_move m) {
    bd_pos copy = *p;
    return bd_pos_make(v, &copy, m, BD_MAKE_CAPTURES | BD_MAKE_IF_BESIDE).captured;
}

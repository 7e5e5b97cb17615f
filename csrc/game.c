#include "game.h"

#include <stdlib.h>
#include <string.h>

/* A position's bit in bd_entry.seen. */
static inline uint64_t seen_bit(uint64_t key) { return 1ULL << (key >> 58); }

int bd_encircled(const bd_pos *p) {
    bd_bb open = BD_ALL & ~p->att;
    /* A defender or the king on the edge is not shut in: the usual case. */
    if ((p->dfn | bd_king_bb(p)) & BD_EDGE) return 0;
    bd_bb reach = BD_EDGE & open, grown;
    /* Flood inwards from the edge: at most 24 steps reach the middle. */
    for (;;) {
        grown = bd_grow(reach) & open;
        if (grown == reach) break;
        reach = grown;
    }
    return (reach & (p->dfn | bd_king_bb(p))) == 0;
}

int bd_judge_start(const bd_variant *v, const bd_pos *p, int *winner) {
    *winner = BD_NOBODY;
    if (p->king == BD_NONE) { *winner = BD_ATTACKERS; return BD_BY_CAPTURE; }
    if (bd_escapes(v) & bd_bit(p->king)) { *winner = BD_DEFENDERS; return BD_BY_CORNER; }
    if (v->no_pieces && !p->att) { *winner = BD_DEFENDERS; return BD_BY_NO_PIECES; }
    if (!bd_has_move(v, p)) {
        if (v->no_move == BD_END_LOSS) *winner = p->side ^ 1;
        return BD_BY_NO_MOVE;
    }
    return BD_ONGOING;
}

int bd_game_reserve(bd_game *g, int plies) {
    int need = g->ply + 1 + plies, cap = g->capacity;
    bd_entry *grown;
    if (need <= cap) return 0;
    while (cap < need) cap = cap ? cap * 2 : 64;
    grown = (bd_entry *)realloc(g->hist, (size_t)cap * sizeof *grown);
    if (!grown) return -1;
    g->hist = grown;
    g->capacity = cap;
    return 0;
}

bd_game *bd_game_new(const bd_variant *v, const bd_pos *start) {
    bd_game *g = (bd_game *)calloc(1, sizeof *g);
    if (!g) return NULL;
    g->v = *v;
    if (bd_game_reserve(g, 63) != 0) { free(g); return NULL; }
    memset(&g->hist[0], 0, sizeof g->hist[0]);
    g->hist[0].pos = *start;
    g->hist[0].seen = seen_bit(start->key);
    g->start_outcome = bd_judge_start(v, start, &g->start_winner);
    g->outcome = g->start_outcome;
    g->winner = g->start_winner;
    return g;
}

bd_game *bd_game_clone(const bd_game *g) {
    bd_game *c = (bd_game *)malloc(sizeof *c);
    if (!c) return NULL;
    *c = *g;
    c->hist = (bd_entry *)malloc((size_t)g->capacity * sizeof *c->hist);
    if (!c->hist) { free(c); return NULL; }
    memcpy(c->hist, g->hist, (size_t)(g->ply + 1) * sizeof *c->hist);
    return c;
}

void bd_game_free(bd_game *g) {
    if (!g) return;
    free(g->hist);
    free(g);
}

/* Occurrences of the position at `ply`, as the repetition rule counts them.
 * Only positions since the last capture can match it (a capture cannot be
 * undone), only every second one has the same side to move, and the one two
 * plies back never matches (each side has moved a piece since). */
static int repeats_at(const bd_game *g, int ply) {
    const bd_pos *now = &g->hist[ply].pos;
    int first = g->v.repeat_counts_start ? 0 : 1;
    int oldest = ply - g->hist[ply].quiet, i, n = 1;
    if (ply == 0 || !(g->hist[ply - 1].seen & seen_bit(now->key))) return 1;
    if (oldest < first) oldest = first;
    for (i = ply - 4; i >= oldest; i -= 2) {
        const bd_pos *then = &g->hist[i].pos;
        if (then->key == now->key && then->att == now->att &&
            then->dfn == now->dfn && then->king == now->king)
            n++;
    }
    return n;
}

int bd_game_repeats(const bd_game *g) { return repeats_at(g, g->ply); }

bd_report bd_game_push(bd_game *g, bd_move m, int flags) {
    bd_entry *prev = &g->hist[g->ply], *next = prev + 1;
    bd_report r;
    next->pos = prev->pos;
    r = bd_pos_make(&g->v, &next->pos, m, flags | BD_MAKE_KEYED);
    next->captured = r.captured;
    next->move = m;
    next->flags = r.flags;
    next->quiet = (uint16_t)(r.captured ? 0 : prev->quiet + 1);
    next->seen = (r.captured ? 0 : prev->seen) | seen_bit(next->pos.key);
    g->ply++;
    return r;
}

void bd_game_judge(bd_game *g, int moves) {
    const bd_entry *now = &g->hist[g->ply];
    g->outcome = bd_judge(&g->v, &now->pos, now->flags, repeats_at(g, g->ply), g->ply,
                          now->quiet, moves, &g->winner);
}

int bd_game_play(bd_game *g, bd_move m, bd_report *report) {
    const bd_pos *now;
    bd_report r;
    int from = BD_FROM(m), to = BD_TO(m);
    if (g->outcome != BD_ONGOING) return BD_PLAY_OVER;
    now = &g->hist[g->ply].pos;
    if (from >= BD_SQUARES || to >= BD_SQUARES || !(bd_targets(&g->v, now, from) & bd_bit(to)))
        return BD_PLAY_ILLEGAL;
    if (bd_game_reserve(g, 1) != 0) return BD_PLAY_NO_MEMORY;
    r = bd_game_push(g, m, BD_MAKE_PLAY);
    bd_game_judge(g, -1);
    if (report) *report = r;
    return BD_PLAY_OK;
}

int bd_game_undo(bd_game *g) {
    if (g->ply == 0) return 0;
    g->ply--;
    if (g->ply == 0) {
        bd_game_rewind(g);
    } else {
        g->outcome = BD_ONGOING;
        g->winner = BD_NOBODY;
    }
    return 1;
}

void bd_game_rewind(bd_game *g) {
    g->ply = 0;
    g->outcome = g->start_outcome;
    g->winner = g->start_winner;
}

int bd_game_moves(const bd_game *g, bd_move *out) {
    if (g->outcome != BD_ONGOING) return 0;
    return bd_gen_moves(&g->v, &g->hist[g->ply].pos, out);
}

int bd_game_legal(bd_game *g, bd_move *moves, bd_bb *captured, int *outcome, int *winner) {
    int n = bd_game_moves(g, moves), i;
    if (n == 0) return 0;
    if (bd_game_reserve(g, 1) != 0) return -1;
    for (i = 0; i < n; i++) {
        captured[i] = bd_game_push(g, moves[i], BD_MAKE_PLAY).captured;
        bd_game_judge(g, -1);
        outcome[i] = g->outcome;
        winner[i] = g->winner;
        g->ply--;
        g->outcome = BD_ONGOING;
        g->winner = BD_NOBODY;
    }
    return n;
}

/* The interface's own functions (brandubh.h): positions as handles, and what a
 * position or a game record holds, read through functions, so that no caller
 * depends on their layout. None of them is on a hot path: each is one C
 * call from Python. Compiled once, shared by both builds
 * (popcnt_build.c). */
#include "game.h"

#include <stdlib.h>

/* ---- positions */

bd_pos *bd_pos_new(void) {
    bd_pos *p = (bd_pos *)calloc(1, sizeof *p);
    if (!p) return NULL;
    p->king = BD_NONE;
    p->side = BD_ATTACKERS;
    bd_pos_rekey(p);
    return p;
}

bd_pos *bd_pos_copy(const bd_pos *p) {
    bd_pos *c = (bd_pos *)malloc(sizeof *c);
    if (c) *c = *p;
    return c;
}

void bd_pos_free(bd_pos *p) { free(p); }

int bd_pos_side(const bd_pos *p) { return p->side; }

uint64_t bd_pos_key(const bd_pos *p) { return p->key; }

int bd_pos_count(const bd_pos *p, int piece) {
    switch (piece) {
    case BD_ATTACKER: return bd_popcount(p->att);
    case BD_DEFENDER: return bd_popcount(p->dfn);
    case BD_KING: return p->king != BD_NONE;
    default: return 0;
    }
}

bd_report bd_pos_move(const bd_variant *v, bd_pos *p, bd_move m) { return bd_pos_make(v, p, m, BD_MAKE_PLAY); }

/* ---- the game record */

bd_game *bd_game_from_string(const bd_variant *v, const char *text) {
    bd_pos start;
    if (bd_pos_from_string(text, &start) != BD_POS_OK) return NULL;
    return bd_game_new(v, &start);
}

int bd_game_ply(const bd_game *g) { return g->ply; }

int bd_game_outcome(const bd_game *g) { return g->outcome; }

int bd_game_winner(const bd_game *g) { return g->winner; }

int bd_game_side(const bd_game *g) { return g->hist[g->ply].pos.side; }

const bd_pos *bd_game_pos_at(const bd_game *g, int ply) {
    return ply >= 0 && ply <= g->ply ? &g->hist[ply].pos : NULL;
}

bd_move bd_game_move_at(const bd_game *g, int ply) {
    return ply >= 1 && ply <= g->ply ? g->hist[ply].move : 0;
}

bd_report bd_game_report_at(const bd_game *g, int ply) {
    bd_report r;
    r.captured = 0;
    r.flags = 0;
    if (ply >= 1 && ply <= g->ply) {
        r.captured = g->hist[ply].captured;
        r.flags = g->hist[ply].flags;
    }
    return r;
}

int bd_game_log(const bd_game *g, bd_move *out) {
    int i;
    for (i = 1; i <= g->ply; i++) out[i - 1] = g->hist[i].move;
    return g->ply;
}

bd_report bd_game_preview(const bd_game *g, bd_move m) {
    bd_pos copy = g->hist[g->ply].pos;
    return bd_pos_make(&g->v, &copy, m, BD_MAKE_PLAY);
}

/* Self-play for learning (brandubh.h, bd_selfplay): one game of the search
 * against itself after a few random moves, every searched position written
 * down with the search's score and then the game's result. One C call a
 * game, so that the caller pays Python's cost once a game, not once a
 * move. */
#include "eval.h"
#include "game.h"
#include "random.h"

#include <string.h>

/* What a sample says of its position beyond the pieces: whether the king
 * has an open line home, whether the side to move can capture. The
 * trainer may leave such positions out (their score is the search's
 * tactics, not the evaluation's). */
static int sample_flags(const bd_variant *v, const bd_pos *p) {
    bd_move moves[BD_MAX_MOVES];
    bd_bb reach = bd_capture_reach(v, p);
    int flags = 0, n, i;
    if (bd_king_lanes(v, p)) flags |= BD_SAMPLE_LANE;
    if (reach) {
        n = bd_gen_moves(v, p, moves);
        for (i = 0; i < n; i++)
            if (bd_pos_captures(v, p, moves[i])) {
                flags |= BD_SAMPLE_CAPTURE;
                break;
            }
    }
    return flags;
}

int bd_selfplay(const bd_variant *v, const bd_pos *start, uint64_t seed, int random_plies,
                const bd_search_limits *limits, const bd_weights *w, int popcnt, int tag,
                bd_sample *out, int max) {
    bd_game *g = bd_game_new(v, start);
    bd_search_limits mine = *limits;
    bd_search_result found;
    bd_move moves[BD_MAX_MOVES];
    uint64_t rng = seed;
    int written = 0, i, result;
    if (!g) return -1;
    /* 1. The opening: random moves, for games unlike each other. */
    while (g->outcome == BD_ONGOING && g->ply < random_plies) {
        int n = bd_game_moves(g, moves);
        if (n == 0 || bd_game_play(g, moves[bd_random_below(bd_random_next(&rng), n)], NULL) != BD_PLAY_OK)
            break;
    }
    /* 2. The search's move at every turn, each position written down. */
    while (g->outcome == BD_ONGOING && written < max) {
        const bd_pos *p = &g->hist[g->ply].pos;
        bd_sample *s = &out[written];
        int code;
        mine.seed = limits->seed + (uint32_t)g->ply;
        code = popcnt ? bd_popcnt_search(g, &mine, w, &found) : bd_search(g, &mine, w, &found);
        if (code < 0) { bd_game_free(g); return -1; }
        if (code != 0 || found.move == 0) break;
        memset(s, 0, sizeof *s);
        s->att = p->att;
        s->dfn = p->dfn;
        s->king = p->king;
        s->side = p->side;
        s->ply = (uint16_t)g->ply;
        s->score = (int16_t)(p->side == BD_ATTACKERS ? found.score : -found.score);
        s->flags = (uint8_t)(sample_flags(v, p) | (found.score > BD_WIN || found.score < -BD_WIN ? BD_SAMPLE_MATE : 0) |
                             ((tag & 15) << 4));
        written++;
        if (bd_game_play(g, found.move, NULL) != BD_PLAY_OK) { bd_game_free(g); return -1; }
    }
    /* 3. The result, into every sample of the game. */
    result = g->winner == BD_ATTACKERS ? 1 : g->winner == BD_DEFENDERS ? -1 : 0;
    for (i = 0; i < written; i++) out[i].result = (int8_t)result;
    bd_game_free(g);
    return written;
}

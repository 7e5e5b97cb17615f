/* The encodings for learning programs: action numbers and observation
 * planes (brandubh.h, docs/rl.md). The moves themselves come from movegen.c
 * and the repetition count from the game record: nothing here knows a rule,
 * it only writes down what those say. */
#include "encode.h"
#include "game.h"

#include <string.h>

/* Squares per step in each direction (enum bd_dir: east, west, north, south). */
static const int STEP[BD_DIRECTIONS] = {1, -1, 7, -7};

/* The action of a slide known to run along a rank or a file. */
static int slide_action(int from, int to) {
    int dir, distance;
    if (BD_RANK_OF[from] == BD_RANK_OF[to]) {
        dir = to > from ? BD_EAST : BD_WEST;
        distance = to > from ? to - from : from - to;
    } else {
        dir = to > from ? BD_NORTH : BD_SOUTH;
        distance = (to > from ? to - from : from - to) / 7;
    }
    return from * BD_ACTION_PER_SQUARE + dir * BD_ACTION_DISTANCES + distance - 1;
}

bd_move bd_action_move(int action) {
    int from, dir, distance, file, rank;
    if (action < 0 || action >= BD_ACTIONS) return 0;
    from = action / BD_ACTION_PER_SQUARE;
    dir = action / BD_ACTION_DISTANCES % BD_DIRECTIONS;
    distance = action % BD_ACTION_DISTANCES + 1;
    file = BD_FILE_OF[from] + (dir == BD_EAST ? distance : dir == BD_WEST ? -distance : 0);
    rank = BD_RANK_OF[from] + (dir == BD_NORTH ? distance : dir == BD_SOUTH ? -distance : 0);
    if (file < 0 || file > 6 || rank < 0 || rank > 6) return 0;
    return BD_MOVE(from, from + STEP[dir] * distance);
}

int bd_move_action(bd_move m) {
    int from = BD_FROM(m), to = BD_TO(m);
    if (from >= BD_SQUARES || to >= BD_SQUARES || from == to) return -1;
    if (BD_RANK_OF[from] != BD_RANK_OF[to] && BD_FILE_OF[from] != BD_FILE_OF[to]) return -1;
    return slide_action(from, to);
}

/* 1 in plane[s] for every square s of b. */
static inline void mark(uint8_t *plane, bd_bb b) {
    while (b) plane[bd_pop_lsb(&b)] = 1;
}

void bd_observe(const bd_game *g, int side, uint8_t *planes) {
    const bd_pos *p = &g->hist[g->ply].pos;
    bd_bb defenders = p->dfn | bd_king_bb(p);
    int repeats = bd_game_repeats(g);
    memset(planes, 0, (size_t)BD_PLANES * BD_SQUARES);
    mark(planes + BD_PLANE_OWN * BD_SQUARES, side == BD_ATTACKERS ? p->att : defenders);
    mark(planes + BD_PLANE_ENEMY * BD_SQUARES, side == BD_ATTACKERS ? defenders : p->att);
    mark(planes + BD_PLANE_KING * BD_SQUARES, bd_king_bb(p));
    planes[BD_PLANE_THRONE * BD_SQUARES + BD_THRONE] = 1;
    mark(planes + BD_PLANE_CORNERS * BD_SQUARES, BD_CORNERS);
    if (p->side == BD_DEFENDERS) memset(planes + BD_PLANE_TO_MOVE * BD_SQUARES, 1, BD_SQUARES);
    memset(planes + BD_PLANE_REPEATS * BD_SQUARES, repeats > 255 ? 255 : repeats, BD_SQUARES);
}

int bd_action_mask(const bd_game *g, uint8_t *mask) {
    uint16_t actions[BD_MAX_MOVES];
    int n, i;
    memset(mask, 0, BD_ACTIONS);
    if (g->outcome != BD_ONGOING) return 0;
    n = bd_legal_actions(&g->v, &g->hist[g->ply].pos, actions);
    for (i = 0; i < n; i++) mask[actions[i]] = 1;
    return n;
}

#include "core.h"

static int is_bool(int x) { return x == 0 || x == 1; }

int bd_variant_normalize(bd_variant *v, int default_ply_cap) {
    if (!is_bool(v->throne_pass) || !is_bool(v->throne_reentry) ||
        !is_bool(v->throne_hostile) || !is_bool(v->king_armed) ||
        !is_bool(v->encirclement) || !is_bool(v->no_pieces) ||
        !is_bool(v->repeat_counts_start))
        return -1;
    if (v->escape != BD_ESCAPE_CORNER && v->escape != BD_ESCAPE_EDGE)
        return -1;
    if (v->king_capture < BD_KING_NIELSEN || v->king_capture > BD_KING_FOUR)
        return -1;
    if (!is_bool(v->no_move) || !is_bool(v->repetition))
        return -1;
    if (v->quiet_cap < 0 || v->quiet_cap > BD_MAX_PLY_CAP)
        return -1;
    if (default_ply_cap < 1 || default_ply_cap > BD_MAX_PLY_CAP)
        return -1;
    if (v->repeat < 2)
        v->repeat = 2;
    if (v->ply_cap < 1 || v->ply_cap > BD_MAX_PLY_CAP)
        v->ply_cap = default_ply_cap;
    return 0;
}

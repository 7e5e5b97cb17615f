/* A rule set: the fields of RULES.md, chosen at run time.
 *
 * Every function of the engine takes the variant it plays under, so one
 * process can play games under different rule sets at once. The Python layer
 * checks each field's range before a variant reaches C; bd_variant_normalize
 * applies RULES.md's own substitutions (repeat below 2, a ply cap out of
 * range). */
#ifndef BD_VARIANT_H
#define BD_VARIANT_H

#include <stdint.h>

enum { BD_ESCAPE_CORNER = 0, BD_ESCAPE_EDGE = 1 };
enum {
    BD_KING_NIELSEN = 0,
    BD_KING_TWO = 1,
    BD_KING_FOUR_TWO = 2,
    BD_KING_FOUR = 3
};
enum { BD_END_DRAW = 0, BD_END_LOSS = 1 };

typedef struct bd_variant {
    int escape;             /* BD_ESCAPE_* */
    int throne_pass;        /* 0/1 */
    int throne_reentry;
    int throne_hostile;
    int king_armed;
    int king_capture;       /* BD_KING_* */
    int encirclement;
    int no_pieces;
    int no_move;            /* BD_END_* */
    int repetition;         /* BD_END_* */
    int repeat;             /* >= 2 */
    int repeat_counts_start;
    int ply_cap;            /* 1..4096 */
    int quiet_cap;          /* 0..4096, 0 = off */
} bd_variant;

#define BD_MAX_PLY_CAP 4096

/* Clamp what RULES.md says to clamp; `default_ply_cap` is the preset's own
 * value, used when ply_cap is out of range. Returns 0, or -1 when a field
 * is outside the values it can take at all. */
int bd_variant_normalize(bd_variant *v, int default_ply_cap);

#endif

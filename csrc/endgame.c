/* Endgame tables by retrograde analysis (docs/proofs.md, "Endgame tables").
 *
 * A table holds every position with the king, `a` attackers and `d`
 * defenders (a material signature), with either side to move, up to the
 * board's eight symmetries. Its index: the king's square brought into the
 * triangle a1-d1-d4 by a symmetry (10 squares), then the attackers' squares
 * as a combination of the soldiers' squares (BD_SOLDIER_STOPS, the king's
 * left out), the defenders' as a combination of what is left, and the side
 * to move. When the king stands on a line of the triangle's own symmetry
 * (the diagonal, file d, rank 1... ) a position and its mirror image both
 * have an index: the one whose soldiers' sets are the smaller is the
 * table's, the other is no position (BD_EG_BYTE_NONE).
 *
 * The build, one signature at a time, the smaller ones first (a capture
 * leads into one of them, where the value is read):
 *   1. every position's moves are made with the engine's bd_pos_make and
 *      judged with its bd_judge (with no history: no repetition, no cap):
 *      a move that ends the game, or that captures (a smaller table), has a
 *      value now; the others lead into this table, and are counted (each
 *      position reached once, up to symmetry);
 *   2. level by level, k = 1, 2, ...: every position won or lost in k
 *      plies makes its predecessors (the moves that reach it, unmade piece
 *      by piece: predecessors()) won in k + 1 (it is lost) or one count
 *      nearer lost (it is won); a position whose count reaches 0 is lost
 *      in the longest way out, unless a way out draws;
 *   3. what is left is a draw: neither side can force the end.
 * Every core takes slices of the positions; the values do not depend on
 * which thread did what (a level sets only values of the next levels, and
 * the count reaches 0 once), so the result is the same on any number of
 * threads. */
#include "game.h"
#include "thread.h"

#include <stdlib.h>
#include <string.h>

/* Start loading a word that will be changed soon. */
static inline void bd_prefetch_write(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1);
#else
    (void)p;
#endif
}

/* An entry's byte (the format of the files too): 0 for an index that is no
 * position of the table (a mirror image of another, a position already
 * over), 1 a draw, 2 to 128 a win in 1 to 127 plies (the byte less 1), 129
 * to 255 a loss in 1 to 127 plies (the byte less 128). */
enum {
    BD_EG_BYTE_NONE = 0,
    BD_EG_BYTE_DRAW = 1,
    BD_EG_BYTE_WIN = 1,     /* + plies */
    BD_EG_BYTE_LOSS = 128,  /* + plies */
    BD_EG_MAX_PLIES = 127
};

/* Positions a thread claims at once. */
#define CHUNK 4096
/* The king's squares of the triangle, one per class up to symmetry. */
#define KING_CLASSES 10

struct bd_endgame {
    bd_variant v;
    uint8_t *data[BD_EG_MAX_SOLDIERS + 1][BD_EG_MAX_SOLDIERS + 1];
};

/* ---- The index. Tables built once: they depend on nothing but the board. */

static int ready;
static uint64_t binom[BD_SQUARES + 1][BD_EG_MAX_SOLDIERS + 1];
static int8_t sym[8][BD_SQUARES];          /* square -> its image */
static bd_bb sym_bit[8][BD_SQUARES];       /* square -> its image's bit */
static int8_t king_class[BD_SQUARES];      /* the triangle's squares: 0..9, else -1 */
static int8_t class_square[KING_CLASSES];
/* The soldiers' squares for each king class, numbered 0.. (the king's own
 * left out); how many; and the same squares as a set (the n-th is its n-th
 * lowest bit). */
static int8_t soldier_number[KING_CLASSES][BD_SQUARES];
static int soldier_squares[KING_CLASSES];
static bd_bb soldier_bb[KING_CLASSES];
/* Where each king class's positions begin in a table of each signature
 * (the last: the table's size). */
static uint64_t class_offset[BD_EG_MAX_SOLDIERS + 1][BD_EG_MAX_SOLDIERS + 1][KING_CLASSES + 1];
/* The symmetries that bring a king on each square into the triangle. */
static int8_t king_syms[BD_SQUARES][8];
static int8_t king_nsyms[BD_SQUARES];

static uint64_t class_size(int kc, int a, int d);

static void init_index(void) {
    int t, sq, f, r, kc = 0;
    if (ready) return;
    for (sq = 0; sq <= BD_SQUARES; sq++) {
        binom[sq][0] = 1;
        for (t = 1; t <= BD_EG_MAX_SOLDIERS; t++)
            binom[sq][t] = sq == 0 ? 0 : binom[sq - 1][t - 1] + binom[sq - 1][t];
    }
    for (t = 0; t < 8; t++)
        for (sq = 0; sq < BD_SQUARES; sq++) {
            f = sq % 7;
            r = sq / 7;
            if (t & 1) f = 6 - f;
            if (t & 2) r = 6 - r;
            if (t & 4) { int x = f; f = r; r = x; }
            sym[t][sq] = (int8_t)(r * 7 + f);
            sym_bit[t][sq] = bd_bit(r * 7 + f);
        }
    for (sq = 0; sq < BD_SQUARES; sq++) {
        f = sq % 7;
        r = sq / 7;
        king_class[sq] = -1;
        if (r <= f && f <= 3) {
            class_square[kc] = (int8_t)sq;
            king_class[sq] = (int8_t)kc++;
        }
    }
    for (kc = 0; kc < KING_CLASSES; kc++) {
        int n = 0;
        for (sq = 0; sq < BD_SQUARES; sq++) {
            soldier_number[kc][sq] = -1;
            if ((BD_SOLDIER_STOPS & bd_bit(sq)) && sq != class_square[kc]) {
                soldier_number[kc][sq] = (int8_t)n++;
                soldier_bb[kc] |= bd_bit(sq);
            }
        }
        soldier_squares[kc] = n;
    }
    for (t = 0; t <= BD_EG_MAX_SOLDIERS; t++) {
        int d;
        for (d = 0; t + d <= BD_EG_MAX_SOLDIERS; d++)
            for (kc = 0; kc < KING_CLASSES; kc++)
                class_offset[t][d][kc + 1] = class_offset[t][d][kc] + class_size(kc, t, d);
    }
    /* Every value written here is the same whoever writes it, so two
     * threads that start at once write the same tables (no count is
     * carried from one call to the next). */
    for (sq = 0; sq < BD_SQUARES; sq++) {
        int n = 0;
        for (t = 0; t < 8; t++)
            if (king_class[sym[t][sq]] >= 0) king_syms[sq][n++] = (int8_t)t;
        king_nsyms[sq] = (int8_t)n;
    }
    ready = 1;
}

static inline bd_bb map_bb(int t, bd_bb b) {
    bd_bb out = 0;
    /* The identity (symmetry 0) is the one a king in the triangle is
     * first given: most calls. */
    if (t == 0) return b;
    while (b) out |= sym_bit[t][bd_pop_lsb(&b)];
    return out;
}

/* Positions of one king class in a table. */
static uint64_t class_size(int kc, int a, int d) {
    int m = soldier_squares[kc];
    return binom[m][a] * binom[m - a][d] * 2;
}

uint64_t bd_endgame_entries(int attackers, int defenders) {
    if (attackers < 0 || defenders < 0 || attackers + defenders > BD_EG_MAX_SOLDIERS) return 0;
    init_index();
    return class_offset[attackers][defenders][KING_CLASSES];
}

/* The set of k numbers below m whose colex rank is r. */
static uint64_t unrank_set(uint64_t r, int k, int m) {
    uint64_t set = 0;
    int c = m - 1;
    for (; k > 0; k--) {
        while (binom[c][k] > r) c--;
        r -= binom[c][k];
        set |= 1ULL << c;
        c--;
    }
    return set;
}

/* The symmetry that brings p's king into the triangle and makes p the
 * table's own image (the soldiers' sets the smallest among the images that
 * put him there), with those sets in *att and *dfn. Each image's attackers
 * are compared first, its defenders mapped only on a tie. */
static inline int canonical_sets(const bd_pos *p, bd_bb *att, bd_bb *dfn) {
    int i, n = king_nsyms[p->king], best = king_syms[p->king][0];
    bd_bb a = map_bb(best, p->att), d = map_bb(best, p->dfn);
    for (i = 1; i < n; i++) {
        int t = king_syms[p->king][i];
        bd_bb qa = map_bb(t, p->att), qd;
        if (qa > a) continue;
        qd = map_bb(t, p->dfn);
        if (qa < a || qd < d) { a = qa; d = qd; best = t; }
    }
    *att = a;
    *dfn = d;
    return best;
}

/* The index of the position of signature (a, d) with the king on class
 * kc's square and the soldiers' sets att and dfn, or UINT64_MAX when a
 * soldier stands where soldiers never stop. */
static inline uint64_t index_of_sets(int kc, bd_bb att, bd_bb dfn, int side, int a, int d) {
    int m = soldier_squares[kc], na = 0, nd = 0;
    uint64_t ra = 0, rd = 0;
    bd_bb b;
    /* The colex ranks, summed as the squares come, lowest first (a
     * square's number grows with the square). */
    if ((att | dfn) & ~soldier_bb[kc]) return UINT64_MAX;
    for (b = att; b;) {
        if (na == BD_EG_MAX_SOLDIERS) return UINT64_MAX;
        ra += binom[soldier_number[kc][bd_pop_lsb(&b)]][++na];
    }
    for (b = dfn; b;) {
        int sq = bd_pop_lsb(&b);
        if (nd == BD_EG_MAX_SOLDIERS) return UINT64_MAX;
        /* Numbered among the squares the attackers leave: every attacker
         * below stands on a soldier's square below. */
        rd += binom[soldier_number[kc][sq] - bd_popcount(att & (bd_bit(sq) - 1))][++nd];
    }
    return class_offset[a][d][kc] + (ra * binom[m - a][d] + rd) * 2 + (uint64_t)side;
}

/* The index of any position of signature (a, d) with a king: its table's
 * own image's. */
static inline uint64_t index_of(const bd_pos *p, int a, int d) {
    bd_bb att, dfn;
    int t = canonical_sets(p, &att, &dfn);
    return index_of_sets(king_class[sym[t][p->king]], att, dfn, p->side, a, d);
}

/* Whether p, its king in the triangle, is the table's own image: no
 * symmetry that keeps the king there gives smaller soldiers' sets (the
 * first of its symmetries is the identity). */
static inline int is_canonical(const bd_pos *p) {
    int i;
    for (i = 1; i < king_nsyms[p->king]; i++) {
        int t = king_syms[p->king][i];
        bd_bb qa = map_bb(t, p->att);
        if (qa < p->att || (qa == p->att && map_bb(t, p->dfn) < p->dfn)) return 0;
    }
    return 1;
}

/* A walk over a table's positions in the order of their indices: the
 * king's class, the attackers' and the defenders' sets as masks of their
 * numbers (colex order is the masks' numeric order, so the next set is the
 * next larger mask with as many bits), and the position they make. Step 1
 * looks at every index, and a step costs a fraction of an index's
 * unranking. */
typedef struct walk {
    int a, d, kc;
    uint64_t amask, dmask;
    bd_pos p;
} walk;

/* The squares of `squares` picked by the bits of `mask` (bit n: the n-th
 * lowest square). */
static inline bd_bb deposit(uint64_t mask, bd_bb squares) {
    bd_bb out = 0;
    while (mask) out |= bd_bit(bd_select(squares, bd_pop_lsb(&mask)));
    return out;
}

static void walk_place(walk *w) {
    w->p.king = class_square[w->kc];
    w->p.att = deposit(w->amask, soldier_bb[w->kc]);
    w->p.dfn = deposit(w->dmask, soldier_bb[w->kc] & ~w->p.att);
    w->p.key = 0;
}

/* The walk at an index of signature (a, d), which must be below the
 * table's size. */
static void walk_at(walk *w, uint64_t index, int a, int d) {
    int kc = 0, m;
    uint64_t ra, rd;
    while (index >= class_offset[a][d][kc + 1]) kc++;
    index -= class_offset[a][d][kc];
    m = soldier_squares[kc];
    w->a = a;
    w->d = d;
    w->kc = kc;
    w->p.side = (uint8_t)(index & 1);
    index >>= 1;
    rd = index % binom[m - a][d];
    ra = index / binom[m - a][d];
    w->amask = unrank_set(ra, a, m);
    w->dmask = unrank_set(rd, d, m - a);
    walk_place(w);
}

/* The next set of k numbers below m after *mask in colex order (Gosper's
 * hack), 1; or, after the last, the first again, 0. */
static inline int next_set(uint64_t *mask, int k, int m) {
    uint64_t x = *mask, r, next;
    if (k == 0) return 0;
    r = x + (x & (0 - x));
    next = r | (((x ^ r) >> 2) >> bd_lsb(x));
    if (next >> m) { *mask = (1ULL << k) - 1; return 0; }
    *mask = next;
    return 1;
}

/* The walk one index on (not past the table's last). */
static void walk_next(walk *w) {
    int m = soldier_squares[w->kc];
    if (w->p.side == 0) { w->p.side = 1; return; }
    w->p.side = 0;
    if (!next_set(&w->dmask, w->d, m - w->a) && !next_set(&w->amask, w->a, m)) {
        w->kc++;
        if (w->kc == KING_CLASSES) return;
    }
    walk_place(w);
}

/* The position at an index of signature (a, d). */
static bd_pos position_at(uint64_t index, int a, int d) {
    walk w;
    walk_at(&w, index, a, d);
    return w.p;
}

/* ---- Reading a table. */

/* The entry of any position of a table that is there, or -1 when its
 * table is not (or it is no table's: no king, too many soldiers). */
static int entry_of(const bd_endgame *t, const bd_pos *p) {
    int a = bd_popcount(p->att), d = bd_popcount(p->dfn);
    uint64_t i;
    if (p->king == BD_NONE || a + d > BD_EG_MAX_SOLDIERS || !t->data[a][d]) return -1;
    i = index_of(p, a, d);
    return i == UINT64_MAX ? BD_EG_BYTE_NONE : t->data[a][d][i];
}

static int value_of_byte(int byte, int *plies) {
    *plies = 0;
    if (byte <= BD_EG_BYTE_NONE) return BD_EG_NONE;
    if (byte == BD_EG_BYTE_DRAW) return BD_EG_DRAW;
    if (byte <= BD_EG_BYTE_LOSS) { *plies = byte - BD_EG_BYTE_WIN; return BD_EG_WIN; }
    *plies = byte - BD_EG_BYTE_LOSS;
    return BD_EG_LOSS;
}

int bd_endgame_probe(const bd_endgame *t, const bd_pos *p, int *plies) {
    return value_of_byte(entry_of(t, p), plies);
}

void bd_endgame_attach(bd_search_limits *limits, const bd_endgame *t) {
    limits->endgame = t;
    limits->probe = t ? bd_endgame_probe : NULL;
}

/* ---- The set. */

bd_endgame *bd_endgame_new(const bd_variant *v) {
    bd_endgame *t = (bd_endgame *)calloc(1, sizeof *t);
    if (!t) return NULL;
    init_index();
    t->v = *v;
    return t;
}

void bd_endgame_free(bd_endgame *t) {
    int a, d;
    if (!t) return;
    for (a = 0; a <= BD_EG_MAX_SOLDIERS; a++)
        for (d = 0; d <= BD_EG_MAX_SOLDIERS; d++) free(t->data[a][d]);
    free(t);
}

static int in_range(int a, int d) { return a >= 0 && d >= 0 && a + d <= BD_EG_MAX_SOLDIERS; }

const uint8_t *bd_endgame_data(const bd_endgame *t, int attackers, int defenders) {
    return in_range(attackers, defenders) ? t->data[attackers][defenders] : NULL;
}

int bd_endgame_load(bd_endgame *t, int attackers, int defenders, const uint8_t *data, uint64_t n) {
    uint8_t *copy;
    if (!in_range(attackers, defenders) || n != bd_endgame_entries(attackers, defenders)) return -2;
    copy = (uint8_t *)malloc(n ? n : 1);
    if (!copy) return -1;
    memcpy(copy, data, n);
    free(t->data[attackers][defenders]);
    t->data[attackers][defenders] = copy;
    return 0;
}

/* ---- The build. A position's state while its table is built, one word
 * (so that threads change it with one compare-and-swap). */
enum { K_OPEN = 0, K_WIN = 1, K_LOSS = 2, K_NONE = 3 };
#define ST_KIND(s) ((int)((s) & 3))
#define ST_PLIES(s) ((int)(((s) >> 8) & 0xffff))
#define ST_COUNT(s) ((int)(((s) >> 24) & 0xffff))
#define ST_FLOOR(s) ((int)(((s) >> 40) & 0xffff))
#define ST_DRAWN (1ULL << 60)
static inline uint64_t st_make(int kind, int plies, int count, int floor, int drawn) {
    return (uint64_t)kind | (uint64_t)plies << 8 | (uint64_t)count << 24 | (uint64_t)floor << 40 |
           (drawn ? ST_DRAWN : 0);
}
static inline uint64_t st_with(uint64_t s, int kind, int plies) {
    return (s & ~(uint64_t)0xffff03) | (uint64_t)kind | (uint64_t)plies << 8;
}

typedef struct job {
    bd_endgame *t;
    int a, d;
    uint64_t n;
    uint64_t *st;
    int level;          /* 0: the first pass; k: level k */
    uint64_t next;      /* the next chunk to claim */
    uint64_t longest;   /* the most plies of any value set */
    uint64_t changed;   /* values set at this level */
    const volatile int *stop;
    int stopped;
    volatile int failed; /* a capture led where no table answers */
} job;

static uint64_t add64(uint64_t *p, uint64_t x) {
    uint64_t seen;
    do seen = bd_load64(p);
    while (!bd_cas64(p, seen, seen + x));
    return seen;
}

static void max64(uint64_t *p, uint64_t x) {
    uint64_t seen;
    while ((seen = bd_load64(p)) < x && !bd_cas64(p, seen, x)) {
    }
}

/* The ending a position is in as it stands, with no history, or
 * BD_ONGOING: what bd_judge says of it after a move that neither took the
 * king nor brought him home. */
static int ending_of(const bd_variant *v, const bd_pos *p, int flags, int *winner) {
    return bd_judge(v, p, flags, 1, 0, 0, -1, winner);
}

static int is_position(const bd_variant *v, const bd_pos *p) {
    int winner;
    if (bd_escapes(v) & bd_bit(p->king)) return 0;
    return ending_of(v, p, 0, &winner) == BD_ONGOING;
}

/* Drop repeats, keeping the first of each; returns how many are left. The
 * lists are a position's moves or unmoves, a few dozen, and repeats are
 * rare (two moves that reach mirror images): each is looked up in a small
 * open-addressed set (a sort cost a tenth of the build). The order is no
 * matter: only the count is read, or the positions each changed once. */
#define UNIQUE_SLOTS 256
static int unique(uint64_t *xs, int n) {
    uint64_t seen[UNIQUE_SLOTS];
    uint8_t used[UNIQUE_SLOTS];
    int i, k = 0;
    if (n < 2) return n;
    if (n > UNIQUE_SLOTS / 2) {
        /* More than any position has (seven pieces, twelve squares each):
         * the plain way. */
        for (i = 0; i < n; i++) {
            int m = 0;
            while (m < k && xs[m] != xs[i]) m++;
            if (m == k) xs[k++] = xs[i];
        }
        return k;
    }
    memset(used, 0, sizeof used);
    for (i = 0; i < n; i++) {
        uint64_t x = xs[i];
        unsigned h = (unsigned)((x * 0x9e3779b97f4a7c15ULL) >> 56);
        while (used[h] && seen[h] != x) h = (h + 1) & (UNIQUE_SLOTS - 1);
        if (used[h]) continue;
        used[h] = 1;
        seen[h] = x;
        xs[k++] = x;
    }
    return k;
}

/* Step 1 for one position: its moves' values, and the count of those that
 * stay in the table. */
static uint64_t first_look(job *j, const bd_pos *at) {
    const bd_variant *v = &j->t->v;
    bd_pos p = *at;
    bd_move moves[BD_MAX_MOVES];
    uint64_t inside[BD_MAX_MOVES];
    int n, k, count = 0, win = 0, floor = 0, drawn = 0;
    if (!is_canonical(&p) || !is_position(v, &p)) return st_make(K_NONE, 0, 0, 0, 0);
    n = bd_gen_moves(v, &p, moves);
    for (k = 0; k < n; k++) {
        bd_pos q = p;
        bd_report r = bd_pos_make(v, &q, moves[k], BD_MAKE_CAPTURES | BD_MAKE_IF_BESIDE);
        int winner, plies, value;
        if (ending_of(v, &q, r.flags, &winner) != BD_ONGOING) {
            if (winner == p.side) { win = 1; continue; }
            if (winner == BD_NOBODY) drawn = 1;
            else if (floor < 1) floor = 1;
            continue;
        }
        if (!r.captured) {
            inside[count++] = index_of(&q, j->a, j->d);
            continue;
        }
        value = bd_endgame_probe(j->t, &q, &plies);
        if (value == BD_EG_LOSS) {
            if (!win || plies + 1 < win) win = plies + 1;
        } else if (value == BD_EG_WIN) {
            if (plies + 1 > floor) floor = plies + 1;
        } else if (value == BD_EG_DRAW) {
            drawn = 1;
        } else {
            bd_store_flag(&j->failed, 1);
        }
    }
    count = unique(inside, count);
    if (win) return st_make(K_WIN, win, count, floor, drawn);
    if (count == 0 && !drawn) return st_make(K_LOSS, floor, 0, floor, 0);
    return st_make(K_OPEN, 0, count, floor, drawn);
}

/* The positions with a move into x (canonical) that captures nothing, as
 * indices, each once (with those of positions that are no position of the
 * table: the caller skips them); returns how many. The moves are unmade
 * piece by piece, with no move made again: whether a move onto a square
 * captures depends only on the position it reaches and that square (the
 * captures are judged there, bd_pos_capture), so it is asked once a
 * piece; and a soldier may have come from every square its slides back
 * reach (the squares between are the same both ways, and its first square
 * is one where soldiers stop). The king's few unmoves are checked against
 * his moves (the throne's rules). */
static int predecessors(job *j, const bd_pos *x, uint64_t *out) {
    const bd_variant *v = &j->t->v;
    int mover = x->side ^ 1, n = 0;
    bd_bb occ = bd_occupied(x), block = bd_blockers(v, x);
    bd_bb pieces = mover == BD_ATTACKERS ? x->att : x->dfn | bd_bit(x->king);
    bd_bb enemies = mover == BD_ATTACKERS ? x->dfn | bd_bit(x->king) : x->att;
    bd_pos after = *x;  /* x as the move left it, before the turn passed */
    after.side = (uint8_t)mover;
    while (pieces) {
        int to = bd_pop_lsb(&pieces);
        bd_bb origins;
        /* Only a move that lands beside an enemy can capture (as
         * bd_pos_make asks it). */
        if (BD_ADJACENT[to] & enemies) {
            bd_pos y = after;
            bd_report rep;
            rep.captured = 0;
            rep.flags = 0;
            bd_pos_capture(v, &y, to, &rep);
            if (rep.captured) continue;
        }
        if (to == x->king) {
            if (bd_escapes(v) & bd_bit(to)) continue;
            origins = bd_slides(to, occ);
        } else {
            origins = bd_slides(to, block) & BD_SOLDIER_STOPS;
        }
        while (origins) {
            int from = bd_pop_lsb(&origins);
            bd_pos q = after;
            bd_bb fromto = bd_bit(from) | bd_bit(to);
            if (to == x->king) {
                q.king = (int8_t)from;
                if (!(bd_targets(v, &q, from) & bd_bit(to))) continue;
            } else if (mover == BD_ATTACKERS) {
                q.att ^= fromto;
            } else {
                q.dfn ^= fromto;
            }
            out[n] = index_of(&q, j->a, j->d);
            if (out[n] != UINT64_MAX) n++;
        }
    }
    return unique(out, n);
}

/* Step 2 for one position won or lost at this level. */
static void spread(job *j, uint64_t i, int kind) {
    uint64_t preds[4 * BD_MAX_MOVES];
    bd_pos x = position_at(i, j->a, j->d);
    int k, n = predecessors(j, &x, preds), next = j->level + 1;
    /* The slots are all over the table: ask for them all at once. */
    for (k = 0; k < n; k++) bd_prefetch_write(&j->st[preds[k]]);
    for (k = 0; k < n; k++) {
        uint64_t *slot = &j->st[preds[k]], seen, want;
        for (;;) {
            seen = bd_load64(slot);
            if (ST_KIND(seen) == K_NONE) break;
            if (kind == K_LOSS) {
                /* A move into a loss: won in one ply more, unless already
                 * won sooner. */
                if (ST_KIND(seen) == K_WIN && ST_PLIES(seen) <= next) break;
                want = st_with(seen, K_WIN, next);
            } else {
                int count;
                if (ST_KIND(seen) != K_OPEN) break;
                count = ST_COUNT(seen) - 1;
                want = (seen & ~(0xffffULL << 24)) | (uint64_t)count << 24;
                if (count == 0 && !(seen & ST_DRAWN)) {
                    int plies = ST_FLOOR(seen) > next ? ST_FLOOR(seen) : next;
                    want = st_with(want, K_LOSS, plies);
                }
            }
            if (bd_cas64(slot, seen, want)) {
                if (ST_KIND(want) != K_OPEN) {
                    max64(&j->longest, (uint64_t)ST_PLIES(want));
                    add64(&j->changed, 1);
                }
                break;
            }
        }
    }
}

static void work(void *arg) {
    job *j = (job *)arg;
    for (;;) {
        uint64_t start, end, i;
        if (j->stop && bd_load_flag(j->stop)) { j->stopped = 1; return; }
        start = add64(&j->next, CHUNK);
        if (start >= j->n) return;
        end = start + CHUNK < j->n ? start + CHUNK : j->n;
        if (j->level == 0) {
            walk w;
            walk_at(&w, start, j->a, j->d);
            for (i = start; i < end; i++, walk_next(&w)) {
                uint64_t s = first_look(j, &w.p);
                j->st[i] = s;
                if (ST_KIND(s) == K_WIN || ST_KIND(s) == K_LOSS) max64(&j->longest, (uint64_t)ST_PLIES(s));
            }
            continue;
        }
        for (i = start; i < end; i++) {
            uint64_t s = bd_load64(&j->st[i]);
            int kind = ST_KIND(s);
            if ((kind == K_WIN || kind == K_LOSS) && ST_PLIES(s) == j->level) spread(j, i, kind);
        }
    }
}

/* fn(arg) on `threads` threads (the caller's among them), all done when it
 * returns. */
static void run_threads(void (*fn)(void *), void *arg, int threads) {
    bd_thread *helpers[BD_MAX_THREADS];
    int h, started = 0;
    for (h = 1; h < threads && h < BD_MAX_THREADS; h++) {
        helpers[started] = bd_thread_start(fn, arg);
        if (!helpers[started]) break;
        started++;
    }
    fn(arg);
    for (h = 0; h < started; h++) bd_thread_join(helpers[h]);
}

/* One pass over the table on `threads` threads. */
static void pass(job *j, int threads) {
    j->next = 0;
    run_threads(work, j, threads);
}

int bd_endgame_build(bd_endgame *t, int attackers, int defenders, int threads, const volatile int *stop,
                     bd_endgame_stats *out) {
    job j;
    uint64_t i;
    int a, d;
    memset(out, 0, sizeof *out);
    if (!in_range(attackers, defenders)) return -2;
    /* Every smaller table a capture may lead into. */
    for (a = 0; a <= attackers; a++)
        for (d = 0; d <= defenders; d++)
            if (a + d < attackers + defenders && !t->data[a][d]) return -3;
    memset(&j, 0, sizeof j);
    j.t = t;
    j.a = attackers;
    j.d = defenders;
    j.n = bd_endgame_entries(attackers, defenders);
    j.stop = stop;
    j.st = (uint64_t *)malloc((size_t)j.n * sizeof *j.st);
    if (!j.st) return -1;
    if (threads < 1) threads = 1;
    pass(&j, threads);
    if (j.failed) { free(j.st); return -3; }
    for (j.level = 1; !j.stopped && (uint64_t)j.level <= bd_load64(&j.longest); j.level++) pass(&j, threads);
    if (j.stopped) { free(j.st); return 1; }
    if (j.longest > BD_EG_MAX_PLIES) { free(j.st); return -4; }
    {
        uint8_t *bytes = (uint8_t *)malloc(j.n ? (size_t)j.n : 1);
        if (!bytes) { free(j.st); return -1; }
        for (i = 0; i < j.n; i++) {
            uint64_t s = j.st[i];
            switch (ST_KIND(s)) {
            case K_NONE: bytes[i] = BD_EG_BYTE_NONE; break;
            case K_OPEN: bytes[i] = BD_EG_BYTE_DRAW; out->draws++; break;
            case K_WIN: bytes[i] = (uint8_t)(BD_EG_BYTE_WIN + ST_PLIES(s)); out->wins++; break;
            default: bytes[i] = (uint8_t)(BD_EG_BYTE_LOSS + ST_PLIES(s)); out->losses++; break;
            }
        }
        free(t->data[attackers][defenders]);
        t->data[attackers][defenders] = bytes;
    }
    out->entries = j.n;
    out->positions = out->wins + out->draws + out->losses;
    out->longest = (int)j.longest;
    out->levels = j.level - 1;
    free(j.st);
    return 0;
}

/* ---- The check, apart from the build: every position's value worked out
 * again from its moves alone (made and judged by the engine, the values of
 * the positions they reach read from the tables), with no predecessor, no
 * count and no level. */

/* What one position's value must be, as a byte. */
static int value_from_moves(const bd_endgame *t, const bd_pos *p) {
    const bd_variant *v = &t->v;
    bd_move moves[BD_MAX_MOVES];
    int n = bd_gen_moves(v, p, moves), k, win = 0, drawn = 0, lose = 0;
    for (k = 0; k < n; k++) {
        bd_pos q = *p;
        bd_report r = bd_pos_make(v, &q, moves[k], BD_MAKE_CAPTURES | BD_MAKE_IF_BESIDE);
        int winner, plies, value;
        if (ending_of(v, &q, r.flags, &winner) != BD_ONGOING) {
            if (winner == p->side) value = BD_EG_LOSS, plies = 0;
            else if (winner == BD_NOBODY) value = BD_EG_DRAW, plies = 0;
            else value = BD_EG_WIN, plies = 0;
        } else {
            value = bd_endgame_probe(t, &q, &plies);
        }
        if (value == BD_EG_LOSS) { if (!win || plies + 1 < win) win = plies + 1; }
        else if (value == BD_EG_WIN) { if (plies + 1 > lose) lose = plies + 1; }
        else drawn = 1; /* a draw, or no table: never so for a built set */
    }
    if (win) return BD_EG_BYTE_WIN + win;
    if (drawn) return BD_EG_BYTE_DRAW;
    return BD_EG_BYTE_LOSS + lose;
}

typedef struct check_job {
    const bd_endgame *t;
    int a, d;
    uint64_t n;
    const uint8_t *data;
    uint64_t next;       /* the next chunk to claim */
    uint64_t bad;        /* positions that disagree */
    uint64_t first_bad;  /* the lowest index of one (UINT64_MAX: none yet) */
    const volatile int *stop;
    volatile int stopped;
} check_job;

static void min64(uint64_t *p, uint64_t x) {
    uint64_t seen;
    while ((seen = bd_load64(p)) > x && !bd_cas64(p, seen, x)) {
    }
}

static void check_work(void *arg) {
    check_job *c = (check_job *)arg;
    for (;;) {
        uint64_t start, end, i;
        walk w;
        if (c->stop && bd_load_flag(c->stop)) { bd_store_flag(&c->stopped, 1); return; }
        start = add64(&c->next, CHUNK);
        if (start >= c->n) return;
        end = start + CHUNK < c->n ? start + CHUNK : c->n;
        walk_at(&w, start, c->a, c->d);
        for (i = start; i < end; i++, walk_next(&w)) {
            int want;
            /* The index found again from the position: the walk and the
             * index checked against each other too. */
            if (index_of(&w.p, c->a, c->d) != i || !is_position(&c->t->v, &w.p))
                want = BD_EG_BYTE_NONE;
            else
                want = value_from_moves(c->t, &w.p);
            if (want != c->data[i]) {
                add64(&c->bad, 1);
                min64(&c->first_bad, i);
            }
        }
    }
}

int64_t bd_endgame_check(const bd_endgame *t, int attackers, int defenders, int threads,
                         const volatile int *stop, uint64_t *first_bad) {
    check_job c;
    *first_bad = 0;
    if (!in_range(attackers, defenders) || !t->data[attackers][defenders]) return -1;
    memset(&c, 0, sizeof c);
    c.t = t;
    c.a = attackers;
    c.d = defenders;
    c.n = bd_endgame_entries(attackers, defenders);
    c.data = t->data[attackers][defenders];
    c.first_bad = UINT64_MAX;
    c.stop = stop;
    run_threads(check_work, &c, threads < 1 ? 1 : threads);
    if (c.stopped) return -2;
    if (c.bad) *first_bad = c.first_bad;
    return (int64_t)c.bad;
}

int bd_endgame_position(int attackers, int defenders, uint64_t index, bd_pos *out) {
    if (!in_range(attackers, defenders)) return -1;
    init_index();
    if (index >= bd_endgame_entries(attackers, defenders)) return -1;
    *out = position_at(index, attackers, defenders);
    bd_pos_rekey(out);
    return 0;
}

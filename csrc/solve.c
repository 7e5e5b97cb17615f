/* The proof solver: depth-first proof-number search (df-pn) for a forced
 * win, over the engine's moves and endings, with a transposition table of
 * its own (brandubh.h has the interface; docs/proofs.md the method and the
 * figures).
 *
 * The model. A node is a position (the board and the side to move) and a
 * bound: the plies left before the game is cut short. Within one solver the
 * bound is the only thing besides the position that decides a node's value,
 * and the game it stands in is acyclic (the bound falls by one a ply), so a
 * result stored for a position holds wherever the position is met:
 *
 *  - The bound stands for the ply cap (the plies the rules leave from the
 *    root, or fewer when the quiet cap is nearer, or fewer still while a
 *    shorter win is looked for). A position reached with no plies left is
 *    judged as the rules judge one at the ply cap (ending 7 of
 *    docs/rules.md, in its place in the order), so a win at the last ply
 *    by a blocked side's loss (ending 9) does not count. "Won within r"
 *    then implies "won within r + 1", and "not won within r" implies "not
 *    won within r - 1": the table keeps, for each position, the least bound
 *    known to win (`proof`) and the bound below which it is known not to
 *    (`dis`), facts that hold for every bound on their side.
 *  - Repetition is left out of the model, except for the positions the
 *    game before the root already holds so often that one more occurrence
 *    ends it (repeat - 1 times, since the last capture): these are endings,
 *    judged as the rules judge them. This is the graph-history interaction
 *    problem's answer (docs/proofs.md argues it in full): a proof is
 *    extracted from the table as a graph in which no position is met twice
 *    on any line (the extraction refuses a cycle), so along every line of
 *    the proof each position occurs once more than it did before the root,
 *    and the repetition rule can only fire on the positions named above,
 *    which the model judges exactly. No result depends on the path it was
 *    found by, so none is wrongly taken from a transposition.
 *  - The quiet cap is kept by the bound: the root's bound is at most the
 *    moves left before it, so it never comes into play before a proof ends.
 *  - Asked one side's win within a horizon short of that (bd_solver_within),
 *    the bound is the question's instead: no node reaches the cap, a node
 *    with no plies left is only past the question, and a blocked side's
 *    loss on its last ply counts. One solver keeps one meaning of the
 *    bound throughout, so its table's facts never mix the two.
 *
 * So a win found is a win under the rules. A position where neither side
 * wins within the whole bound is a draw when the model is exact: repetition
 * draws (a side that cannot win without repeating cannot win) and the
 * quiet cap is not nearer than the ply cap. Under `repetition = loss` a win
 * that needs the other side forced into a repetition is not seen: the
 * solver says it cannot settle such a position, never that it is a draw.
 *
 * The search (mid) is Nagai's df-pn with Pawlewicz and Lew's 1 + epsilon
 * thresholds, from the root each time, so it can stop and go on at any
 * node. Proof and disproof numbers start from the side to move's count of
 * moves (all must be answered where the loser moves, one suffices where
 * the winner does; fewer where the prover threatens to win at once, since
 * only the replies that parry it count), and from two exact tests at the
 * frontier: a side to move that can take the king or bring him home at
 * once (wins_at_once), and a prover that cannot win in the plies left
 * (hopeless). Each side's win is looked for in turn, with budgets that
 * double, within bounds that grow from the shortest (bound_after), so the
 * first win found is the shortest but for the plies between the last bound
 * refuted and the one it was found within; its proof is extracted at once
 * and kept, and where the bounds skipped plies a shorter win is looked for (the same
 * search within one ply fewer than the proof needs, until that is
 * refuted: the win is then the shortest).
 *
 * Deterministic on one thread (the default), with no clock: the same game,
 * table size and sequence of calls give the same result, counts included.
 * On two (bd_solver_threads), each side's win is looked for on a thread of
 * its own while neither is settled (solve_both): as sound, not repeatable. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "eval.h"
#include "game.h"
#include "memory.h"
#include "thread.h"

typedef uint32_t num;
/* A proof or disproof number of a settled node; sums stop one below it. */
#define INF 0x7FFFFFFFu
/* The `dis` of a position no bound wins. */
#define ALL_BOUNDS 0xFFFF
/* The positions a side's first turn may expand; each later turn of that
 * side gets twice its last. */
#define QUANTUM 65536u
/* How often, in positions, the stop flag is looked at. */
#define STOP_CHECK 1024u
/* Table entries in a bucket (one slot's neighbours, searched together). */
#define WAYS 4
/* Attempts at extracting a proof before giving up (each after the last
 * failed on a fact the table had lost). */
#define EXTRACT_TRIES 3

/* ---- The transposition table. */

typedef struct sv_entry {
    uint64_t key;       /* the position's key xor the prover's salt; 0: empty */
    num pn, dn;         /* at bound r, while neither fact below settles it */
    uint32_t work;      /* positions expanded below it last time (saturating) */
    uint16_t r;
    uint16_t proof;     /* won within every bound >= proof; 0: not known */
    uint16_t dis;       /* not won within any bound < dis; 0: not known */
    bd_move move;       /* a prover's position: the move of the proof */
    int lock;           /* a bucket's first entry: the bucket's lock while two
                           workers run (in what was padding: 0 between calls,
                           as states saved before it hold) */
} sv_entry;

/* One move of a node being searched, as its parent sees it. */
typedef struct sv_child {
    bd_pos pos;         /* the position after the move */
    uint64_t key;       /* pos.key xor the salt */
    num pn, dn;
    uint16_t pr;        /* proven: the parent's least bound that wins by it */
    uint16_t dp;        /* disproven: the parent fails by it for bounds < dp */
    bd_move move;
    uint8_t end;        /* the move ends the game */
    uint8_t ends_nine;  /* ... by ending 9 (a blocked side's loss) */
} sv_child;

typedef struct sv_frame {
    sv_child c[BD_MAX_MOVES];
    bd_move moves[BD_MAX_MOVES];
} sv_frame;

/* ---- The proof, as extracted: positions in a hash map, full positions
 * compared (a proof never rests on a key alone). */
typedef struct pm_slot {
    bd_bb att, dfn;
    int8_t king;
    uint8_t side;
    uint8_t state;      /* 0 empty, 1 on the current line, 2 done */
    uint8_t winner_moves;
    bd_move move;
    uint16_t need;      /* the bound its proof needs */
    uint16_t plies;     /* the longest line from it, in plies */
    uint64_t line;      /* a refutation's: its line, where its side moves */
} pm_slot;

typedef struct pm_line {
    bd_pos pos;
    bd_move move;
} pm_line;

#define SV_MAGIC 0x31766c6f73626462ULL   /* "bdbsolv1", read as little-endian */
#define SV_VERSION 1u

typedef struct sv_saved {
    uint64_t magic;
    uint32_t version, entry_size, line_size, ways;
    uint64_t buckets;
    /* The game: the root and what the rules leave from it. */
    uint64_t root_key;
    int32_t root_ply, root_quiet, limit, exact;
    /* Where the solve stands. */
    int32_t solved, winner, stage, prover, bound, turn;
    int32_t side_state[2], level[2], side_bound[2], root_proof[2], root_dis[2];
    int32_t kept_need, plies, first_move;
    int32_t asked;      /* bd_solver_within's question (asked_code); 0 for none,
                           as states saved before it have */
    uint64_t nodes, turn_end, nkept, kept_positions;
} sv_saved;

enum { SIDE_OPEN = 0, SIDE_PROVEN = 1, SIDE_DISPROVEN = 2 };

/* One search: whose win it looks for, and everything that changes as it
 * goes but the table (which the solver holds, shared). Two of them may run
 * at once, one a thread, each on its own side's win (solve_both). */
typedef struct sv_worker {
    struct bd_solver *s;
    int prover;
    uint64_t salt;
    int bound;                  /* the bound being searched */
    /* The search's frames, one a depth, made when first reached. */
    sv_frame **frames;
    int nframes;
    uint64_t nodes;             /* positions this worker expanded (the work below
                                   a node is counted by it) */
    uint64_t pause;             /* the solver's count at which it stops */
    uint64_t next_stop;         /* its own count at which the flags are looked at */
    int abort, stopped, oom;
    /* Two workers side by side in the solver: a line of their own each,
     * since each writes its counts every position. */
    char pad[64];
} sv_worker;

struct bd_solver {
    bd_variant v;
    bd_pos root;
    int root_ply, root_quiet;
    int limit;                  /* the root's bound: plies the rules leave */
    int exact;                  /* a disproof at `limit` settles the side */
    int exact_within;           /* "not won within n" is the rules' own for n up
                                   to this (repetition_free) */
    int only;                   /* bd_solver_within's side, or -1: both sides */
    int within;                 /* ... and its bound */
    int horizon;                /* that bound is short of the limit: no node
                                   reaches the ply cap (judge_move) */
    int solved, winner, stage;
    /* The positions one more occurrence of which ends the game, sorted by key. */
    bd_pos *poison;
    int npoison;
    /* The table: (mask + 1) buckets of WAYS entries. */
    sv_entry *tt;
    uint64_t mask;
    size_t tt_bytes;
    /* The searches: w[0] on the caller's thread (every search of one
     * thread, the extraction's included), w[1] on a helper's while both
     * sides' wins are looked for at once (solve_both). */
    sv_worker w[2];
    int threads;                /* bd_solver_threads: 1, or 2 */
    /* Positions expanded, every call and worker together; while the
     * workers run at once, added to atomically (add_node). */
    uint64_t nodes;
    const volatile int *stop;
    int stopped, oom;
    /* While the workers run at once: `locking` raised (the buckets' locks
     * taken), and `halt`, the side that proved its win first plus one, 3
     * for out of memory (0: none yet), raised once. */
    int locking;
    uint64_t halt;
    /* The sides' turns: their state, how many turns each had, whose is next,
     * where the turn under way ends (0: none). */
    int side_state[2], level[2], turn;
    uint64_t turn_end;
    int side_bound[2];          /* the bound each side's win is looked for within */
    /* The root's facts for each prover, kept here as well as in the table. */
    int root_proof[2], root_dis[2];
    /* The proof being extracted: its positions, and those with the
     * winner to move in the order met. */
    pm_slot *pm;
    uint64_t pm_mask, pm_count;
    pm_line *lines;
    uint64_t nlines, lines_cap;
    /* The proof in hand, the last one extracted whole: its lines, its
     * positions, the bound it needs, its longest line. */
    pm_line *kept;
    uint64_t nkept, kept_cap, kept_positions;
    int kept_need, plies;
    bd_move first_move;
    uint64_t refuted_positions; /* the last refutation written down */
    sv_saved saved;             /* the header bd_solver_state hands out */
};

/* The salts that keep one prover's entries apart from the other's. */
static const uint64_t SALT[2] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL};

static num add(num a, num b) {
    if (a >= INF || b >= INF) return INF;
    return a + b >= INF - 1 ? INF - 1 : a + b;
}

static int same_pos(const bd_pos *a, const bd_pos *b) {
    return a->att == b->att && a->dfn == b->dfn && a->king == b->king && a->side == b->side;
}

/* ---- Positions that end the game by repetition. */

static int poisoned(const bd_solver *s, const bd_pos *p) {
    int lo = 0, hi = s->npoison - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const bd_pos *q = &s->poison[mid];
        if (q->key == p->key) {
            int i;
            /* Keys may repeat: look at every entry with this key. */
            for (i = mid; i >= 0 && s->poison[i].key == p->key; i--)
                if (same_pos(&s->poison[i], p)) return 1;
            for (i = mid + 1; i < s->npoison && s->poison[i].key == p->key; i++)
                if (same_pos(&s->poison[i], p)) return 1;
            return 0;
        }
        if (q->key < p->key) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}

static int by_key(const void *a, const void *b) {
    uint64_t x = ((const bd_pos *)a)->key, y = ((const bd_pos *)b)->key;
    return x < y ? -1 : x > y;
}

/* The positions of the game since its last capture, as the repetition rule
 * counts them, that have occurred repeat - 1 times or more. */
static int find_poison(bd_solver *s, const bd_game *g) {
    int ply = g->ply, first = g->v.repeat_counts_start ? 0 : 1, oldest = ply - g->hist[ply].quiet, i, j;
    if (oldest < first) oldest = first;
    s->poison = (bd_pos *)malloc((size_t)(ply - oldest + 1) * sizeof *s->poison);
    if (!s->poison) return -1;
    for (i = oldest; i <= ply; i++) {
        const bd_pos *p = &g->hist[i].pos;
        int n = 0, seen = 0;
        for (j = oldest; j <= ply; j++) {
            if (!same_pos(&g->hist[j].pos, p)) continue;
            if (j < i) { seen = 1; break; }
            n++;
        }
        if (!seen && n + 1 >= g->v.repeat) s->poison[s->npoison++] = *p;
    }
    qsort(s->poison, (size_t)s->npoison, sizeof *s->poison, by_key);
    return 0;
}

/* The plies from the root within which the repetition rule cannot end the
 * game at a position other than those find_poison kept (which the model
 * judges as the rules do): a side's "not won within n" is the rules' own
 * for n up to this. Where repetition draws that is every n (a repetition
 * only takes a win away). Where it loses, the model does not see a win by
 * forcing the other side to repeat; but two occurrences of a position are
 * four plies apart at least (each side must take its move back, and a
 * capture, which cannot be, starts the count again), so a position the
 * counted history holds c times, the last d plies back, comes round the
 * `repeat`th time no sooner than max(1, 4 - d) + 4 (repeat - c - 1) plies
 * from the root (4 for the root itself, d = 0), and a position it does
 * not hold no sooner than 1 + 4 (repeat - 1). */
static int repetition_free(const bd_solver *s, const bd_game *g) {
    int ply = g->ply, first = g->v.repeat_counts_start ? 0 : 1, oldest = ply - g->hist[ply].quiet, i, j;
    int least = 1 + 4 * (g->v.repeat - 1);
    if (g->v.repetition == BD_END_DRAW) return s->limit;
    if (oldest < first) oldest = first;
    for (i = oldest; i <= ply; i++) {
        const bd_pos *p = &g->hist[i].pos;
        int n = 0, last = i, seen = 0, d, soonest;
        for (j = oldest; j <= ply; j++) {
            if (!same_pos(&g->hist[j].pos, p)) continue;
            if (j < i) { seen = 1; break; }
            n++;
            last = j;
        }
        if (seen || n + 1 >= g->v.repeat) continue;   /* counted once; or poison: exact */
        d = ply - last;
        soonest = (d == 0 ? 4 : 4 - d > 1 ? 4 - d : 1) + 4 * (g->v.repeat - n - 1);
        if (soonest < least) least = soonest;
    }
    return least - 1 < s->limit ? least - 1 : s->limit;
}

/* ---- Exact tests at the frontier. */

/* How many moves would win at once, by the first two endings, for `side`
 * were it to move in p: the escape squares the king reaches in one move,
 * or the squares beside the king where an attacker that slides there
 * takes him. */
static int threats(const bd_variant *v, const bd_pos *p, int side) {
    bd_bb takers, block;
    bd_pos q;
    int n = 0;
    if (p->king == BD_NONE) return 0;
    if (side == BD_DEFENDERS) return bd_popcount(bd_king_lanes(v, p));
    q = *p;
    q.side = BD_ATTACKERS;
    takers = bd_king_takers(v, &q) & BD_SOLDIER_STOPS;
    if (!takers) return 0;
    block = bd_blockers(v, p);
    while (takers) {
        int t = bd_pop_lsb(&takers), d;
        for (d = 0; d < BD_DIRECTIONS; d++) {
            /* The nearest piece (or blocking throne) behind the square, that
             * way: an attacker there slides to it. */
            bd_bb behind = block & BD_BEHIND[d][t];
            if (behind && (p->att & bd_bit(bd_slid_from(behind, t, d)))) {
                n++;
                break;
            }
        }
    }
    return n;
}

/* Whether the side to move has a move that wins at once by the first two
 * endings: the king reaching a square where he escapes, or an attacker
 * taking the king. */
static int wins_at_once(const bd_variant *v, const bd_pos *p) { return threats(v, p, p->side) > 0; }

/* Whether the prover certainly cannot win within r plies from p, whatever
 * the other side does; 0 when that is not known. Only the plain cases:
 * the prover's moves in r plies are too few for the king to get home, or
 * for the attackers to bring a capture, and no rule could hand the prover
 * the win another way in that time: a blocked side's loss after one of
 * the prover's moves before the last ply (on the last, the ply cap is
 * judged first), a losing repetition after one of the other side's moves,
 * or, for the attackers, encirclement (the defenders' own move can shut
 * them in). */
static int hopeless(const sv_worker *w, const bd_pos *p, int r) {
    const bd_solver *s = w->s;
    const bd_variant *v = &s->v;
    int first = p->side == w->prover;
    int mine = first ? (r + 1) / 2 : r / 2;
    int mine_before_last = first ? r / 2 : (r - 1) / 2;
    if (v->no_move == BD_END_LOSS && (s->horizon ? mine : mine_before_last) > 0) return 0;
    if (v->repetition == BD_END_LOSS && s->npoison && r - mine > 0) return 0;
    if (w->prover == BD_DEFENDERS) {
        /* The king needs one move from a line that holds an escape square
         * (an edge, when he escapes at the edge), two from anywhere else;
         * no attacker's move brings him nearer. Taking every attacker needs
         * a move for each three. */
        int k;
        if (p->king == BD_NONE) return 1;
        if (v->escape == BD_ESCAPE_EDGE) k = 1;
        else k = (bd_bit(p->king) & BD_EDGE) ? 1 : 2;
        if (mine >= k) return 0;
        return !v->no_pieces || bd_popcount(p->att) > 3 * mine;
    }
    /* The attackers win by taking the king: with no move of their own they
     * cannot, and with one, only by a move that takes him at once. */
    if (v->encirclement) return 0;
    if (mine == 0) return 1;
    return mine == 1 && first && r == 1 && !wins_at_once(v, p);
}

/* ---- The table.
 *
 * Shared by the two workers while they run at once (solve_both), each on
 * its own side's entries (kept apart by the salt) but in the same buckets,
 * where one side's entry may replace the other's. An entry is read and
 * written only under its bucket's lock then (in the bucket's first entry,
 * on the line the bucket is read from; never read or written but as the
 * lock), and read out whole, a copy, so
 * that no worker ever sees an entry half written by the other: every fact
 * a worker reads is one a worker stored whole, about a position of its own
 * side, and true (the other side's entries are never read: their keys
 * differ by the salt). Replacing may lose a fact, as it does on one
 * thread, never make one. The locks are taken only while the workers run
 * at once (`locking`): one thread takes none, and goes exactly as before.
 * A worker that finds a lock taken spins a while, then yields (bd_spin_lock):
 * a plain spin lock spent more than half of two threads' processor time on
 * a loaded machine, spinning while the holder waited for a core; a lock
 * array apart from the table (pthread mutexes, a line each) cost 45% of
 * one thread's time in its cache misses, the bucket's own 9%. */


static uint64_t bucket_of(const bd_solver *s, uint64_t key) { return key & s->mask; }

static sv_entry *bucket(const bd_solver *s, uint64_t key) { return &s->tt[bucket_of(s, key) * WAYS]; }

static void lock_bucket(bd_solver *s, uint64_t key) {
#ifndef BD_NO_THREADS
    if (s->locking) bd_spin_lock(&bucket(s, key)->lock);
#else
    (void)s;
    (void)key;
#endif
}

static void unlock_bucket(bd_solver *s, uint64_t key) {
#ifndef BD_NO_THREADS
    if (s->locking) bd_spin_unlock(&bucket(s, key)->lock);
#else
    (void)s;
    (void)key;
#endif
}

/* The entry for key, copied into *out: 1, or 0 when the table has none. */
static int probe(bd_solver *s, uint64_t key, sv_entry *out) {
    const sv_entry *b;
    int i, found = 0;
    if (!key) key = 1;   /* 0 marks an empty entry */
    b = bucket(s, key);
    lock_bucket(s, key);
    for (i = 0; i < WAYS && !found; i++) {
        if (b[i].key == key) {
            /* Field by field: the lock is the other worker's to touch. */
            out->key = b[i].key;
            out->pn = b[i].pn;
            out->dn = b[i].dn;
            out->work = b[i].work;
            out->r = b[i].r;
            out->proof = b[i].proof;
            out->dis = b[i].dis;
            out->move = b[i].move;
            found = 1;
        }
    }
    unlock_bucket(s, key);
    return found;
}

/* How much an entry is worth keeping: a proof most (a proof found is
 * extracted from the table), then a disproof, then the work below it. */
static uint64_t worth(const sv_entry *e) {
    return (uint64_t)e->work + (e->proof ? (2ULL << 32) : 0) + (e->dis ? (1ULL << 32) : 0);
}

static void store(bd_solver *s, uint64_t key, int r, num pn, num dn, int proof, int dis, bd_move move,
                  uint64_t work) {
    sv_entry *b, *e = NULL;
    int i;
    if (!key) key = 1;   /* 0 marks an empty entry */
    b = bucket(s, key);
    lock_bucket(s, key);
    for (i = 0; i < WAYS && !e; i++)
        if (b[i].key == key) e = &b[i];
    if (!e) {
        for (i = 0; i < WAYS && !e; i++)
            if (!b[i].key) e = &b[i];
        if (!e) {
            e = &b[0];
            for (i = 1; i < WAYS; i++)
                if (worth(&b[i]) < worth(e)) e = &b[i];
        }
        /* A new entry (its lock left alone; the rest set below). */
        e->key = key;
        e->proof = e->dis = 0;
        e->move = 0;
    }
    e->pn = pn;
    e->dn = dn;
    e->r = (uint16_t)r;
    e->work = work > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)work;
    if (proof && (!e->proof || proof < e->proof)) {
        e->proof = (uint16_t)proof;
        e->move = move;
    }
    if (dis > e->dis) e->dis = (uint16_t)dis;
    unlock_bucket(s, key);
}

/* ---- Nodes. */

/* The frame of a depth, made when first needed; NULL when out of memory. */
static sv_frame *frame_at(sv_worker *w, int depth) {
    if (depth >= w->nframes) {
        int n = w->nframes ? w->nframes : 64, i;
        sv_frame **grown;
        while (n <= depth) n *= 2;
        grown = (sv_frame **)realloc(w->frames, (size_t)n * sizeof *grown);
        if (!grown) return NULL;
        for (i = w->nframes; i < n; i++) grown[i] = NULL;
        w->frames = grown;
        w->nframes = n;
    }
    if (!w->frames[depth]) w->frames[depth] = (sv_frame *)malloc(sizeof(sv_frame));
    return w->frames[depth];
}

static void set_proven(sv_child *c, int pr) {
    c->pn = 0;
    c->dn = INF;
    c->pr = (uint16_t)pr;
}

static void set_disproven(sv_child *c, int dp) {
    c->pn = INF;
    c->dn = 0;
    c->dp = (uint16_t)(dp > ALL_BOUNDS ? ALL_BOUNDS : dp);
}

/* The parent's dp for a child not won within bounds < dis. */
static int dp_of(int dis) { return dis >= ALL_BOUNDS ? ALL_BOUNDS : dis + 1; }

/* Judge the move to c (what it did: flags) from a node with bound r, the
 * way the model judges it: the ply cap when no ply is left, repetition only
 * for the positions find_poison kept. Sets the child's value when the move
 * ends the game, and returns whether it did. */
static int judge_move(const sv_worker *w, sv_child *c, int flags, int r) {
    const bd_solver *s = w->s;
    int winner, outcome, repeats = (s->npoison && poisoned(s, &c->pos)) ? s->v.repeat : 1;
    /* Within a horizon short of the limit (bd_solver_within) the bound is
     * the question's, not the cap: a node with no plies left is only past
     * the question, and the game goes on there. */
    int at_cap = r - 1 == 0 && !s->horizon;
    outcome = bd_judge(&s->v, &c->pos, flags, repeats, at_cap ? s->v.ply_cap : 0, 0, -1, &winner);
    c->end = outcome != BD_ONGOING;
    c->ends_nine = 0;
    if (!c->end && r - 1 == 0 && s->horizon) {
        /* Past the question's last ply: not won within it (as at the cap,
         * for this bound only). */
        c->end = 1;
        set_disproven(c, r + 1);
        return 1;
    }
    if (!c->end) return 0;
    if (winner == w->prover) {
        /* A blocked side's loss is judged after the ply cap: it needs a ply
         * to spare, where the bound is the cap. */
        c->ends_nine = outcome == BD_BY_NO_MOVE;
        set_proven(c, c->ends_nine && !s->horizon ? 2 : 1);
    } else {
        /* At the cap only this bound fails; any other ending, every bound. */
        set_disproven(c, outcome == BD_BY_PLY_CAP ? r + 1 : ALL_BOUNDS);
    }
    return 1;
}

/* A child's value from the table, or from its first estimate. */
static void value_of(sv_worker *w, sv_child *c, int r) {
    bd_solver *s = w->s;
    int rc = r - 1;
    sv_entry e;
    int prover_moves = c->pos.side == w->prover;
    if (probe(s, c->key, &e)) {
        if (e.proof && rc >= e.proof) { set_proven(c, e.proof + 1); return; }
        if (e.dis && rc < e.dis) { set_disproven(c, dp_of(e.dis)); return; }
        if (e.r == rc) { c->pn = e.pn; c->dn = e.dn; return; }
    }
    if (wins_at_once(&s->v, &c->pos)) {
        if (prover_moves) set_proven(c, 2);
        else set_disproven(c, ALL_BOUNDS);
        return;
    }
    if (hopeless(w, &c->pos, rc)) { set_disproven(c, r + 1); return; }
    {
        /* Where the prover moves, one good move will do: pn 1, dn the moves
         * to refute. Where the other side does, every move must be answered,
         * unless the prover threatens to win at once: then only the moves
         * that parry it count, few, and fewer against two threats. */
        num moves = (num)bd_count_moves(&s->v, &c->pos);
        if (moves == 0) moves = 1;
        if (prover_moves) {
            c->pn = 1;
            c->dn = moves;
        } else {
            int t = threats(&s->v, &c->pos, w->prover);
            c->pn = t >= 2 ? 1 : t == 1 ? 1 + moves / 8 : moves;
            c->dn = 1;
        }
    }
}

/* The child of p by move m, made and judged within r plies: judge_move's
 * answer (0 when the move ends nothing). The search's expansion and the
 * proof's extraction make their children alike. */
static int make_child(const sv_worker *w, const bd_pos *p, bd_move m, int r, sv_child *c) {
    bd_report rep;
    c->pos = *p;
    rep = bd_pos_make(&w->s->v, &c->pos, m, BD_MAKE_PLAY);
    c->move = m;
    c->key = c->pos.key ^ w->salt;
    c->pr = c->dp = 0;
    return judge_move(w, c, rep.flags, r);
}

/* Generate the node's moves into f, judged and valued; returns how many. */
static int expand(sv_worker *w, const bd_pos *p, int r, sv_frame *f) {
    bd_move *moves = f->moves;
    int n = bd_gen_moves(&w->s->v, p, moves), i;
    for (i = 0; i < n; i++) {
        sv_child *c = &f->c[i];
        if (!make_child(w, p, moves[i], r, c)) {
#if defined(__GNUC__) || defined(__clang__)
            __builtin_prefetch(bucket(w->s, c->key));
#endif
        }
    }
    for (i = 0; i < n; i++)
        if (!f->c[i].end) value_of(w, &f->c[i], r);
    return n;
}

/* A node's numbers from its children's. */
static void numbers(int or_node, const sv_frame *f, int n, num *pn, num *dn) {
    int i;
    num a = or_node ? INF : 0, b = or_node ? 0 : INF;
    for (i = 0; i < n; i++) {
        const sv_child *c = &f->c[i];
        if (or_node) {
            if (c->pn < a) a = c->pn;
            b = add(b, c->dn);
        } else {
            a = add(a, c->pn);
            if (c->dn < b) b = c->dn;
        }
    }
    *pn = a;
    *dn = b;
}

/* One more position on the count both workers add to at once; the sum. */
static uint64_t add_node(uint64_t *count) {
    uint64_t seen;
    do seen = bd_load64(count);
    while (!bd_cas64(count, seen, seen + 1));
    return seen + 1;
}

/* Count a position expanded, and cut the search where the count reaches
 * the pause, the stop flag is raised, or (workers at once) the other
 * worker proved its side's win. */
static void count_node(sv_worker *w) {
    bd_solver *s = w->s;
    uint64_t total = s->locking ? add_node(&s->nodes) : ++s->nodes;
    w->nodes++;
    if (total >= w->pause) w->abort = 1;
    if (w->nodes >= w->next_stop) {
        w->next_stop = w->nodes + STOP_CHECK;
        if (s->stop && bd_load_flag(s->stop)) {
            w->stopped = 1;
            w->abort = 1;
        }
        if (s->locking && bd_load64(&s->halt)) w->abort = 1;
    }
}

/* What mid found for its node. */
typedef struct sv_result {
    num pn, dn;
    int proof, dis;
} sv_result;

/* The df-pn of node p (key: its key xor the salt) within bound r, until
 * its numbers reach the thresholds or it is settled, or the search is cut
 * (s->abort). Stores what it found, and returns it. */
static sv_result mid(sv_worker *w, const bd_pos *p, uint64_t key, int r, num thpn, num thdn, int depth) {
    sv_result out;
    sv_frame *f = frame_at(w, depth);
    int or_node = p->side == w->prover, n, i;
    uint64_t start = w->nodes;
    num pn, dn;
    bd_move best_move = 0;
    out.proof = out.dis = 0;
    if (!f) {
        w->oom = w->abort = 1;
        out.pn = out.dn = 1;
        return out;
    }
    count_node(w);
    n = expand(w, p, r, f);
    for (;;) {
        int best = -1;
        num b1 = INF, b2 = INF, cth_pn, cth_dn;
        sv_result got;
        numbers(or_node, f, n, &pn, &dn);
        if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || w->abort) break;
        /* The most proving child: the least pn where the prover moves, the
         * least dn where the other side does; and the second least. */
        for (i = 0; i < n; i++) {
            num d = or_node ? f->c[i].pn : f->c[i].dn;
            if (d < b1) { b2 = b1; b1 = d; best = i; }
            else if (d < b2) b2 = d;
        }
        {
            /* 1 + epsilon: the child may go a quarter past the second best. */
            num second = b2 >= INF ? INF : (b2 + b2 / 4 > b2 + 1 ? b2 + b2 / 4 : b2 + 1);
            if (second > INF) second = INF;
            if (or_node) {
                cth_pn = thpn < second ? thpn : second;
                cth_dn = thdn >= INF ? INF : thdn - dn + f->c[best].dn;
            } else {
                cth_dn = thdn < second ? thdn : second;
                cth_pn = thpn >= INF ? INF : thpn - pn + f->c[best].pn;
            }
        }
        got = mid(w, &f->c[best].pos, f->c[best].key, r - 1, cth_pn, cth_dn, depth + 1);
        f = w->frames[depth];   /* the frames' table may have moved, not the frames */
        f->c[best].pn = got.pn;
        f->c[best].dn = got.dn;
        if (got.pn == 0) f->c[best].pr = (uint16_t)(got.proof + 1);
        if (got.dn == 0) f->c[best].dp = (uint16_t)dp_of(got.dis);
    }
    if (pn == 0) {
        /* Proven: the least bound that wins, by the best move where the
         * prover moves, against the worst where the other side does. */
        int need = or_node ? ALL_BOUNDS : 0;
        for (i = 0; i < n; i++) {
            const sv_child *c = &f->c[i];
            if (or_node) {
                if (c->pn == 0 && c->pr < need) { need = c->pr; best_move = c->move; }
            } else if (c->pr > need) {
                need = c->pr;
            }
        }
        out.proof = need;
    } else if (dn == 0) {
        /* Disproven: for every bound below the least any prover's move
         * fails by, or the most the other side's refutation covers. */
        int dis = or_node ? ALL_BOUNDS : 0;
        for (i = 0; i < n; i++) {
            const sv_child *c = &f->c[i];
            if (or_node) {
                if (c->dp < dis) dis = c->dp;
            } else if (c->dn == 0 && c->dp > dis) {
                dis = c->dp;
            }
        }
        out.dis = dis;
    }
    out.pn = pn;
    out.dn = dn;
    store(w->s, key, r, pn, dn, out.proof, out.dis, best_move, w->nodes - start);
    return out;
}

/* ---- The root. */

/* What the table and the solver know of the root for the prover now. */
static void root_facts(bd_solver *s, int prover, int *proof, int *dis) {
    sv_entry e;
    *proof = s->root_proof[prover];
    *dis = s->root_dis[prover];
    if (probe(s, s->root.key ^ SALT[prover], &e)) {
        if (e.proof && (!*proof || e.proof < *proof)) *proof = e.proof;
        if (e.dis > *dis) *dis = e.dis;
    }
    s->root_proof[prover] = *proof;
    s->root_dis[prover] = *dis;
}

static void set_prover(sv_worker *w, int prover) {
    w->prover = prover;
    w->salt = SALT[prover];
}

/* df-pn from node p for the prover within bound r, until it is settled or
 * the search is cut. 1: proven, 0: disproven, -1: cut. */
static int search_node(sv_worker *w, const bd_pos *p, int r, int depth) {
    for (;;) {
        sv_result got;
        sv_entry e;
        int known = probe(w->s, p->key ^ w->salt, &e);
        if (known && e.proof && r >= e.proof) return 1;
        if (known && e.dis && r < e.dis) return 0;
        if (w->abort) return -1;
        got = mid(w, p, p->key ^ w->salt, r, INF, INF, depth);
        if (got.pn == 0) return 1;
        if (got.dn == 0) return 0;
        if (w->abort) return -1;
    }
}

/* Prove p within bound r again, from its moves: for a position whose own
 * fact survived in the table while those of the moves below it were
 * replaced (search_node would take the fact and look no further). 1:
 * proven, 0: not, -1: cut. */
static int research(sv_worker *w, const bd_pos *p, int r, int depth) {
    sv_result got;
    do {
        if (w->abort) return -1;
        got = mid(w, p, p->key ^ w->salt, r, INF, INF, depth);
    } while (got.pn != 0 && got.dn != 0 && !w->abort);
    return got.pn == 0 ? 1 : got.dn == 0 ? 0 : -1;
}

static int search_root(sv_worker *w, int prover, int r) {
    bd_solver *s = w->s;
    int result, proof, dis;
    set_prover(w, prover);
    w->bound = r;
    if (r < 1) return 0;   /* the root is not over: no win within no ply */
    root_facts(s, prover, &proof, &dis);
    if (proof && r >= proof) return 1;
    if (dis && r < dis) return 0;
    result = search_node(w, &s->root, r, 0);
    root_facts(s, prover, &proof, &dis);
    return result;
}

/* ---- Extracting the proof. */

static uint64_t pm_hash(const bd_pos *p) { return p->key ^ (p->key >> 29); }

static pm_slot *pm_find(bd_solver *s, const bd_pos *p) {
    uint64_t i = pm_hash(p) & s->pm_mask;
    for (;; i = (i + 1) & s->pm_mask) {
        pm_slot *e = &s->pm[i];
        if (!e->state) return e;
        if (e->att == p->att && e->dfn == p->dfn && e->king == p->king && e->side == p->side) return e;
    }
}

static int pm_grow(bd_solver *s) {
    uint64_t old = s->pm_mask + 1, n = s->pm ? old * 2 : 1024, i;
    pm_slot *prev = s->pm;
    s->pm = (pm_slot *)calloc((size_t)n, sizeof *s->pm);
    if (!s->pm) { s->pm = prev; return -1; }
    s->pm_mask = n - 1;
    for (i = 0; prev && i < old; i++) {
        if (prev[i].state) {
            bd_pos p;
            pm_slot *e;
            memset(&p, 0, sizeof p);
            p.att = prev[i].att;
            p.dfn = prev[i].dfn;
            p.king = prev[i].king;
            p.side = prev[i].side;
            bd_pos_rekey(&p);
            e = pm_find(s, &p);
            *e = prev[i];
        }
    }
    free(prev);
    return 0;
}

static void pm_reset(bd_solver *s) {
    free(s->pm);
    s->pm = NULL;
    s->pm_mask = 0;
    s->pm_count = 0;
    s->nlines = 0;
}

/* The slot for p, made (state 0) when new; NULL when out of memory. */
static pm_slot *pm_slot_of(bd_solver *s, const bd_pos *p) {
    pm_slot *e;
    if (!s->pm || (s->pm_count + 1) * 2 > s->pm_mask + 1) {
        if (pm_grow(s) != 0) return NULL;
    }
    e = pm_find(s, p);
    if (!e->state) {
        e->att = p->att;
        e->dfn = p->dfn;
        e->king = p->king;
        e->side = p->side;
    }
    return e;
}

static int add_line(bd_solver *s, const bd_pos *p) {
    if (s->nlines == s->lines_cap) {
        uint64_t n = s->lines_cap ? s->lines_cap * 2 : 256;
        pm_line *grown = (pm_line *)realloc(s->lines, (size_t)n * sizeof *grown);
        if (!grown) return -1;
        s->lines = grown;
        s->lines_cap = n;
    }
    s->lines[s->nlines].pos = *p;
    s->lines[s->nlines].move = 0;
    return (int)s->nlines++;
}

enum { EX_OK = 0, EX_FAIL = 1, EX_OOM = 2 };

/* A proven child's need as the table has it, or 0: the parent's bound
 * needed to win by the move (terminal moves: judged). */
static int child_need(sv_worker *w, sv_child *c, int b) {
    if (c->end) return c->pn == 0 ? c->pr : 0;
    value_of(w, c, b);
    return c->pn == 0 ? c->pr : 0;
}

/* Extract the proof below p, which wins within bound b; *need and *plies
 * get what its proof needs and its longest line. Re-proves what the table
 * has lost, within the search's limit. */
static int extract(sv_worker *w, const bd_pos *p, int b, int depth, int *need_out, int *plies_out) {
    bd_solver *s = w->s;
    pm_slot *slot = pm_slot_of(s, p);
    sv_frame *f;
    int n, i, need = 0, plies = 0, line = -1, retried = 0;
    if (!slot) return EX_OOM;
    if (slot->state == 2) {
        if (slot->need > b) return EX_FAIL;
        *need_out = slot->need;
        *plies_out = slot->plies;
        return EX_OK;
    }
    if (slot->state == 1) return EX_FAIL;   /* a cycle: never part of a proof */
    slot->state = 1;
    s->pm_count++;
    if (p->side == w->prover) {
        slot->winner_moves = 1;
        line = add_line(s, p);
        if (line < 0) return EX_OOM;
    }
again:
    f = frame_at(w, depth);
    if (!f) return EX_OOM;
    {
        bd_move *moves = f->moves;
        n = bd_gen_moves(&s->v, p, moves);
        for (i = 0; i < n; i++) make_child(w, p, moves[i], b, &f->c[i]);
    }
    if (p->side == w->prover) {
        /* The move whose proof needs least; a move to a position on the line
         * being extracted never (it would repeat it). */
        int best = -1, best_need = b + 1, got, cn = 0, cp = 0;
        for (i = 0; i < n; i++) {
            sv_child *c = &f->c[i];
            int k = child_need(w, c, b);
            if (!k || k >= best_need) continue;
            if (!c->end) {
                pm_slot *e = pm_find(s, &c->pos);
                if (e->state == 1) continue;
            }
            best = i;
            best_need = k;
        }
        if (best < 0) {
            /* The table lost this position's proof: search it again. */
            if (retried || w->abort) return w->oom ? EX_OOM : EX_FAIL;
            retried = 1;
            if (research(w, p, b, depth + 1) != 1) return w->oom ? EX_OOM : EX_FAIL;
            goto again;
        }
        {
            sv_child c = f->c[best];
            if (c.end) {
                cn = 0;
                cp = 0;
                need = c.pr;
                plies = 1;
            } else {
                got = extract(w, &c.pos, c.pr - 1, depth + 1, &cn, &cp);
                if (got != EX_OK) return got;
                need = cn + 1;
                plies = cp + 1;
            }
            slot = pm_find(s, p);
            slot->move = c.move;
            s->lines[line].move = c.move;
        }
    } else {
        for (i = 0; i < n; i++) {
            sv_child c;
            int k, cn, cp, got;
            f = w->frames[depth];
            c = f->c[i];
            if (c.end) {
                if (c.pn != 0 || c.pr > b) return EX_FAIL;
                if (c.pr > need) need = c.pr;
                if (plies < 1) plies = 1;
                continue;
            }
            k = child_need(w, &c, b);
            if (!k || k > b) {
                /* Lost from the table: prove the reply again within what is left. */
                if (research(w, &c.pos, b - 1, depth + 1) != 1) return w->oom ? EX_OOM : EX_FAIL;
                k = child_need(w, &c, b);
                if (!k || k > b) return EX_FAIL;
            }
            got = extract(w, &c.pos, k - 1, depth + 1, &cn, &cp);
            if (got != EX_OK) return got;
            if (cn + 1 > need) need = cn + 1;
            if (cp + 1 > plies) plies = cp + 1;
        }
    }
    slot = pm_find(s, p);
    if (need > b) return EX_FAIL;
    slot->state = 2;
    slot->need = (uint16_t)need;
    slot->plies = (uint16_t)plies;
    *need_out = need;
    *plies_out = plies;
    return EX_OK;
}

/* Extract the winner's proof from the root within the bound it is proven
 * in, and keep it when whole. 1: kept; 0: it could not be rebuilt (the
 * table lost facts it needed, and searching them again failed); -1: out
 * of memory. */
static int extract_root(bd_solver *s) {
    sv_worker *w = &s->w[0];
    int tries, proof, dis;
    set_prover(w, s->winner);
    for (tries = 0; tries < EXTRACT_TRIES; tries++) {
        int need = 0, plies = 0, got;
        pm_reset(s);
        root_facts(s, s->winner, &proof, &dis);
        got = extract(w, &s->root, proof, 0, &need, &plies);
        if (got == EX_OOM) return -1;
        if (got == EX_OK) {
            pm_line *swap = s->kept;
            uint64_t cap = s->kept_cap;
            s->kept = s->lines;
            s->kept_cap = s->lines_cap;
            s->nkept = s->nlines;
            s->lines = swap;
            s->lines_cap = cap;
            s->kept_positions = s->pm_count;
            s->kept_need = need;
            s->plies = plies;
            s->first_move = s->root.side == s->winner ? s->kept[0].move : 0;
            pm_reset(s);
            return 1;
        }
        if (w->abort) break;
    }
    pm_reset(s);
    return 0;
}

/* ---- A draw's proof: each side's win refuted, written down.
 *
 * The refutation of the prover's win within bound r below p: where the
 * prover moves, every move refuted; where the other side (the refuter)
 * moves, one move that refutes, the one whose fact covers the most plies
 * (so that a position met again within more plies keeps its move), a move
 * that ends the game first among equals. A position is written down once,
 * and gone through again only when met within more plies than before (one
 * on the line above is within more plies already: covered there). What
 * the table lost is searched again. */
static int refute(sv_worker *w, const bd_pos *p, int r, int depth, uint64_t most) {
    bd_solver *s = w->s;
    pm_slot *slot = pm_slot_of(s, p);
    sv_frame *f;
    int n, i, retried = 0;
    if (!slot) return EX_OOM;
    if (slot->state == 1 || (slot->state == 2 && slot->need >= r)) return EX_OK;
    if (!slot->state) {
        if (++s->pm_count > most) return EX_FAIL;
        if (p->side != w->prover) {
            int line = add_line(s, p);
            if (line < 0) return EX_OOM;
            slot = pm_find(s, p);
            slot->line = (uint64_t)line;
        }
    }
    slot->state = 1;
again:
    f = frame_at(w, depth);
    if (!f) return EX_OOM;
    n = bd_gen_moves(&s->v, p, f->moves);
    for (i = 0; i < n; i++) make_child(w, p, f->moves[i], r, &f->c[i]);
    if (p->side == w->prover) {
        for (i = 0; i < n; i++) {
            sv_child c = w->frames[depth]->c[i];
            int got;
            if (c.end) {
                if (c.pn == 0) return EX_FAIL;   /* the prover wins by it */
                continue;
            }
            value_of(w, &c, r);
            if (!(c.dn == 0 && c.dp > r)) {
                if (research(w, &c.pos, r - 1, depth + 1) != 0) return w->oom ? EX_OOM : EX_FAIL;
                value_of(w, &c, r);
                if (!(c.dn == 0 && c.dp > r)) return EX_FAIL;
            }
            got = refute(w, &c.pos, r - 1, depth + 1, most);
            if (got != EX_OK) return got;
        }
    } else {
        int best = -1, best_dp = r;
        sv_child c;
        for (i = 0; i < n; i++) {
            sv_child *d = &f->c[i];
            int dp;
            if (d->end) dp = d->pn == 0 ? 0 : d->dp;
            else {
                value_of(w, d, r);
                dp = d->dn == 0 ? d->dp : 0;
            }
            if (dp > best_dp || (dp == best_dp && best >= 0 && d->end && !f->c[best].end)) {
                best = i;
                best_dp = dp;
            }
        }
        if (best < 0) {
            if (retried || w->abort) return w->oom ? EX_OOM : EX_FAIL;
            retried = 1;
            if (research(w, p, r, depth + 1) != 0) return w->oom ? EX_OOM : EX_FAIL;
            goto again;
        }
        c = f->c[best];
        slot = pm_find(s, p);
        s->lines[slot->line].move = c.move;
        if (!c.end) {
            int got = refute(w, &c.pos, r - 1, depth + 1, most);
            if (got != EX_OK) return got;
        }
    }
    slot = pm_find(s, p);
    slot->state = 2;
    slot->need = (uint16_t)r;
    return EX_OK;
}

int bd_solver_refutation(bd_solver *s, int prover, uint64_t most, uint64_t *lines) {
    sv_worker *w = &s->w[0];
    int got;
    *lines = 0;
    if (s->solved != BD_SOLVED_DRAW || !s->limit || prover < 0 || prover > 1) return 1;
    set_prover(w, prover);
    pm_reset(s);
    w->abort = w->stopped = 0;
    s->stop = NULL;
    w->pause = (uint64_t)-1;
    got = refute(w, &s->root, s->limit, 0, most);
    s->refuted_positions = s->pm_count;
    free(s->pm);
    s->pm = NULL;
    s->pm_mask = s->pm_count = 0;
    if (got == EX_OOM) { s->nlines = 0; return -1; }
    if (got != EX_OK) { s->nlines = 0; return 1; }
    *lines = s->nlines;
    return 0;
}

int bd_solver_refutation_line(const bd_solver *s, uint64_t i, char *position, bd_move *move) {
    if (i >= s->nlines) return 0;
    bd_pos_to_string(&s->lines[i].pos, position);
    *move = s->lines[i].move;
    return 1;
}

uint64_t bd_solver_refuted_positions(const bd_solver *s) { return s->refuted_positions; }

/* ---- The interface. */

bd_solver *bd_solver_new(const bd_game *g, uint64_t tt_bytes) {
    bd_solver *s = (bd_solver *)calloc(1, sizeof *s);
    uint64_t buckets = 1u << 10;
    const bd_entry *now;
    if (!s) return NULL;
    s->w[0].s = s->w[1].s = s;
    s->threads = 1;
    s->v = g->v;
    now = &g->hist[g->ply];
    s->root = now->pos;
    s->root_ply = g->ply;
    s->root_quiet = now->quiet;
    s->winner = BD_NOBODY;
    s->only = -1;
    if (g->outcome != BD_ONGOING) {
        /* Over already: nothing to prove. */
        s->stage = BD_STAGE_DONE;
        s->winner = g->winner;
        s->solved = g->winner == BD_NOBODY ? BD_SOLVED_DRAW : BD_SOLVED_WIN;
        return s;
    }
    s->limit = s->v.ply_cap - s->root_ply;
    s->exact = s->v.repetition == BD_END_DRAW;
    if (s->v.quiet_cap) {
        int quiet_left = s->v.quiet_cap - s->root_quiet;
        if (quiet_left < s->limit) {
            s->limit = quiet_left;
            s->exact = 0;
        }
    }
    if (s->limit < 1) s->limit = 1;
    s->only = -1;
    s->within = s->limit;
    if (find_poison(s, g) != 0) { bd_solver_free(s); return NULL; }
    s->exact_within = repetition_free(s, g);
    while (buckets < ((uint64_t)1 << 36) && buckets * 2 * WAYS * sizeof(sv_entry) <= tt_bytes) buckets *= 2;
    s->mask = buckets - 1;
    s->tt_bytes = (size_t)(buckets * WAYS * sizeof(sv_entry));
    s->tt = (sv_entry *)bd_zeroed(s->tt_bytes);
    if (!s->tt) { bd_solver_free(s); return NULL; }
    /* The side to move first: more often the one that wins, in a position
     * anyone asks about. */
    s->turn = s->root.side;
    /* The root is not over: neither side has won within no ply. Each side's
     * first bound: one ply for the side to move, two for the other. */
    s->root_dis[0] = s->root_dis[1] = 1;
    s->side_bound[s->root.side] = 1;
    s->side_bound[s->root.side ^ 1] = s->limit < 2 ? s->limit : 2;
    s->stage = BD_STAGE_PROVE;
    s->solved = BD_SOLVED_OPEN;
    return s;
}

int bd_solver_within(bd_solver *s, int prover, int within) {
    if (prover != BD_ATTACKERS && prover != BD_DEFENDERS) return -1;
    if (within < 1) return -1;
    if (s->stage != BD_STAGE_PROVE || s->nodes != 0) return -1;   /* over already, or under way */
    s->only = prover;
    s->horizon = within < s->limit;
    s->within = within < s->limit ? within : s->limit;
    /* The first bound as bd_solver_new has it, within this one. */
    if (s->side_bound[prover] > s->within) s->side_bound[prover] = s->within;
    s->turn = prover;
    return 0;
}

void bd_solver_free(bd_solver *s) {
    int i, k;
    if (!s) return;
    if (s->tt) bd_zeroed_free(s->tt, s->tt_bytes);
    for (k = 0; k < 2; k++) {
        for (i = 0; i < s->w[k].nframes; i++) free(s->w[k].frames[i]);
        free(s->w[k].frames);
    }
    free(s->poison);
    free(s->pm);
    free(s->lines);
    free(s->kept);
    free(s);
}

/* The most plies within which the prover is proven not to win, from the
 * root's fact "not won within any bound below dis". Where the bound is the
 * cap (a full solve, or a question up to the limit), a blocked side's loss
 * needs a ply to spare: not won with the cap n + 1 plies away says only
 * that the prover does not win within n plies of a game whose cap is
 * further, unless n + 1 is the rules' own cap. */
static int no_win_within(const bd_solver *s, int prover) {
    int n = s->root_dis[prover] > 0 ? s->root_dis[prover] - 1 : 0;
    if (n < s->limit && !s->horizon && s->v.no_move == BD_END_LOSS) n = n > 0 ? n - 1 : 0;
    return n;
}

static void status(const bd_solver *s, bd_solve_status *out) {
    memset(out, 0, sizeof *out);
    out->solved = s->solved;
    out->winner = s->solved == BD_SOLVED_WIN ? s->winner : BD_NOBODY;
    out->stage = s->stage;
    out->prover = s->w[0].prover;
    out->bound = s->w[0].bound;
    out->limit = s->limit;
    out->nodes = s->nodes;
    out->stopped = s->stopped;
    out->no_win_within[0] = no_win_within(s, 0);
    out->no_win_within[1] = no_win_within(s, 1);
    out->exact_within = s->exact_within;
    out->only = s->only;
    out->within = s->only >= 0 ? s->within : s->limit;
    out->both = s->threads > 1 && s->stage == BD_STAGE_PROVE && s->only < 0 && s->side_state[0] == SIDE_OPEN
                && s->side_state[1] == SIDE_OPEN;
    if (s->solved == BD_SOLVED_WIN) {
        out->plies = s->plies;
        /* A game over already (limit 0) is its own shortest win. */
        out->shortest = !s->limit || (s->kept_need > 0 && s->root_dis[s->winner] >= s->kept_need);
        out->first_move = s->first_move;
        out->proof_positions = s->kept_positions;
        out->proof_lines = s->nkept;
    }
}

/* The bound after b: the bounds a side's win is looked for within go up
 * by two plies (the prover's move and the reply) to 16, then by an eighth
 * each time, up to the limit. Searching the shortest bounds first finds
 * the shortest win first, and keeps df-pn from following a line of
 * threats, each parried, far deeper than the win it looks for (with the
 * whole ply cap as its bound it spent 20 million positions on a win in 8
 * that it proves in 50,000 within 15). */
static int bound_after(const bd_solver *s, int b) {
    int next = b < 16 ? b + 2 : b + b / 8, cap = s->only >= 0 ? s->within : s->limit;
    return next < cap ? next : cap;
}

/* One step of the prove stage: a turn (or what is left of it) for the
 * side whose turn it is, the two in turn, each turn of a side twice as
 * long as its last. Within a turn, a bound disproven gives way to the next. */
static void prove_step(bd_solver *s, uint64_t until) {
    sv_worker *w = &s->w[0];
    int x, got;
    if (s->only >= 0) {
        /* One side's win within one bound: no turns, the bounds up to it. */
        x = s->only;
        w->pause = until;
        got = search_root(w, x, s->side_bound[x]);
        if (got == 1) {
            s->side_state[x] = SIDE_PROVEN;
            s->winner = x;
            s->stage = BD_STAGE_EXTRACT;
        } else if (got == 0 && s->side_bound[x] < s->within) {
            s->side_bound[x] = bound_after(s, s->side_bound[x]);
        } else if (got == 0) {
            s->side_state[x] = SIDE_DISPROVEN;
            s->stage = BD_STAGE_DONE;
            s->solved = BD_SOLVED_NO_WIN;
        }
        return;
    }
    if (!s->turn_end) {
        if (s->side_state[s->turn] != SIDE_OPEN) s->turn ^= 1;
        s->turn_end = s->nodes + ((uint64_t)QUANTUM << s->level[s->turn]);
    }
    x = s->turn;
    w->pause = until < s->turn_end ? until : s->turn_end;
    got = search_root(w, x, s->side_bound[x]);
    if (got == 1) {
        s->side_state[x] = SIDE_PROVEN;
        s->winner = x;
        s->stage = BD_STAGE_EXTRACT;
        s->turn_end = 0;
    } else if (got == 0 && s->side_bound[x] < s->limit) {
        s->side_bound[x] = bound_after(s, s->side_bound[x]);
    } else if (got == 0) {
        s->side_state[x] = SIDE_DISPROVEN;
        s->turn_end = 0;
        s->turn = x ^ 1;
        if (s->side_state[x ^ 1] == SIDE_DISPROVEN) {
            s->stage = BD_STAGE_DONE;
            s->solved = s->exact ? BD_SOLVED_DRAW : BD_SOLVED_UNKNOWN;
        }
    } else if (!w->stopped && !w->oom && s->nodes >= s->turn_end) {
        /* The turn is spent: the next is twice as long for this side. */
        s->level[x]++;
        s->turn_end = 0;
        s->turn = x ^ 1;
    }
}

/* ---- Both sides at once (bd_solver_threads 2).
 *
 * The two sides' searches share nothing but the table (each its own
 * entries, kept apart by the salt: a position cannot be both sides' win)
 * and the count of positions, so each runs on its own thread, worker x on
 * side x's win, within bounds that grow as prove_step's do, until its side
 * is proven, disproven within the limit, or the count reaches the pause
 * (an atomic count: the budget is both's), or the stop flag is raised, or
 * the other worker proves its side's win (`halt`). Each worker writes only
 * its own side's state, bound and root facts, which the caller reads once
 * both are joined. No turns: each side's search runs as long as the other
 * does. The verdict rests on facts of the same kind as one thread's (each
 * true: the table's comment above), so a win, a disproof and a draw mean
 * what they mean on one thread; the counts, the proof's shape and what a
 * budget reaches depend on how the threads ran. */

static void side_search(void *arg) {
    sv_worker *w = (sv_worker *)arg;
    bd_solver *s = w->s;
    int x = (int)(w - s->w);
    while (!w->abort) {
        int got = search_root(w, x, s->side_bound[x]);
        if (got == 1) {
            s->side_state[x] = SIDE_PROVEN;
            bd_cas64(&s->halt, 0, (uint64_t)x + 1);
        } else if (got == 0 && s->side_bound[x] < s->limit) {
            s->side_bound[x] = bound_after(s, s->side_bound[x]);
            continue;
        } else if (got == 0) {
            s->side_state[x] = SIDE_DISPROVEN;
        }
        break;
    }
    /* Out of memory: the other worker stops too (the solver is of no more use). */
    if (w->oom) bd_cas64(&s->halt, 0, 3);
}

/* Search both sides' wins at once, until `until` positions in all, or one
 * side proven, or both disproven, or the stop flag. 0 where it cannot (one
 * thread asked, one side's question, a side settled already, or the
 * platform gives no thread): prove_step then goes on alone. */
static int solve_both(bd_solver *s, uint64_t until) {
    bd_thread *helper;
    int k, first;
    if (s->threads < 2 || s->only >= 0 || s->side_state[0] != SIDE_OPEN || s->side_state[1] != SIDE_OPEN)
        return 0;
    for (k = 0; k < 2; k++) {
        sv_worker *w = &s->w[k];
        w->pause = until;
        w->abort = w->stopped = w->oom = 0;
        w->next_stop = w->nodes;
    }
    s->halt = 0;
    s->locking = 1;
    helper = bd_thread_start(side_search, &s->w[1]);
    if (!helper) {
        s->locking = 0;
        return 0;
    }
    side_search(&s->w[0]);
    bd_thread_join(helper);
    s->locking = 0;
    /* A turn prove_step had under way is over: it starts a new one. */
    s->turn_end = 0;
    for (k = 0; k < 2; k++) {
        s->stopped |= s->w[k].stopped;
        s->oom |= s->w[k].oom;
    }
    first = s->halt == 1 || s->halt == 2 ? (int)s->halt - 1 : -1;
    if (first >= 0) {
        s->winner = first;
        s->stage = BD_STAGE_EXTRACT;
    } else if (s->side_state[0] == SIDE_DISPROVEN && s->side_state[1] == SIDE_DISPROVEN) {
        s->stage = BD_STAGE_DONE;
        s->solved = s->exact ? BD_SOLVED_DRAW : BD_SOLVED_UNKNOWN;
    }
    /* What the status shows: the win proven, or the side still looked for. */
    k = first >= 0 ? first : s->side_state[0] != SIDE_OPEN ? 1 : 0;
    if (k == 1) {
        set_prover(&s->w[0], 1);
        s->w[0].bound = s->w[1].bound;
    }
    return 1;
}

int bd_solver_threads(bd_solver *s, int threads) {
#ifdef BD_NO_THREADS
    threads = 1;
#endif
    s->threads = threads >= 2 ? 2 : 1;
    return s->threads;
}

/* Look for a win shorter than the proof in hand: the same search within
 * one ply fewer than the proof needs. */
static void shorten_step(bd_solver *s, uint64_t until) {
    sv_worker *w = &s->w[0];
    int x = s->winner, got;
    if (s->root_dis[x] >= s->kept_need) { s->stage = BD_STAGE_DONE; return; }
    w->pause = until;
    got = search_root(w, x, s->kept_need - 1);
    if (got == 1) s->stage = BD_STAGE_EXTRACT;
}

int bd_solver_run(bd_solver *s, uint64_t nodes, const volatile int *stop, bd_solve_status *out) {
    sv_worker *w = &s->w[0];
    uint64_t until = s->nodes + nodes;
    s->stop = stop;
    s->stopped = w->stopped = 0;
    w->next_stop = w->nodes;
    while (s->stage != BD_STAGE_DONE && !s->stopped && !s->oom) {
        w->abort = 0;
        if (s->stage == BD_STAGE_PROVE) {
            if (s->nodes >= until) break;
            if (!solve_both(s, until)) prove_step(s, until);
        } else if (s->stage == BD_STAGE_SHORTEN) {
            if (s->nodes >= until) break;
            shorten_step(s, until);
        } else {
            /* Extracting may search again what the table lost: up to as many
             * positions again as the search has expanded, past the budget. */
            int got;
            w->pause = s->nodes + (s->nodes > (1u << 20) ? s->nodes : (1u << 20));
            got = extract_root(s);
            if (got < 0) { s->oom = 1; break; }
            if (w->stopped) { s->stopped = 1; break; }
            if (got == 1) {
                s->solved = BD_SOLVED_WIN;
                /* The question bd_solver_within asked is answered. */
                s->stage = s->only >= 0 ? BD_STAGE_DONE : BD_STAGE_SHORTEN;
            } else {
                /* Keep the proof in hand, if any; it is not shown the shortest. */
                s->stage = BD_STAGE_DONE;
                if (!s->nkept) s->solved = BD_SOLVED_LOST;
            }
        }
        s->stopped |= w->stopped;
        s->oom |= w->oom;
    }
    status(s, out);
    return s->oom ? -1 : 0;
}

int bd_solver_proof_line(const bd_solver *s, uint64_t i, char *position, bd_move *move) {
    if (s->solved != BD_SOLVED_WIN || i >= s->nkept) return 0;
    bd_pos_to_string(&s->kept[i].pos, position);
    *move = s->kept[i].move;
    return 1;
}

/* ---- Saving and resuming (brandubh solve --state).
 *
 * What a solver needs to go on where it stopped: the table, the proof in
 * hand, and the few numbers below; not the frames (a call starts from the
 * root each time, so nothing is on the stack between calls), nor the proof
 * map or lines being extracted (an extraction cut short starts again), nor
 * the positions that end the game by repetition (the game gives them
 * again). Written in the machine's byte order, and refused by a solver
 * whose layout, game or table differs. */
/* bd_solver_within's question as one number, 0 for none: a state is
 * resumed only by a solver asked the same. */
static int32_t asked_code(const bd_solver *s) { return s->only < 0 ? 0 : 1 + s->only + 2 * s->within; }

uint64_t bd_solver_state(bd_solver *s, int part, void **at) {
    sv_saved head;
    switch (part) {
    case 0:
        memset(&head, 0, sizeof head);
        head.magic = SV_MAGIC;
        head.version = SV_VERSION;
        head.entry_size = (uint32_t)sizeof(sv_entry);
        head.line_size = (uint32_t)sizeof(pm_line);
        head.ways = WAYS;
        head.buckets = s->tt ? s->mask + 1 : 0;
        head.root_key = s->root.key;
        head.root_ply = s->root_ply;
        head.root_quiet = s->root_quiet;
        head.limit = s->limit;
        head.exact = s->exact;
        head.solved = s->solved;
        head.winner = s->winner;
        head.stage = s->stage;
        head.prover = s->w[0].prover;
        head.bound = s->w[0].bound;
        head.turn = s->turn;
        memcpy(head.side_state, s->side_state, sizeof head.side_state);
        memcpy(head.level, s->level, sizeof head.level);
        memcpy(head.side_bound, s->side_bound, sizeof head.side_bound);
        memcpy(head.root_proof, s->root_proof, sizeof head.root_proof);
        memcpy(head.root_dis, s->root_dis, sizeof head.root_dis);
        head.kept_need = s->kept_need;
        head.plies = s->plies;
        head.first_move = s->first_move;
        head.asked = asked_code(s);
        head.nodes = s->nodes;
        head.turn_end = s->turn_end;
        head.nkept = s->nkept;
        head.kept_positions = s->kept_positions;
        s->saved = head;
        *at = &s->saved;
        return sizeof head;
    case 1:
        *at = s->tt;
        return s->tt ? (uint64_t)s->tt_bytes : 0;
    case 2:
        *at = s->kept;
        return s->nkept * (uint64_t)sizeof(pm_line);
    default:
        *at = NULL;
        return 0;
    }
}

int bd_solver_restore(bd_solver *s, const void *data, uint64_t len) {
    sv_saved head;
    if (len != sizeof head) return BD_RESTORE_FORMAT;
    memcpy(&head, data, sizeof head);
    if (head.magic != SV_MAGIC || head.version != SV_VERSION || head.entry_size != sizeof(sv_entry)
        || head.line_size != sizeof(pm_line) || head.ways != WAYS)
        return BD_RESTORE_FORMAT;
    if (head.root_key != s->root.key || head.root_ply != s->root_ply || head.root_quiet != s->root_quiet
        || head.limit != s->limit || head.exact != s->exact || head.asked != asked_code(s))
        return BD_RESTORE_GAME;
    if (head.buckets != (s->tt ? s->mask + 1 : 0)) return BD_RESTORE_TABLE;
    if (head.stage < BD_STAGE_PROVE || head.stage > BD_STAGE_DONE || head.turn < 0 || head.turn > 1
        || head.prover < 0 || head.prover > 1 || head.nkept > ((uint64_t)1 << 40))
        return BD_RESTORE_FORMAT;
    if (head.nkept > s->kept_cap) {
        pm_line *grown = (pm_line *)realloc(s->kept, (size_t)head.nkept * sizeof *grown);
        if (!grown) return BD_RESTORE_MEMORY;
        s->kept = grown;
        s->kept_cap = head.nkept;
    }
    s->solved = head.solved;
    s->winner = head.winner;
    s->stage = head.stage;
    set_prover(&s->w[0], head.prover);
    s->w[0].bound = head.bound;
    s->turn = head.turn;
    memcpy(s->side_state, head.side_state, sizeof head.side_state);
    memcpy(s->level, head.level, sizeof head.level);
    memcpy(s->side_bound, head.side_bound, sizeof head.side_bound);
    memcpy(s->root_proof, head.root_proof, sizeof head.root_proof);
    memcpy(s->root_dis, head.root_dis, sizeof head.root_dis);
    s->kept_need = head.kept_need;
    s->plies = head.plies;
    s->first_move = (bd_move)head.first_move;
    s->nodes = head.nodes;
    s->turn_end = head.turn_end;
    s->nkept = head.nkept;
    s->kept_positions = head.kept_positions;
    return 0;
}

/* The search. Numbered steps in search() and qsearch() are the order things
 * are asked at each position.
 *
 * What each feature is worth, measured with `brandubh match` (the feature
 * on against the same search with it off, 400 games at each budget of
 * positions a move, colours swapped, brandubh rules, Bench: 1154633; Elo
 * with its 95% margin):
 *                                    20,000       200,000
 *   quiescence                      +229 +- 40   +220 +- 40
 *   late move reductions             +26 +- 33    +77 +- 33
 *   principal variation search       +31 +- 33    +71 +- 34
 *   transposition table              +27 +- 33    +38 +- 33
 *   history                           +5 +- 33     +9 +- 33
 *   open line home as check           -5 +- 32     +7 +- 33
 *   killer moves                      -6 +- 32     +5 +- 33
 *   blocks of the king's line first  -24 +- 32    -17 +- 33
 *   root fail-low extension (codingame rules, 20,000 and 125,000):
 *                                    +11 +- 15    -5 +- 34
 *     (2,000 games at 20,000, where 400 gave -5 +- 34; 400 at 125,000)
 *   the NNUE's sums carried from move to move (incremental): speed only,
 *     the same search node for node; off, 26% more instructions
 * Clear of the noise: quiescence, and at the larger budget the reductions,
 * PVS and the table. The rest are within it; blocks first measured below
 * zero twice, not clearly, and is the next candidate to drop. Treating an
 * open line as check cost 44 Elo when it tried every attacker move instead
 * of only the saving ones.
 *
 * The pruning added after them (steps 7, 8b and 10), each measured off
 * against the search with all of them, 1,000 pairs of games (one balanced
 * opening, the sides swapped) at 50,000 positions a move, brandubh rules,
 * Bench: 770305 (Elo with its 95% margin):
 *   reverse futility (rfp)           +28.9 +- 12.0
 *   futility pruning (futility)      +11.5 +- 11.0
 *   deeper reductions (lmr_deep)     +12.0 +- 11.4
 * The three together against the search before them: +132.7 +- 13.0 at
 * 50,000 positions a move, and +87.2 (+65.3 to +109.7) at the CodinGame
 * puzzle's clock, 50 ms a move (the pentanomial SPRT 0,5 accepted it
 * after 234 pairs). Reverse futility alone, against the search with none
 * of them, was +100 at 50,000 (margins of 15 to 20 up to depth 7 or 10),
 * +81 to +87 with a margin of 25 and +61 with 40; beside the other two,
 * which prune some of the same nodes, it adds the +29 above. Pruning
 * late quiet moves by their count rather than the evaluation (late move
 * pruning) cost 62 Elo keeping 4 + depth^2 moves up to depth 3, and
 * gained nothing keeping 8 + depth^2 up to depth 2: not kept.
 *
 * The table's two entries a slot (csrc/tt.h) came after them, against one
 * entry a slot: +14.3 +- 11.5 at 50,000 positions a move, +19.8 (+9.4 to
 * +30.3) at 50 ms a move (SPRT 0,5 accepted after 1,008 pairs);
 * Bench: 813939.
 *
 * Internal iterative reduction (step 6b, iir) against the search with it
 * off: +15.5 +- 11.3 at 50,000 positions a move, +37.8 (+23.8 to +52.0)
 * at 50 ms a move (SPRT 0,5 accepted after 535 pairs); Bench: 562075.
 *
 * A countermove in the second killer's place (killers_here, countermove)
 * against it off: +15.3 +- 10.8 at 100,000 positions a move, +2.6 +- 10.6
 * at 50,000, +9.1 (+2.6 to +15.7) at 50 ms a move (SPRT 0,5 accepted
 * after 2,326 pairs); Bench: 597529. Tried first, before the killers, it
 * made the bench's trees larger, and was not played.
 *
 * Not kept, at 50,000: a history with a malus for the quiet moves tried
 * before the cut (-1.2 +- 11.2), reductions by history (+1.6 +- 11.8);
 * at 100,000, the attackers extended where the king's line is open
 * (+1.0 +- 10.7). Null move pruning, at 100,000 on against off: from
 * depth 3 with a pass three plus depth / 4 plies less deep, -6.3 +- 10.8;
 * from depth 5 with three plus depth / 6, -1.9 +- 11.0 (docs/searching.md).
 * An aspiration window of +-80 around the last depth's score for the first
 * root move, at 100,000 on against off: +1.0 +- 10.7. The table probed and
 * written in the quiescence search: +1.6 +- 11.2; razoring at depth 1 and
 * 2 (a margin of 80 a move): -11.5 +- 10.9.
 *
 * The move ordering (the table move, wins, captures, blocks, killers,
 * history) is csrc/movepick.c: each node asks its picker for the next
 * move. The killers and the history it reads are kept here (reward). */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "movepick.h"
#include "nnue.h"
#include "thread.h"
#include "tt.h"

#define INF 32000
#define QMAX 12          /* quiescence plies at most */
#define LMR_AFTER 3      /* moves searched in full before reductions start */
/* A root fail low: the first root move scores this much below the last
 * depth's result. The search may then go on for up to half its budget
 * again, until another move scores above that or the depth is done. */
#define FAIL_LOW_MARGIN 50
/* Reverse futility (rfp): off the principal variation, at depth up to
 * RFP_DEPTH, a position whose evaluation stands RFP_MARGIN a move of depth
 * above beta is taken to hold beta without a search. */
#define RFP_DEPTH 7
#define RFP_MARGIN 16
/* Futility pruning (futility): off the principal variation, at depth up to
 * FUTILITY_DEPTH, where the evaluation stands FUTILITY_MARGIN a move of
 * depth below alpha, a soldier's quiet move is left out once some move
 * there does not lose: it would not lift the score that far. */
#define FUTILITY_DEPTH 3
#define FUTILITY_MARGIN 30
#if FUTILITY_DEPTH > RFP_DEPTH
#error "step 7 evaluates up to RFP_DEPTH only"
#endif
/* Deeper reductions (lmr_deep): a late move is reduced by about
 * LMR_PERCENT% of log2(depth) * log2(its place), at least one move, and
 * one less at a node of the principal variation. */
#define LMR_PERCENT 36
/* Internal iterative reduction (iir): from this depth, a node without a
 * table move is searched one ply less (step 6b). Against 4 at 100,000
 * positions a move: from 3, +3.3 +- 10.8; from 6, -13.2 +- 10.9. */
#define IIR_DEPTH 4

typedef struct ctx {
    bd_game *g;                 /* a private copy: the search path is pushed on it */
    const bd_weights *w;
    bd_tt *tt;                  /* &own, or the caller's (limits->table) */
    bd_tt own;
    /* nodes reaching limit sends visit() to check_limits(): at the budget,
     * or every STOP_CHECK positions before it to look at the stop flag. */
    uint64_t nodes, limit, budget;
    uint64_t asked;             /* the caller's budget; budget is more while a
                                   root fail low is extended (set_budget) */
    const volatile int *stop;   /* the caller's, or NULL */
    int stopped;
    int off;                    /* BD_OFF_* */
    struct smp *smp;            /* NULL for one thread; else what the threads share */
    int helper;                 /* 0 for the main thread, k for helper k */
    bd_move killers[BD_MAX_PLY][2];
    int32_t history[2][4096];
    bd_move counter[2][4096];   /* by side and the move before: see killers_here */
    const bd_endgame *endgame;  /* NULL, or the tables probed (bd_search_limits) */
    int (*probe)(const bd_endgame *t, const bd_pos *p, int *plies);
    bd_move pv[BD_MAX_PLY + 1][BD_MAX_PLY];
    int pv_len[BD_MAX_PLY + 1];
    /* The NNUE's sums (nnue.h) of each position on the search path, when it
     * evaluates and off does not say otherwise: sums[k] is that of the
     * position k moves from the root, g->hist[root + k], made from
     * sums[k - 1] with the move once the position is past the tests that
     * end a node before it evaluates or moves (make_sums, or nnue_now where
     * qsearch evaluates): 13% of the positions never need them. (Made only when a position is
     * evaluated, from the last ply whose sums were made, they cost more
     * than they saved: most positions are.) */
    int incremental;
    void (*carry)(const bd_entry *e, bd_nnue_sums *sums); /* bd_nnue_carry or its AVX2 copy */
    int (*move_score)(const bd_entry *e, bd_bb lanes, int two, int freedom,
                      bd_nnue_sums *sums);   /* bd_nnue_move_score or its AVX2 copy */
    int root;
    bd_nnue_sums sums[BD_MAX_PLY + 2];
} ctx;

/* How often, in positions, the search looks at the caller's stop flag:
 * a fraction of a millisecond apart. */
#define STOP_CHECK 4096

#if defined(__GNUC__) || defined(__clang__)
#define BD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define BD_UNLIKELY(x) (x)
#endif

/* What the threads of one search share (lazy SMP: bd_search below), besides
 * the transposition table: the budget, which counts the positions of every
 * thread together, handed out to them in slices of STOP_CHECK positions,
 * and the main thread's word that it is done. Each field is read and
 * written whole (thread.h). */
typedef struct smp {
    uint64_t budget;    /* positions all the threads may visit together */
    uint64_t claimed;   /* positions handed out so far, never above budget */
    int halt;           /* raised by the main thread when its search is done */
    bd_baton *baton;    /* NULL; in lockstep, the turns the threads take */
} smp;

#ifndef BD_NO_THREADS
/* In lockstep (bd_search_limits.lockstep) a thread runs this many positions
 * a turn: short, since threads running at once see each other's table
 * entries within a few positions, and long enough that the hand-over
 * (a lock and a wake-up, microseconds) costs a few percent. */
#define LOCKSTEP_SLICE 1024

/* check_limits() for a thread of several: stop when the caller's flag or the
 * main thread's halt is raised, or when no budget is left to hand out;
 * otherwise take the next slice of it. The positions taken are never more
 * than the budget, so all threads together never visit more. */
static int claim(ctx *c) {
    smp *s = c->smp;
    uint64_t seen, budget, take, slice = STOP_CHECK;
    if (s->baton && !c->stopped) {
        /* Lockstep: the next thread's turn, and this thread's slice once
         * the turn is back (the halt too is looked at only then). */
        bd_baton_next(s->baton, c->helper);
        slice = LOCKSTEP_SLICE;
    }
    if (c->stopped || bd_load_flag(&s->halt) || (c->stop && bd_load_flag(c->stop))) {
        c->stopped = 1;
        return 0;
    }
    do {
        seen = bd_load64(&s->claimed);
        budget = bd_load64(&s->budget);
        if (seen >= budget) {
            c->stopped = 1;
            return 0;
        }
        take = budget - seen > slice ? slice : budget - seen;
    } while (!bd_cas64(&s->claimed, seen, seen + take));
    c->limit = c->nodes + take;
    return 1;
}
#endif

/* visit()'s slow path, once every STOP_CHECK positions: the budget spent or
 * the flag raised stops the search; otherwise the next check is set. The
 * hot path compares nodes with limit exactly as it once compared them with
 * the budget, so looking at the flag costs nothing per position, and when
 * the flag stays down the search stops where the budget alone stopped it. */
static int check_limits(ctx *c) {
    BD_EXPORT_CLOCK_CHECK(c);
#ifndef BD_NO_THREADS
    if (c->smp) return claim(c);
#endif
    if (c->stopped || c->nodes >= c->budget || (c->stop && bd_load_flag(c->stop))) {
        c->stopped = 1;
        return 0;
    }
    c->limit = c->budget - c->nodes > STOP_CHECK ? c->nodes + STOP_CHECK : c->budget;
    return 1;
}

/* The budget from here on. Alone, the next position visited goes to
 * check_limits, which stops the search at once if it is spent, and sets the
 * next limit. With threads the shared budget changes, and each thread
 * finishes the slice it holds. */
static void set_budget(ctx *c, uint64_t budget) {
    c->budget = budget;
    if (c->smp) bd_store64(&c->smp->budget, budget);
    else c->limit = c->nodes;
}

/* The positions counted against the budget so far: this thread's alone, or
 * every thread's slices. */
static uint64_t spent(const ctx *c) { return c->smp ? bd_load64(&c->smp->claimed) : c->nodes; }

/* 1. Every position visited is counted; the budget is never passed. */
static inline int visit(ctx *c) {
    if (BD_UNLIKELY(c->nodes >= c->limit) && !check_limits(c)) return 0;
    c->nodes++;
    return 1;
}

static inline const bd_pos *now(const ctx *c) { return &c->g->hist[c->g->ply].pos; }

/* The NNUE's sums of the position before the one `ply` moves from the
 * root (ply >= 1): sums[ply - 1]. The ply taken as unsigned, so that its
 * load widens it for nothing and the 1 goes into the address; the int's
 * widening and subtraction cost two instructions more an evaluation. */
static inline bd_nnue_sums *sums_before(ctx *c, int ply) { return c->sums + (unsigned)ply - 1; }

/* The NNUE's sums of the position now, `ply` moves from the root, when the
 * search carries them, made from those of the position before with the
 * move: search() and qsearch() make them once the node is past the tests
 * that may end it at once (the game over, the king's line home, the
 * table's cut-off), so that those positions, 13% of the bench's, never pay
 * for them (1.4% fewer instructions than making them with the move). The
 * position before is always one that went on to its moves, so its sums
 * are made. */
static inline void make_sums(ctx *c, int ply) {
    if (c->incremental) c->carry(&c->g->hist[c->g->ply], sums_before(c, ply));
}

/* Play a move on the private record and judge it as the game would:
 * repetition and the caps end lines inside the search too. */
static inline void push(ctx *c, bd_move m, bd_bb reach) {
    bd_game_push(c->g, m, bd_make_captures_in(reach, m));
    bd_tt_prefetch(c->tt, now(c)->key);
    bd_game_judge(c->g, -1);
}

/* Only ever called on a position that was ongoing before the push. */
static inline void pop(ctx *c) {
    c->g->ply--;
    c->g->outcome = BD_ONGOING;
    c->g->winner = BD_NOBODY;
}

/* The scores of a game won, or lost, by the side to move, when it ends
 * `ply` moves from the root: the sooner a win the better, the later a loss
 * the better (both beyond BD_WIN, whatever the evaluation says). */
static inline int mate_in(int ply) { return BD_MATE - ply; }
static inline int mated_in(int ply) { return -BD_MATE + ply; }
static inline int is_mate_score(int s) { return s > BD_WIN || s < -BD_WIN; }
/* How many moves from the root the game ends, for a mate score. */
static inline int mate_distance(int s) { return BD_MATE - (s < 0 ? -s : s); }

/* The table stores a mate score counted from the position, not from the
 * root, so that it reads right wherever the position is met again. */
static inline int value_to_tt(int s, int ply) { return s > BD_WIN ? s + ply : s < -BD_WIN ? s - ply : s; }
static inline int value_from_tt(int s, int ply) { return s > BD_WIN ? s - ply : s < -BD_WIN ? s + ply : s; }

/* The score of a finished game for the side to move. */
static int ended_score(const bd_game *g, int ply) {
    if (g->winner == BD_NOBODY) return 0;
    return g->winner == g->hist[g->ply].pos.side ? mate_in(ply) : mated_in(ply);
}

/* The evaluation of the position now, `p`, from the attackers' side,
 * bd_evaluate_with's. Out of line: with it inlined where the search
 * evaluates, the classical evaluation's searches ran 1% more instructions
 * (the registers it took). */
static BD_NOINLINE int evaluate_now(const ctx *c, const bd_pos *p, bd_bb king_reach) {
    return bd_evaluate_with(&c->g->v, p, c->w, king_reach);
}

/* The NNUE's sums of the position now, `p`, `ply` moves from the root,
 * made from those of the position before (make_sums), and its score from
 * them for the side to move, in one call (one pass in the AVX2 copy). The
 * counts the NNUE adds are made here, so that the NNUE's call is a leaf
 * (nnue.h: bd_nnue_move_score; the first passed as the squares it counts,
 * whose count the compiler then leaves out); inline, where the search
 * evaluates. */
static inline int nnue_now(ctx *c, const bd_pos *p, bd_bb king_reach, int ply) {
    const bd_variant *v = &c->g->v;
    /* p is the record's entry's position, its first member. */
    const bd_entry *e = (const bd_entry *)(const void *)p;
    int in[BD_LEARNED_INPUTS], s;
    bd_king_counts(v, p, king_reach, in);
    s = c->move_score(e, king_reach & bd_escapes(v), in[BD_INPUT_LANE_TWO], in[BD_INPUT_FREEDOM],
                      sums_before(c, ply));
#ifdef BD_NNUE_CHECK /* tests/c/nnue_check.c: each score against the full refresh */
    if (ply != c->g->ply - c->root || e != &c->g->hist[c->g->ply] ||
        s != (p->side == BD_ATTACKERS ? 1 : -1) * bd_evaluate_with(&c->g->v, p, c->w, king_reach))
        abort();
#endif
    return s;
}

/* The evaluation of the position now, `p`, `ply` moves from the root, for
 * the side to move, its NNUE sums made on the way (make_sums); the NNUE's
 * comes for the side to move. */
static inline int relative_eval(ctx *c, const bd_pos *p, bd_bb king_reach, int ply) {
    int s;
    if (c->incremental) return nnue_now(c, p, king_reach, ply);
    s = evaluate_now(c, p, king_reach);
    return p->side == BD_ATTACKERS ? s : -s;
}

/* What the move ordering reads of the search (movepick.h), with the
 * features that `off` turns off left out. */
static inline const bd_move *killers_at(const ctx *c, int ply) {
    return (c->off & BD_OFF_KILLERS) ? NULL : c->killers[ply];
}
static inline const int32_t *history_of(const ctx *c, const bd_pos *p) {
    return (c->off & BD_OFF_HISTORY) ? NULL : c->history[p->side];
}
static inline int with_blocks(const ctx *c) { return !(c->off & BD_OFF_BLOCKS); }

/* The move that led to the node being searched (0 at a game's start). */
static inline bd_move last_move(const ctx *c) { return c->g->hist[c->g->ply].move; }

/* The killers the picker gets: the ply's two, or the first and the
 * countermove, when there is one and it is neither: the quiet move that
 * last cut a node off after the move just played (kept by side and that
 * move, so it answers the move whatever the ply). In `pair`. */
static inline const bd_move *killers_here(const ctx *c, const bd_pos *p, int ply, bd_move pair[2]) {
    const bd_move *ks = killers_at(c, ply);
    bd_move cm, prev = last_move(c);
    if (!ks || !prev || (c->off & BD_OFF_COUNTERMOVE)) return ks;
    cm = c->counter[p->side][prev];
    if (!cm || cm == ks[0] || cm == ks[1]) return ks;
    pair[0] = ks[0];
    pair[1] = cm;
    return pair;
}

/* A quiet move that cut the node off: the ply's first killer, the
 * countermove of the move before, and its history grows (by the square of
 * the depth, so the deeper cuts count most), all of it halved when one
 * entry gets too big to stay below the killers' keys. */
static void reward(ctx *c, const bd_pos *p, bd_move m, int depth, int ply) {
    int32_t *h = &c->history[p->side][m];
    bd_move prev = last_move(c);
    if (prev) c->counter[p->side][prev] = m;
    if (c->killers[ply][0] != m) {
        c->killers[ply][1] = c->killers[ply][0];
        c->killers[ply][0] = m;
    }
    *h += depth * depth;
    if (*h >= BD_HISTORY_MAX) {
        int s, k;
        for (s = 0; s < 2; s++)
            for (k = 0; k < 4096; k++) c->history[s][k] /= 2;
    }
}

/* Whether the move the picker gave last, m, is a soldier's quiet move:
 * those that futility pruning leaves out and late move reductions reduce
 * (the king's quiet moves may open his line home). */
static inline int soldier_quiet(const bd_picker *pk, const bd_pos *p, bd_move m) {
    return bd_picked(pk) == BD_PICKED_QUIET && BD_FROM(m) != p->king;
}

/* log2(x) in 256ths, for x >= 1: the octave exact, the step within it a
 * straight line (off by 0.09 at most): the reductions need no more. */
static inline int log2_256(unsigned x) {
    int k = bd_msb(x);
    return k * 256 + (int)((x << 8) >> k) - 256;
}

/* How many moves less deep a late quiet move, the `i`th of its node, is
 * searched first at `depth` (LMR_PERCENT), between 1 and depth - 2. */
static inline int reduction(const ctx *c, int depth, int i, int pv_node) {
    int r;
    if (c->off & BD_OFF_LMR_DEEP) return 1;
    r = (log2_256((unsigned)depth) * log2_256((unsigned)i) * LMR_PERCENT / 100 + 32768) >> 16;
    r -= pv_node;
    return r < 1 ? 1 : r > depth - 2 ? depth - 2 : r;
}

/* The endgame tables' exact score of the position now, `ply` moves from the
 * root, into *score: 1, or 0 when the tables do not hold it, when its
 * distance does not fit under the caps (the ply cap, and the quiet cap
 * counted from here: captures on the way only help), or when it is a
 * table draw under `repetition = loss` (where a draw is not one:
 * docs/proofs.md). */
static BD_NOINLINE int table_score(const ctx *c, const bd_pos *p, int ply, int *score) {
    const bd_variant *v = &c->g->v;
    int plies, value = c->probe(c->endgame, p, &plies);
    if (value == BD_EG_NONE) return 0;
    if (value == BD_EG_DRAW) {
        if (v->repetition != BD_END_DRAW) return 0;
        *score = 0;
        return 1;
    }
    if (c->g->ply + plies > v->ply_cap) return 0;
    if (v->quiet_cap && c->g->hist[c->g->ply].quiet + plies > v->quiet_cap) return 0;
    *score = value == BD_EG_WIN ? mate_in(ply + plies) : mated_in(ply + plies);
    return 1;
}

/* Quiescence: captures only, until the position is quiet; but a king with
 * an open line home is like check: the attackers may not stand pat, and
 * only their moves that can stop him are looked at. */
static int qsearch(ctx *c, int alpha, int beta, int ply, int qply) {
    const bd_variant *v = &c->g->v;
    const bd_pos *p;
    bd_picker pk;
    bd_move m;
    int best = -INF, threatened;
    bd_bb king_reach;
    c->pv_len[ply] = 0;
    /* 1. Count the position. */
    if (!visit(c)) return 0;
    /* 2. The game ended with the last move. */
    if (c->g->outcome != BD_ONGOING) return ended_score(c->g, ply);
    p = now(c);
    /* 3. The king has an open line home and it is his side's move: he goes
     *    home with the next one. */
    king_reach = bd_king_reach(v, p);
    threatened = (king_reach & bd_escapes(v)) != 0;
    if (threatened && p->side == BD_DEFENDERS) return mate_in(ply + 1);
    threatened = threatened && p->side == BD_ATTACKERS && !(c->off & BD_OFF_THREATS);
    /* 4. Stand pat, unless threatened. (The NNUE's sums are made here, by
     *    the evaluation or for the moves.) */
    if (c->off & BD_OFF_QSEARCH) return relative_eval(c, p, king_reach, ply);
    if (!threatened) {
        best = relative_eval(c, p, king_reach, ply);
        if (best >= beta || qply >= QMAX || ply >= BD_MAX_PLY - 1) return best;
        if (best > alpha) alpha = best;
    } else if (qply >= QMAX || ply >= BD_MAX_PLY - 1) {
        return relative_eval(c, p, king_reach, ply);
    } else {
        make_sums(c, ply);
    }
    /* 5. The moves: captures, best first; threatened, only the moves that
     *    can save the king's opponents: into his open line, or beside him
     *    (to take him). Every other move lets him home, so when there is
     *    none the position is lost, the king home the move after next.
     *    (Trying every move instead cost 44 Elo at 20,000 positions a move:
     *    -43.7 +- 33.1 over 400 games.) */
    if (threatened) {
        bd_bb saving = bd_block_squares(v, p) | BD_ADJACENT[p->king];
        if (bd_picker_init_evasions(&pk, v, p, saving, killers_at(c, ply), history_of(c, p),
                                    with_blocks(c)) == 0)
            return mated_in(ply + 2);
    } else {
        bd_picker_init_captures(&pk, v, p);
    }
    /* 6. Each looked at until one is good enough. */
    while ((m = bd_next_move(&pk)) != 0) {
        int s;
        push(c, m, bd_picker_reach(&pk));
        s = -qsearch(c, -beta, -alpha, ply + 1, qply + 1);
        pop(c);
        if (c->stopped) return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

static int search(ctx *c, int depth, int alpha, int beta, int ply) {
    const bd_variant *v = &c->g->v;
    const bd_pos *p;
    bd_tt_entry *slot;
    bd_tt_hit hit;
    bd_move tt_move = 0, best_move = 0, m;
    int i, best = -INF, alpha0 = alpha, pv_node = beta - alpha > 1, threatened, futile = 0;
    bd_bb king_reach;
    bd_picker pk;
    bd_move pair[2];            /* the killers with the countermove (killers_here) */
    /* 1. Out of depth: quiescence takes the position over, and counts it
     *    (each position is counted once). */
    if (depth <= 0 || ply >= BD_MAX_PLY - QMAX - 1) return qsearch(c, alpha, beta, ply, 0);
    c->pv_len[ply] = 0;
    /* 2. Count the position. */
    if (!visit(c)) return 0;
    /* 3. The game ended with the last move: the record has judged it. */
    if (c->g->outcome != BD_ONGOING) return ended_score(c->g, ply);
    p = now(c);
    /* 3b. A position of the endgame tables, below the root: exact. */
    if (c->endgame && ply > 0) {
        int s;
        if (table_score(c, p, ply, &s)) return s;
    }
    /* 4. The defenders to move with the king's line home open: a win, the
     *    king home with the next move. */
    king_reach = bd_king_reach(v, p);
    threatened = (king_reach & bd_escapes(v)) != 0;
    if (threatened && p->side == BD_DEFENDERS) return mate_in(ply + 1);
    /* 5. Mate distance: no result here beats a win already closer to the
     *    root. (The best here is a win with the next move.) */
    if (alpha < mated_in(ply)) alpha = mated_in(ply);
    if (beta > mate_in(ply + 1)) beta = mate_in(ply + 1);
    if (alpha >= beta) return alpha;
    /* 6. The transposition table: a cut-off off the principal variation, and
     *    its move first in any case. */
    slot = bd_tt_slot(c->tt, p->key);
    hit = bd_tt_probe(slot, p->key);
    if (hit.bound != BD_BOUND_NONE && !(c->off & BD_OFF_TT)) {
        tt_move = hit.move;
        if (!pv_node && hit.depth >= depth) {
            int s = value_from_tt(hit.score, ply);
            if (hit.bound == BD_BOUND_EXACT ||
                (hit.bound == BD_BOUND_LOWER && s >= beta) ||
                (hit.bound == BD_BOUND_UPPER && s <= alpha))
                return s;
        }
    }
    /* 6b. Internal iterative reduction (iir): a node deep enough that the
     *     table has no move for is searched one ply less. Its moves would
     *     be tried in a poor order, so a full-depth search of it costs much
     *     and is seldom needed; the next iteration finds the move stored. */
    if (depth >= IIR_DEPTH && !tt_move && !(c->off & BD_OFF_IIR)) depth--;
    /* 7. Near the horizon, off the principal variation, with the king's
     *    line home shut: the evaluation. Far enough above beta, it is
     *    taken to hold (reverse futility); far enough below alpha, quiet
     *    moves are left out below (8b). (The NNUE's sums are made here,
     *    by the evaluation or for the moves.) */
    if (!pv_node && !threatened && depth <= RFP_DEPTH &&
        (c->off & (BD_OFF_RFP | BD_OFF_FUTILITY)) != (BD_OFF_RFP | BD_OFF_FUTILITY)) {
        int eval = relative_eval(c, p, king_reach, ply);
        if (!(c->off & BD_OFF_RFP) && eval - RFP_MARGIN * depth >= beta && !is_mate_score(beta)) return eval;
        futile = !(c->off & BD_OFF_FUTILITY) && depth <= FUTILITY_DEPTH &&
                 eval + FUTILITY_MARGIN * depth <= alpha && !is_mate_score(alpha);
    } else {
        make_sums(c, ply);
    }
    /* 8. The moves, best first (movepick.h): the table move, the special
     *    ones, the killers, then the rest, each stage worked out only when
     *    the moves before it have not cut the node off. */
    bd_picker_init(&pk, v, p, tt_move, killers_here(c, p, ply, pair), history_of(c, p), with_blocks(c));
    for (i = 0; (m = bd_next_move(&pk)) != 0; i++) {
        int s;
        /* 8b. Futility pruning: a soldier's quiet move, near the horizon
         *     far below alpha, is left out once some move here does not
         *     lose. */
        if (futile && best > -BD_WIN && soldier_quiet(&pk, p, m)) continue;
        /* 9. Principal variation search: the first move with the full window,
         *    the rest with a null window, searched again if they beat it. */
        push(c, m, bd_picker_reach(&pk));
        if (i == 0 || (c->off & BD_OFF_PVS)) {
            s = -search(c, depth - 1, -beta, -alpha, ply + 1);
        } else {
            /* 10. Late move reductions: a soldier's quiet move late in the
             *     order is looked at less deep first (reduction), and again
             *     in full only when it beats the best so far. */
            int r = depth >= 3 && i >= LMR_AFTER && soldier_quiet(&pk, p, m) && !(c->off & BD_OFF_LMR)
                        ? reduction(c, depth, i, pv_node)
                        : 0;
            s = -search(c, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
            if (r && !c->stopped && s > alpha) s = -search(c, depth - 1, -alpha - 1, -alpha, ply + 1);
            if (!c->stopped && s > alpha && s < beta)
                s = -search(c, depth - 1, -beta, -alpha, ply + 1);
        }
        pop(c);
        if (c->stopped) return 0;
        if (s > best) {
            best = s;
            best_move = m;
            if (s > alpha) {
                alpha = s;
                c->pv[ply][0] = m;
                memcpy(&c->pv[ply][1], c->pv[ply + 1], (size_t)c->pv_len[ply + 1] * sizeof(bd_move));
                c->pv_len[ply] = c->pv_len[ply + 1] + 1;
                if (alpha >= beta) {
                    /* A killer or a quiet move that cuts is remembered (not
                     * the table move, even when it is quiet). */
                    if (bd_picked(&pk) == BD_PICKED_KILLER || bd_picked(&pk) == BD_PICKED_QUIET)
                        reward(c, p, m, depth, ply);
                    break;
                }
            }
        }
    }
    /* 11. No move at all (a variant that lets the game go on without one):
     *     nothing to remember. */
    if (best_move == 0) return 0;
    /* 12. Remember what was found. */
    bd_tt_store(slot, p->key, best_move, value_to_tt(best, ply), depth,
                best >= beta ? BD_BOUND_LOWER : best > alpha0 ? BD_BOUND_EXACT : BD_BOUND_UPPER);
    return best;
}

/* A fixed mix of the seed and the move: the order of root moves that the
 * ordering scores alike, so the seed picks among moves that search alike. */
static uint32_t tie_break(uint32_t seed, bd_move m) {
    uint32_t x = seed * 0x9E3779B1u ^ (uint32_t)m * 0x85EBCA77u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return x;
}

static void sort_root(bd_move *moves, int *keys, uint32_t *ties, int n) {
    int i, j;
    for (i = 1; i < n; i++) {
        bd_move m = moves[i];
        int k = keys[i];
        uint32_t t = ties[i];
        for (j = i; j > 0 && (keys[j - 1] < k || (keys[j - 1] == k && ties[j - 1] < t)); j--) {
            moves[j] = moves[j - 1];
            keys[j] = keys[j - 1];
            ties[j] = ties[j - 1];
        }
        moves[j] = m;
        keys[j] = k;
        ties[j] = t;
    }
}

/* A thread's context: a private copy of the game (with room for the search
 * path), fresh killers and history, the features and the budget of
 * `limits`, and the table `tt` (shared by the threads of one search), or,
 * when `tt` is NULL, the caller's table or one of its own. NULL when out of
 * memory. */
static ctx *new_ctx(const bd_game *g, const bd_search_limits *limits, const bd_weights *w, bd_tt *tt) {
    /* Only what is read before it is written is cleared: not the PV table. */
    ctx *c = (ctx *)malloc(sizeof *c);
    if (!c) return NULL;
    c->nodes = 0;
    c->limit = 0;               /* the first position looks at the flag */
    c->stop = limits->stop;
    c->stopped = 0;
    c->smp = NULL;
    c->helper = 0;
    memset(c->killers, 0, sizeof c->killers);
    memset(c->history, 0, sizeof c->history);
    memset(c->counter, 0, sizeof c->counter);
    memset(c->pv_len, 0, sizeof c->pv_len);
    c->g = bd_game_clone(g);
    c->own.entries = NULL;
    c->tt = tt ? tt : limits->table ? &limits->table->tt : &c->own;
    if (!c->g || bd_game_reserve(c->g, BD_MAX_PLY + 2) != 0 ||
        (c->tt == &c->own && bd_tt_init(&c->own, limits->budget, limits->tt_bytes) != 0)) {
        bd_game_free(c->g);
        free(c);
        return NULL;
    }
    c->w = w;
    c->off = limits->off;
    c->probe = limits->probe;
    c->endgame = limits->probe ? limits->endgame : NULL;
    c->incremental = w->eval == BD_EVAL_NNUE && !(c->off & BD_OFF_INCREMENTAL);
    c->root = c->g->ply;
    c->move_score = bd_nnue_move_score;
    c->carry = bd_nnue_carry;
#ifdef BD_NNUE_AVX2
    if (c->incremental && bd_nnue_avx2()) {
        c->move_score = bd_nnue_move_score_avx2;
        c->carry = bd_nnue_carry_avx2;
    }
#endif
    if (c->incremental) bd_nnue_refresh(&c->g->v, now(c), &c->sums[0]);
    c->asked = c->budget = limits->budget ? limits->budget : 1;
    return c;
}

static void free_ctx(ctx *c) {
    bd_tt_free(&c->own);
    bd_game_free(c->g);
    free(c);
}

/* Iterative deepening at the root, from depth `first` to `max_depth`,
 * into `out` (cleared by the caller): the whole search of one thread.
 * Helpers (c->helper) run it too, for what they leave in the shared table;
 * they never extend the budget. */
static void iterate(ctx *c, uint32_t seed, int first, int max_depth, bd_search_result *out) {
    const bd_game *g = c->g;
    bd_move moves[BD_MAX_MOVES];
    int keys[BD_MAX_MOVES];
    int last[BD_MAX_MOVES];     /* each move's score (or bound) at the last depth finished */
    uint32_t ties[BD_MAX_MOVES];
    int n, i, depth;
    uint64_t extended = c->asked + c->asked / 2;
    bd_bb reach;
    if (extended < c->asked) extended = UINT64_MAX;

    /* The root's moves, ordered once by the ordering keys and the seed. */
    n = bd_gen_moves(&g->v, now(c), moves);
    reach = bd_capture_reach(&g->v, now(c));
    bd_order_keys(&g->v, now(c), moves, n, killers_at(c, 0), history_of(c, now(c)), with_blocks(c), keys);
    for (i = 0; i < n; i++) ties[i] = tie_break(seed, moves[i]);
    sort_root(moves, keys, ties, n);
    out->move = moves[0];
    for (i = 0; i < n; i++) last[i] = 0;

    /* Iterative deepening. An iteration the budget (or the stop flag) stops
     * is used only when its first move (the previous best) was searched in
     * full: then its best among the moves searched in full stands, unless
     * that is a proven loss and some moves were not searched: then the
     * first of those, with the last finished depth's score and depth.
     * Stopped before any iteration finished, the result is the ordering's
     * first move at depth 0. */
    for (depth = first; depth <= max_depth; depth++) {
        int alpha = -INF, best = -INF, done, extending = 0, fail_low = -INF;
        int scores[BD_MAX_MOVES];
        bd_move best_move = 0;
        bd_move pv[BD_MAX_PLY];
        int pv_len = 0;
        if (!visit(c)) break;
        for (done = 0; done < n; done++) {
            int s;
            push(c, moves[done], reach);
            if (done == 0) {
                s = -search(c, depth - 1, -INF, INF, 1);
            } else if (alpha < -BD_WIN && !(c->off & BD_OFF_FAIL_LOW)) {
                /* B. The best so far loses: the question for the others is
                 *    only whether they lose too, which is cheaper to answer
                 *    than how slowly (so among moves that all lose, the
                 *    first stands, not the slowest loss). */
                s = -search(c, depth - 1, BD_WIN - 1, BD_WIN, 1);
                if (!c->stopped && s > -BD_WIN) s = -search(c, depth - 1, -INF, -alpha, 1);
                else if (s > alpha) s = alpha;
            } else {
                s = -search(c, depth - 1, -alpha - 1, -alpha, 1);
                if (!c->stopped && s > alpha) s = -search(c, depth - 1, -INF, -alpha, 1);
            }
            pop(c);
            if (c->stopped) break;
            scores[done] = s;
            if (s > best) {
                best = s;
                best_move = moves[done];
                pv[0] = best_move;
                memcpy(&pv[1], c->pv[1], (size_t)c->pv_len[1] * sizeof(bd_move));
                pv_len = c->pv_len[1] + 1;
                if (s > alpha) alpha = s;
                /* A. Root fail low: the first move fell well below the last
                 *    depth's score (or lost), so the budget may grow by half
                 *    until another move scores above that. Counted in positions, so
                 *    as deterministic as the budget itself. */
                if (done == 0 && out->depth == depth - 1 && depth > 1 && n > 1 &&
                    s <= out->score - FAIL_LOW_MARGIN && !(c->off & BD_OFF_FAIL_LOW) && !c->helper) {
                    extending = 1;
                    fail_low = out->score - FAIL_LOW_MARGIN;
                    set_budget(c, extended);
                } else if (done > 0 && extending && s > fail_low) {
                    extending = 0;
                    set_budget(c, spent(c) > c->asked ? spent(c) : c->asked);
                }
            }
        }
        if (extending && !c->stopped) set_budget(c, spent(c) > c->asked ? spent(c) : c->asked);
        if (done > 0 && done < n && best < -BD_WIN) {
            /* C. Never a move proven to lose while another is not: the moves
             *    from `done` on were not searched to this depth; of those,
             *    the one that scored best at the last depth finished. */
            int k = done;
            for (i = done + 1; i < n; i++)
                if (last[i] > last[k]) k = i;
            out->move = moves[k];
            out->pv[0] = moves[k];
            out->pv_length = 1;
        } else if (done > 0) {
            out->move = best_move;
            out->score = best;
            out->depth = depth;
            out->pv_length = pv_len;
            memcpy(out->pv, pv, (size_t)pv_len * sizeof(bd_move));
        }
        if (c->stopped) break;
        /* The best first next time; the others keep their order. */
        for (i = 0; moves[i] != best_move; i++) {
        }
        memcpy(last, scores, (size_t)n * sizeof(int));
        for (; i > 0; i--) {
            moves[i] = moves[i - 1];
            last[i] = last[i - 1];
        }
        moves[0] = best_move;
        last[0] = best;
        /* A forced result needs no deeper look, nor does a lone move. */
        if (is_mate_score(best) && mate_distance(best) <= depth) break;
        if (n == 1) break;
    }
}

/* The calling thread's iterative deepening into `out`, with its positions
 * counted: the whole search on one thread, the main thread's part on
 * several. */
static void search_here(ctx *c, uint32_t seed, int max_depth, bd_search_result *out) {
    iterate(c, seed, 1, max_depth, out);
    out->nodes = out->own_nodes = c->nodes;
    out->stopped = c->stopped;
}

#ifndef BD_NO_THREADS
/* One helper thread of a search with several (bd_search). */
typedef struct helper {
    ctx *c;
    uint32_t seed;
    int first, max_depth;
    bd_thread *thread;
    bd_search_result out;   /* its own result: the answer when it went deeper */
} helper;

static void run_helper(void *arg) {
    helper *h = (helper *)arg;
    iterate(h->c, h->seed, h->first, h->max_depth, &h->out);
    if (h->c->smp->baton) bd_baton_leave(h->c->smp->baton, h->c->helper);
}

/* bd_search on `threads` threads, the calling thread's context `c` made:
 * lazy SMP. threads - 1 helper threads search the same root at the same
 * time, each with its own context (game, killers, history) but one
 * transposition table, which is how they help: the main thread finds their
 * results there. Odd helpers start one depth deeper than the main thread,
 * and each orders root moves that score alike by a seed of its own, so
 * that they do not all search the same tree in the same order. The result
 * is the deepest thread's (below); the node count is every thread's; the
 * budget counts every thread's positions together (claim). The main thread
 * raises `halt` when it is done, and every helper is joined before this
 * returns. A helper that cannot be made or started is left out: with none
 * the search is the one-thread search, exactly. In lockstep the threads
 * take turns (claim), each thread's slice of the budget handed out with its
 * turn, so the order of everything they share is the same on every run.
 * Handing out the moves of split points instead (young brothers wait)
 * wasted less work but reached a depth little sooner on two threads, and
 * was not kept; nor was one set of killers and history for all the
 * threads, which helped only in lockstep's long turns (docs/searching.md,
 * "What the helpers are worth, in lockstep"). */
static void search_threads(ctx *c, const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
                           int threads, int max_depth, bd_search_result *out) {
    helper helpers[BD_MAX_THREADS - 1];
    smp shared;
    int k, started = 0;
    shared.budget = c->asked;
    shared.claimed = 0;
    shared.halt = 0;
    /* Lockstep: the threads take turns (the baton), made before any helper
     * starts, since a helper's first position waits for its turn. Without
     * the memory for it, one thread: deterministic still. */
    shared.baton = limits->lockstep ? bd_baton_new(threads) : NULL;
    if (limits->lockstep && !shared.baton) threads = 1;
    for (k = 1; k < threads; k++) {
        helper *h = &helpers[started];
        h->c = new_ctx(g, limits, w, c->tt);
        if (!h->c) break;
        h->c->smp = &shared;
        h->c->helper = k;
        h->seed = limits->seed ^ (uint32_t)k * 0x9E3779B9u;
        h->first = 1 + (k & 1);
        h->max_depth = max_depth;
        memset(&h->out, 0, sizeof h->out);
        h->thread = bd_thread_start(run_helper, h);
        if (!h->thread) {
            free_ctx(h->c);
            break;
        }
        started++;
    }
    /* Helpers that never started leave their turns. */
    for (k = started + 1; shared.baton && k < threads; k++) bd_baton_leave(shared.baton, k);
    if (started) c->smp = &shared;
    search_here(c, limits->seed, max_depth, out);
    if (started) bd_store_flag(&shared.halt, 1);
    if (shared.baton) bd_baton_leave(shared.baton, 0);
    for (k = 0; k < started; k++) {
        bd_thread_join(helpers[k].thread);
        out->nodes += helpers[k].c->nodes;
        free_ctx(helpers[k].c);
    }
    bd_baton_free(shared.baton);
    /* The deepest thread answers: a helper that finished a deeper iteration
     * than the main thread (or searched the previous best move in full at
     * one) has seen further. Ties stay with the main thread, and so does a
     * win it has proven. */
    for (k = 0; k < started; k++) {
        const bd_search_result *h = &helpers[k].out;
        if (h->depth > out->depth && h->move && !(is_mate_score(out->score) && out->score > 0)) {
            uint64_t nodes = out->nodes, own = out->own_nodes;
            int stopped = out->stopped;
            *out = *h;
            out->nodes = nodes;
            out->own_nodes = own;
            out->stopped = stopped;
        }
    }
}
#endif

/* The search: on the calling thread, or with limits->threads above 1 on
 * several (search_threads; the export's BD_NO_THREADS leaves that out, and
 * searches on one thread whatever it is asked). */
int bd_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
              bd_search_result *out) {
    int max_depth;
    int threads = limits->threads < 1 ? 1 : limits->threads > BD_MAX_THREADS ? BD_MAX_THREADS : limits->threads;
    ctx *c;
    memset(out, 0, sizeof *out);
    if (g->outcome != BD_ONGOING) return 1;
    c = new_ctx(g, limits, w, NULL);
    if (!c) return -1;
    max_depth = limits->depth > 0 && limits->depth < BD_MAX_DEPTH ? limits->depth : BD_MAX_DEPTH;
#ifndef BD_NO_THREADS
    if (threads > 1) search_threads(c, g, limits, w, threads, max_depth, out);
    else
#endif
        search_here(c, limits->seed, max_depth, out);
    (void)threads;
    free_ctx(c);
    return 0;
}

/* brandubh.h: the engine's public interface, and nothing else: what a caller
 * of the library includes (the Python bindings, the WebAssembly build, the
 * CodinGame export, a C program), standing alone (<stdint.h> is all it
 * needs). The engine's own files include core.h, which includes this one:
 * the types and constants written here are the engine's base types too,
 * written once, here; what no caller sees (layouts, helpers, marks of the
 * build) is in core.h and the concepts' headers.
 *
 * This file is the one place the interface is written. What lies between the
 * two marker lines BD_CDEF_BEGIN and BD_CDEF_END below is, word for word,
 * the cffi cdef of the Python module brandubh._engine: csrc/build_ffi.py
 * reads it from here (tests/test_interface.py holds it to that), and the
 * compiler reads it as the C declarations that the engine's sources are
 * checked against. So between the markers goes only what cffi's parser
 * takes: typedefs, structs written out in full or left opaque, enums with
 * every value written, `#define NAME NUMBER`, function declarations (each
 * after the mark BD_FN, which the build takes out: see below) and
 * comments; no #include, #if, function-like macro or inline function.
 *
 * A new function a caller calls: its declaration here, between the markers,
 * after BD_FN and under its concept's heading, and its definition in that
 * concept's .c file. A function only the engine calls is declared in its
 * concept's own header instead (tests/test_interface.py fails for a
 * declaration here that no caller outside csrc/ uses).
 *
 * The game record (bd_game) and the position (bd_pos) are opaque here: their
 * layout is the engine's own (game.h, position.h), and callers read them
 * through the accessor functions below. The structs that are written out
 * are the ones a caller fills in or reads back: the rule set, the weights,
 * the search's limits, and what a move, perft, the playouts or a search
 * report.
 *
 * Every integer constant is here once, in a C enum or a #define, and the
 * Python layer reads each value from the compiled module (names and all:
 * brandubh.core.position.c_constants), never a copy of it:
 *
 *   enum bd_why         -> brandubh.Why          (BD_WHY_OK -> Why.OK)
 *   enum bd_outcome     -> brandubh.core.outcomes.Outcome (BD_ONGOING -> ONGOING,
 *                          BD_BY_CORNER -> CORNER), outcome_name
 *   enum bd_play        -> brandubh.core.rules.PLAY_OK, PLAY_OVER, PLAY_ILLEGAL
 *   enum bd_off         -> brandubh.core.search.FEATURES (BD_OFF_TT -> "tt")
 *   enum bd_side, bd_piece -> brandubh.core.position.SIDES, PIECES
 *   enum bd_escape, bd_king_capture, bd_end -> the numbers of the variant's
 *                          choice fields (BD_KING_FOUR_TWO <- "four_two")
 *   enum bd_did         -> the flags of brandubh.core.position.MoveReport
 *
 * A new value of bd_why, bd_outcome, bd_off, bd_side or bd_piece reaches
 * Python with no Python edit; one of the others, which Python uses constant
 * by constant, makes tests/test_interface.py fail until Python handles it.
 * How a new constant, rule field or feature bit travels, file by file:
 * docs/reliability.md, "One interface". */
#ifndef BD_BRANDUBH_H
#define BD_BRANDUBH_H

#include <stdint.h>

/* BD_FN stands before every function of the engine, and is empty for a
 * caller: the engine's second copy for the popcount instruction defines it
 * as `static` (core.h says how). The build takes it out of the cdef
 * (csrc/build_ffi.py), cffi's parser not knowing it. */
#ifndef BD_FN
#define BD_FN
#endif

/* BD_CDEF_BEGIN */

/* ---- The board.
 * A square is rank * 7 + file: a1 = 0, g1 = 6, d4 = 24, g7 = 48. A set of
 * squares is a bitboard, square s in bit s. A move is its square left times
 * 64 plus its square reached. */
typedef uint64_t bd_bb;
typedef uint16_t bd_move;

#define BD_SQUARES 49
#define BD_THRONE 24
#define BD_CORNERS 0x1040000000041ULL
/* More than the most moves any position can have (13 pieces, 12 squares
 * each): the length of every array of moves below. */
#define BD_MAX_MOVES 160

/* The two sides, which are also the side to move; a winner is a side or
 * BD_NOBODY. */
enum bd_side { BD_ATTACKERS = 0, BD_DEFENDERS = 1 };
enum { BD_NOBODY = -1 };
enum bd_piece { BD_EMPTY = 0, BD_ATTACKER = 1, BD_DEFENDER = 2, BD_KING = 3 };

/* ---- A rule set: the fields of docs/rules.md, chosen at run time
 * (variant.c).
 *
 * Every function of the engine takes the variant it plays under, so one
 * process can play games under different rule sets at once. The Python layer
 * checks each field's range before a variant reaches C; bd_variant_normalize
 * applies docs/rules.md's own substitutions (repeat below 2, a ply cap out
 * of range). */
enum bd_escape { BD_ESCAPE_CORNER = 0, BD_ESCAPE_EDGE = 1 };
enum bd_king_capture {
    BD_KING_NIELSEN = 0,
    BD_KING_TWO = 1,
    BD_KING_FOUR_TWO = 2,
    BD_KING_FOUR = 3
};
enum bd_end { BD_END_DRAW = 0, BD_END_LOSS = 1 };

typedef struct bd_variant {
    int escape;             /* enum bd_escape */
    int throne_pass;        /* 0/1 */
    int throne_reentry;
    int throne_hostile;
    int king_armed;
    int king_capture;       /* enum bd_king_capture */
    int encirclement;
    int no_pieces;
    int no_move;            /* enum bd_end */
    int repetition;         /* enum bd_end */
    int repeat;             /* >= 2 */
    int repeat_counts_start;
    int ply_cap;            /* 1..BD_MAX_PLY_CAP */
    int quiet_cap;          /* 0..BD_MAX_PLY_CAP, 0 = off */
} bd_variant;

#define BD_MAX_PLY_CAP 4096

/* Clamp what docs/rules.md says to clamp; `default_ply_cap` is the preset's
 * own value, used when ply_cap is out of range. Returns 0, or -1 when a
 * field is outside the values it can take at all. */
BD_FN int bd_variant_normalize(bd_variant *v, int default_ply_cap);

/* ---- A position: where the pieces stand and whose move it is, with its key
 * (position.c, handles.c). Opaque: made by bd_pos_new or bd_pos_copy, freed
 * by bd_pos_free, read by the functions below. */
typedef struct bd_pos bd_pos;

/* What a move did. */
enum bd_did {
    BD_DID_KING_MOVED = 1,     /* the king was the piece that moved */
    BD_DID_KING_HOME = 2,      /* he ended where he escapes */
    BD_DID_KING_TAKEN = 4      /* the move captured the king */
};
typedef struct bd_report {
    bd_bb captured;   /* squares the move emptied, the king's included */
    int flags;        /* enum bd_did */
} bd_report;

/* What bd_pos_from_string says of its text. */
enum bd_pos_code {
    BD_POS_OK = 0,
    BD_POS_BAD_TEXT = 1,   /* not written as a position */
    BD_POS_TWO_KINGS = 2   /* written well, but more than one king */
};
/* The longest position string, the terminating NUL included. */
#define BD_POS_TEXT_MAX 64

/* A new position: the empty board, the attackers to move. NULL when out of
 * memory. */
BD_FN bd_pos *bd_pos_new(void);
/* A new copy of p; NULL when out of memory. */
BD_FN bd_pos *bd_pos_copy(const bd_pos *p);
BD_FN void bd_pos_free(bd_pos *p);
/* enum bd_pos_code; on anything but BD_POS_OK `out` is unchanged. */
BD_FN int bd_pos_from_string(const char *text, bd_pos *out);
/* Writes at most BD_POS_TEXT_MAX bytes, the terminating NUL included. */
BD_FN void bd_pos_to_string(const bd_pos *p, char *out);
/* enum bd_piece: what stands on the square. */
BD_FN int bd_piece_at(const bd_pos *p, int sq);
/* enum bd_side: whose move it is. */
BD_FN int bd_pos_side(const bd_pos *p);
/* The Zobrist key of the pieces and the side to move. */
BD_FN uint64_t bd_pos_key(const bd_pos *p);
/* How many pieces of one kind (BD_ATTACKER, BD_DEFENDER or BD_KING). */
BD_FN int bd_pos_count(const bd_pos *p, int piece);
/* Play a move known to be a legal slide: capture, update the key, pass the
 * turn. */
BD_FN bd_report bd_pos_move(const bd_variant *v, bd_pos *p, bd_move m);
/* The squares the move would empty, without playing it. */
BD_FN bd_bb bd_pos_captures(const bd_variant *v, const bd_pos *p, bd_move m);

/* ---- Moves (movegen.c). */

/* Why a move cannot be played, in the order they are asked. */
enum bd_why {
    BD_WHY_OK = 0,
    BD_WHY_OFF_BOARD = 1,
    BD_WHY_NO_PIECE = 2,
    BD_WHY_NOT_YOURS = 3,
    BD_WHY_SAME_SQUARE = 4,
    BD_WHY_NOT_A_LINE = 5,
    BD_WHY_BLOCKED = 6,
    BD_WHY_THRONE = 7,
    BD_WHY_CORNER = 8,
    BD_WHY_GAME_OVER = 9
};

/* Writes the moves of the side to move into out[BD_MAX_MOVES], ordered by
 * the square left and then the square reached; returns how many. */
BD_FN int bd_gen_moves(const bd_variant *v, const bd_pos *p, bd_move *out);
/* BD_WHY_OK when the slide from -> to is legal in this position. */
BD_FN int bd_why_not(const bd_variant *v, const bd_pos *p, int from, int to);

/* ---- A game: a start position, the moves played from it, and how it ended
 * (game.c, handles.c). Opaque.
 *
 * The record keeps every position reached, so undo restores everything
 * exactly and repetition is judged over the whole game. Endings are asked in
 * the order docs/rules.md gives. Each game owns its memory; nothing is
 * shared between games. */
typedef struct bd_game bd_game;

/* How a game ended, in the order the endings are asked. */
enum bd_outcome {
    BD_ONGOING = 0,
    BD_BY_CORNER = 1,
    BD_BY_CAPTURE = 2,
    BD_BY_NO_PIECES = 3,
    BD_BY_REPETITION = 4,
    BD_BY_ENCIRCLED = 5,
    BD_BY_NO_MOVE = 6,
    BD_BY_PLY_CAP = 7,
    BD_BY_QUIET_CAP = 8
};
/* How many outcomes there are: one more than the last. */
enum { BD_OUTCOMES = BD_BY_QUIET_CAP + 1 };

/* What bd_game_play says. */
enum bd_play { BD_PLAY_OK = 0, BD_PLAY_OVER = 1, BD_PLAY_ILLEGAL = 2, BD_PLAY_NO_MEMORY = 3 };

/* The variant must have passed bd_variant_normalize. NULL when out of memory. */
BD_FN bd_game *bd_game_new(const bd_variant *v, const bd_pos *start);
/* The same from a position string: NULL when bd_pos_from_string refuses the
 * text (bd_pos_from_string says why) or when out of memory. */
BD_FN bd_game *bd_game_from_string(const bd_variant *v, const char *text);
BD_FN bd_game *bd_game_clone(const bd_game *g);
BD_FN void bd_game_free(bd_game *g);

/* enum bd_play; on anything but BD_PLAY_OK the game is unchanged. `report`
 * may be NULL. */
BD_FN int bd_game_play(bd_game *g, bd_move m, bd_report *report);
/* 1 when a move was taken back, 0 when there was none. */
BD_FN int bd_game_undo(bd_game *g);
/* The moves of the side to move; none once the game is over. */
BD_FN int bd_game_moves(const bd_game *g, bd_move *out);
/* How many times the position on the board has occurred, as the repetition
 * rule counts them, this time included. */
BD_FN int bd_game_repeats(const bd_game *g);
/* Every move of the side to move with what it would capture and the ending
 * it would bring (and its winner), each played and taken back: BD_MAX_MOVES
 * entries at most in each array. Returns how many, or -1 when out of memory. */
BD_FN int bd_game_legal(bd_game *g, bd_move *moves, bd_bb *captured, int *outcome, int *winner);

/* Moves made, both sides counted. */
BD_FN int bd_game_ply(const bd_game *g);
/* enum bd_outcome: BD_ONGOING until the game is over. */
BD_FN int bd_game_outcome(const bd_game *g);
/* enum bd_side, or BD_NOBODY when drawn or not over. */
BD_FN int bd_game_winner(const bd_game *g);
/* enum bd_side: whose move it is on the board. */
BD_FN int bd_game_side(const bd_game *g);
/* The position after `ply` moves (0: the start), or NULL for a ply the game
 * has not reached. It belongs to the game: valid until the game is next
 * played, undone or freed. */
BD_FN const bd_pos *bd_game_pos_at(const bd_game *g, int ply);
/* The move that reached `ply` (1 for the first move); 0 for the start and
 * for a ply the game has not reached. */
BD_FN bd_move bd_game_move_at(const bd_game *g, int ply);
/* What the move that reached `ply` did; nothing for the start and for a ply
 * the game has not reached. */
BD_FN bd_report bd_game_report_at(const bd_game *g, int ply);
/* Writes the moves made, in order, into out[bd_game_ply(g)]; returns how
 * many. */
BD_FN int bd_game_log(const bd_game *g, bd_move *out);
/* What a legal move would do, played on a copy of the position now. */
BD_FN bd_report bd_game_preview(const bd_game *g, bd_move m);

/* ---- Perft (perft.c): the number of leaves of the move tree, to check move
 * generation and capture against known counts and to measure their speed. */
typedef struct bd_perft_stats {
    uint64_t leaves;    /* positions at the last ply */
    uint64_t captures;  /* moves into the last ply that captured (full mode) */
    uint64_t endings;   /* moves into the last ply that ended the game (full mode) */
} bd_perft_stats;

/* Leaves at `depth` from p. With `slides`, nothing is captured and nothing
 * ends the game. With `bulk`, the last ply is counted, not played; without
 * it every leaf is played and `stats` counts captures and endings too. A
 * position that is already an ending has no moves.
 *
 * `stop`: NULL, or a flag owned by the caller, which may set it non-zero
 * from another thread; the walk then gives up within a fraction of a
 * millisecond. Returns 0, or 1 when stopped (the counts are then of part of
 * the tree, and mean nothing). */
BD_FN int bd_perft(const bd_variant *v, const bd_pos *p, int depth, int slides, int bulk,
                   bd_perft_stats *stats, const volatile int *stop);
/* Perft below each move: writes the moves and the counts (BD_MAX_MOVES at
 * most), returns how many moves, or -1 when stopped (as bd_perft). */
BD_FN int bd_divide(const bd_variant *v, const bd_pos *p, int depth, int slides,
                    bd_move *moves, uint64_t *counts, const volatile int *stop);

/* ---- Random playouts (playout.c): whole games of uniformly random moves,
 * played in C. The fast path for Monte Carlo bots. */
typedef struct bd_playout_stats {
    uint64_t games;
    uint64_t plies;                      /* moves played, over all games */
    uint64_t outcomes[BD_OUTCOMES];      /* games per ending */
    uint64_t wins[2];                    /* games won by attackers, defenders */
    uint64_t draws;
} bd_playout_stats;

/* Play `games` games from where g stands, each move chosen uniformly from
 * the legal ones by a generator seeded with `seed`. g is left as it was.
 *
 * `stop`: NULL, or a flag owned by the caller, which may set it non-zero
 * from another thread; it is looked at before each game, so the playouts
 * then end after the game being played, and `out` counts the games
 * finished (the first out->games of the same call run to the end).
 * Returns 0, 1 when stopped, or -1 when out of memory. */
BD_FN int bd_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out,
                      const volatile int *stop);

/* ---- The evaluation (eval.c): a position scored without looking further,
 * from the attackers' side (positive favours the attackers). */

/* The evaluation's seven weights (Game::Brandubh::Rules's documentation
 * names them; bd_default_weights gives the values `brandubh tune` found). */
typedef struct bd_weights {
    int attacker;      /* each attacker on the board */
    int defender;      /* each defender on the board (counts against) */
    int lane_one;      /* each escape square the king reaches in one move */
    int lane_two;      /* each escape square he reaches in two, not one */
    int freedom;       /* each square the king can move to */
    int corner_guard;  /* each attacker on a square that closes a corner */
    int ring;          /* each attacker beside the king */
    int eval;          /* enum bd_eval: which evaluation scores; the seven
                          weights above are read only by the classical one */
} bd_weights;

/* The evaluations: the classical one (the seven weights above), the
 * learned one (learned.c: tables fitted to self-play, docs/learned.md),
 * and a small NNUE (nnue.c, the same document), which bd_default_weights
 * chooses (the CodinGame export, built without it, plays the tables). */
enum bd_eval { BD_EVAL_CLASSICAL = 0, BD_EVAL_LEARNED = 1, BD_EVAL_NNUE = 2 };

BD_FN void bd_default_weights(bd_weights *w);
BD_FN int bd_evaluate(const bd_variant *v, const bd_pos *p, const bd_weights *w);

/* ---- The learned evaluation's inputs (learned.c), for the trainer.
 *
 * The learned evaluation is a sum of table entries: one for each soldier,
 * looked up by the pair (the king's square, the soldier's square), one for
 * the king's square, and a few counts (the inputs below) times a weight.
 * The pairs are taken up to the board's eight symmetries: a pair and its
 * mirror images share one entry (tools/gen_learned.py numbers them). */
#define BD_LEARNED_INPUTS 4
enum bd_learned_input {
    BD_INPUT_LANE_ONE = 0,  /* escape squares the king reaches in one move */
    BD_INPUT_LANE_TWO = 1,  /* those he reaches in two, not one */
    BD_INPUT_FREEDOM = 2,   /* squares the king can move to */
    BD_INPUT_TO_MOVE = 3    /* 1 when the attackers are to move, else 0 */
};

/* ---- Endgame tables (endgame.c): every position with the king and up to
 * BD_EG_MAX_SOLDIERS soldiers, won, drawn or lost for the side to move and
 * in how many plies, by retrograde analysis over the moves, captures and
 * endings above, judged with no history (no repetition, no cap: what that
 * means under each rule, docs/proofs.md, "Endgame tables").
 *
 * A set of tables is made for one rule set, then filled a material
 * signature at a time (`attackers` and `defenders` beside the king), each
 * built (every smaller one a capture leads into must be there) or loaded
 * from a caller's bytes. A table is one byte a position (endgame.c gives
 * the bytes' meaning), the positions numbered up to the eight symmetries. */
#define BD_EG_MAX_SOLDIERS 6
/* What a probe says, for the side to move. */
enum bd_eg { BD_EG_NONE = 0, BD_EG_WIN = 1, BD_EG_DRAW = 2, BD_EG_LOSS = 3 };

typedef struct bd_endgame bd_endgame;

typedef struct bd_endgame_stats {
    uint64_t entries;    /* the table's bytes */
    uint64_t positions;  /* those that are positions (the rest: mirror
                            images, and positions already over) */
    uint64_t wins;       /* positions won by the side to move */
    uint64_t draws;
    uint64_t losses;
    int longest;         /* the most plies of a win or a loss */
    int levels;          /* the retrograde passes made after the first */
} bd_endgame_stats;

/* An empty set for the variant (normalized). NULL when out of memory. */
BD_FN bd_endgame *bd_endgame_new(const bd_variant *v);
BD_FN void bd_endgame_free(bd_endgame *t);
/* The bytes of a signature's table; 0 for a signature out of range. */
BD_FN uint64_t bd_endgame_entries(int attackers, int defenders);
/* Build one signature's table on `threads` threads (the caller's among
 * them), the same bytes on any number. 0; 1 when the stop flag (NULL, or
 * the caller's) ended it (nothing kept); -1 out of memory; -2 a signature
 * out of range; -3 a smaller table it needs is not in the set; -4 a
 * distance longer than a byte holds (127 plies: BD_EG_MAX_PLIES, endgame.c). */
BD_FN int bd_endgame_build(bd_endgame *t, int attackers, int defenders, int threads,
                           const volatile int *stop, bd_endgame_stats *out);
/* A signature's table as built or loaded (bd_endgame_entries bytes), or
 * NULL when the set has none. It belongs to the set. */
BD_FN const uint8_t *bd_endgame_data(const bd_endgame *t, int attackers, int defenders);
/* Put a copy of `n` bytes in as a signature's table. 0; -1 out of memory;
 * -2 a signature out of range or n not its size. */
BD_FN int bd_endgame_load(bd_endgame *t, int attackers, int defenders, const uint8_t *data, uint64_t n);
/* The value of p for its side to move (enum bd_eg), and in *plies the
 * plies to the end with best play (a win: the fewest the winner needs; a
 * loss: the most the loser can hold out); BD_EG_NONE when no table of the
 * set holds it, or when it is over already. */
BD_FN int bd_endgame_probe(const bd_endgame *t, const bd_pos *p, int *plies);
/* Walk a table on `threads` threads and work each position's value out
 * again from its moves and the values of what they reach: how many
 * disagree (0 for a sound table; the lowest index of one in *first_bad),
 * -1 when the set has no such table, -2 when the stop flag ended it. */
BD_FN int64_t bd_endgame_check(const bd_endgame *t, int attackers, int defenders, int threads,
                               const volatile int *stop, uint64_t *first_bad);
/* The position at an index of a signature's table, whether it is one of the
 * table's or not (the caller probes it): 0, or -1 out of range. */
BD_FN int bd_endgame_position(int attackers, int defenders, uint64_t index, bd_pos *out);

/* ---- The search (search.c): iterative deepening alpha-beta over the game
 * record, limited by a count of positions and never by a clock.
 *
 * Same game (position and history), variant, budget, depth, seed, table
 * size and weights: same move, score and node count, on any machine, unless
 * the caller's stop flag ends it (the only limit that is not deterministic:
 * when it is raised is up to the caller, and so is the node it lands on),
 * or unless it runs on more than one thread (limits.threads), which is
 * never deterministic. */
#define BD_MATE 30000
/* Scores beyond this are wins (or, negated, losses) found by the search. */
#define BD_WIN 29000
#define BD_MAX_PLY 96
#define BD_MAX_DEPTH 64
/* The most threads one search runs on (bd_search_limits.threads). */
#define BD_MAX_THREADS 64

/* Features that can be turned off, one at a time, to measure what each is
 * worth (brandubh match); 0 in play. */
enum bd_off {
    BD_OFF_TT = 1,          /* transposition table: no cut-offs, no table move */
    BD_OFF_KILLERS = 2,
    BD_OFF_HISTORY = 4,
    BD_OFF_PVS = 8,         /* every move searched with the full window */
    BD_OFF_THREATS = 16,    /* an open line home is not treated as check */
    BD_OFF_QSEARCH = 32,    /* the evaluation at the horizon, no quiescence */
    BD_OFF_BLOCKS = 64,     /* blocks of the king's line not ordered first */
    BD_OFF_LMR = 128,       /* late quiet moves searched to full depth at once */
    BD_OFF_FAIL_LOW = 256,  /* no budget extension when the first root move
                               fails low */
    BD_OFF_INCREMENTAL = 512, /* the NNUE's sums built afresh at every
                               evaluation, not carried from move to move:
                               the same scores, slower (for the checks) */
    BD_OFF_RFP = 1024,      /* no return on the evaluation alone when it
                               stands well above beta near the horizon */
    BD_OFF_FUTILITY = 2048, /* quiet moves near the horizon searched even
                               where the evaluation stands well below alpha */
    BD_OFF_LMR_DEEP = 4096, /* reductions of one move whatever the depth and
                               the move's place (with lmr on) */
    BD_OFF_IIR = 8192,      /* a node the table has no move for searched to
                               its full depth */
    BD_OFF_COUNTERMOVE = 16384 /* no countermove in the second killer's
                                  place */
};

/* A transposition table the caller keeps from one search to the next: a
 * bot playing one game keeps what it learned on the last turn (the line it
 * expected, the positions it refuted) instead of starting again. Owned by
 * the caller and used by one search at a time; a search that is given one
 * answers from everything searched into it before, so its result depends on
 * those searches too (deterministically: the same searches in the same
 * order, the same results). */
typedef struct bd_table bd_table;

/* A table of the most entries of a power of two that fit in bytes (at least
 * 2^10 entries); NULL when out of memory. */
BD_FN bd_table *bd_table_new(uint64_t bytes);
BD_FN void bd_table_clear(bd_table *t);
BD_FN void bd_table_free(bd_table *t);

typedef struct bd_search_limits {
    uint64_t budget;    /* positions the search may visit, at least 1; when
                           the first root move fails low the search may go
                           on for up to half as many again (search.c) */
    int depth;          /* stop after this many moves ahead; 0 for no limit */
    uint32_t seed;      /* settles the choice among root moves that score alike */
    int off;            /* enum bd_off: the features turned off; 0 in play */
    uint64_t tt_bytes;  /* the table's size in bytes, rounded down to a power
                           of two entries (at least 2^10); 0: sized from the
                           budget (bd_tt_init) */
    /* NULL, or a flag owned by the caller, which may set it non-zero from
     * another thread at any time: the search then ends within a few
     * thousand positions, as if the budget had run out there. Never
     * written by the search. */
    const volatile int *stop;
    /* NULL: the search makes a table of its own (tt_bytes) and frees it, so
     * its result depends on nothing before it. Otherwise the caller's table,
     * used as found and left filled (tt_bytes is then not read). */
    bd_table *table;
    /* 0 or 1: the search runs in the calling thread alone, deterministic.
     * N > 1 (at most BD_MAX_THREADS): N - 1 helper threads search beside
     * it, all of them sharing one table (lazy SMP, search.c), started and
     * joined within the call. The result is the calling thread's; the
     * budget and the node count are every thread's positions together;
     * the stop flag stops them all. Not deterministic: which thread
     * writes which entry first changes with the machine's timing. */
    int threads;
    /* 0, or 1 with threads > 1: the threads take turns, a slice of about a
     * thousand positions each, in a fixed order, so that the search is
     * deterministic: what running them at once on as many equal cores
     * would do, told in positions rather than time, and no faster than one
     * thread. For measuring what the helpers are worth (bench/threads.py). */
    int lockstep;
    /* NULL, or endgame tables (above) and the function that probes them
     * (bd_endgame_probe): a position they hold, reached below the root, is
     * scored exactly (a win or a loss at its distance, a draw under
     * `repetition = draw`), when the plies it needs fit under the caps. The
     * function is given, not called by name, so that a build of the search
     * without the tables (the CodinGame export) needs no endgame.c. */
    const bd_endgame *endgame;
    int (*probe)(const bd_endgame *t, const bd_pos *p, int *plies);
} bd_search_limits;

/* Give a search the endgame tables t (endgame.c): limits->endgame and
 * limits->probe set; t NULL takes them away. */
BD_FN void bd_endgame_attach(bd_search_limits *limits, const bd_endgame *t);

typedef struct bd_search_result {
    bd_move move;       /* 0 when the game is over */
    int score;          /* for the side to move */
    int depth;          /* the deepest look whose result was used */
    uint64_t nodes;     /* positions visited (by every thread), never more
                           than the budget and half of it again (the
                           fail-low extension) */
    uint64_t own_nodes; /* those the calling thread visited: on equal cores
                           running at once, what the search's time is in */
    int stopped;        /* the budget or the stop flag ended the search part
                           way through an iteration */
    int pv_length;
    bd_move pv[BD_MAX_PLY];
} bd_search_result;

/* 0; 1 when the game is over (no move); -1 when out of memory. The game is
 * left as it was. */
BD_FN int bd_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
                    bd_search_result *out);

/* ---- The proof solver (solve.c): depth-first proof-number search for a
 * forced win from a game as it stands (its history counts: repetition and
 * the move caps are the rules'), over the move generation and the endings
 * above, with a transposition table of its own; docs/proofs.md.
 *
 * A solver is made for one game (copied: the game may change or go after),
 * then run a slice of positions at a time until it is done; between calls
 * it keeps everything. One thread. Deterministic: the same game, table
 * size and slices give the same result, unless the stop flag ends a call
 * (the search stops within a thousand positions, and the next call goes on
 * from there). */
enum bd_solved {
    BD_SOLVED_OPEN = 0,     /* not settled yet: run it again */
    BD_SOLVED_WIN = 1,      /* `winner` forces a win; a proof is ready (the
                               stage says whether a shorter one is still
                               looked for) */
    BD_SOLVED_DRAW = 2,     /* neither side can force a win */
    BD_SOLVED_UNKNOWN = 3,  /* neither side wins in the solver's model, which
                               these rules (a losing repetition, or a quiet
                               cap nearer than the ply cap) do not let settle
                               a draw */
    BD_SOLVED_LOST = 4,     /* a win was proven, but its proof could not be
                               rebuilt from a table that had lost too much of
                               it: a larger table will do */
    BD_SOLVED_NO_WIN = 5    /* bd_solver_within's side does not win within
                               its bound: every line of the other side's
                               defence answered (exact under the rules up
                               to exact_within plies) */
};
/* What a solver is doing. */
enum bd_solve_stage {
    BD_STAGE_PROVE = 0,     /* looking for either side's win, in turns */
    BD_STAGE_SHORTEN = 1,   /* a win proven: looking for a shorter one */
    BD_STAGE_EXTRACT = 2,   /* a win proven: writing its proof down */
    BD_STAGE_DONE = 3
};

typedef struct bd_solver bd_solver;

typedef struct bd_solve_status {
    int solved;             /* enum bd_solved */
    int winner;             /* BD_SOLVED_WIN: enum bd_side; else BD_NOBODY */
    int stage;              /* enum bd_solve_stage */
    int prover;             /* the side whose win is looked for now */
    int bound;              /* ... within this many plies */
    int limit;              /* the plies the rules leave from the game as it
                               stands: the ply cap's, or the quiet cap's when
                               that is nearer */
    int plies;              /* BD_SOLVED_WIN: the longest line of the proof */
    int shortest;           /* BD_SOLVED_WIN: 1 when no shorter win exists */
    bd_move first_move;     /* BD_SOLVED_WIN with the winner to move: the
                               proof's first move; else 0 */
    uint64_t nodes;         /* positions expanded, every call together */
    uint64_t proof_positions; /* BD_SOLVED_WIN: positions of the proof, with
                               either side to move */
    uint64_t proof_lines;   /* BD_SOLVED_WIN: those with the winner to move */
    int stopped;            /* the stop flag ended the last call */
    /* For each side (enum bd_side): the most plies within which it is
     * proven not to win, repetitions aside (0: none proven yet). Under
     * `repetition = loss` a win by forcing the other side to repeat is not
     * ruled out. */
    int no_win_within[2];
    /* A side's "not won within n" is the rules' own for n up to this (every
     * n where repetition draws; where it loses, the plies before a position
     * could come round often enough to end the game, which the model does
     * not see beyond the positions the history already holds). */
    int exact_within;
    int only;               /* bd_solver_within's side, or -1 */
    int within;             /* ... its bound (the limit at most); else the limit */
    int both;               /* both sides' wins are looked for at once (two
                               threads, neither settled): prover and bound
                               are then the attackers' */
} bd_solve_status;

/* A solver for the game as it stands, with a table of the most entries of
 * a power of two that fit in tt_bytes (at least 4,096); a game that is over
 * is solved already. NULL when out of memory. */
BD_FN bd_solver *bd_solver_new(const bd_game *g, uint64_t tt_bytes);
BD_FN void bd_solver_free(bd_solver *s);
/* Ask a new solver (before its first run) one question only: does
 * `prover` win within `within` plies (the limit at most)? It then looks
 * for that side's win alone, within bounds that grow from the shortest up
 * to `within`, and ends with BD_SOLVED_WIN (its proof written down, as a
 * full solve's; not shown the shortest unless the bounds below it were
 * refuted on the way) or BD_SOLVED_NO_WIN, or runs out of positions
 * (BD_SOLVED_OPEN). 0, or -1 for a side that is none, a bound below 1, or a
 * solver run already or over already. */
BD_FN int bd_solver_within(bd_solver *s, int prover, int within);
/* How many threads the solver's next runs use: 1 (the default: the same
 * game, table size and sequence of calls give the same result, counts
 * included), or 2 (more count as 2): while neither side's win is settled,
 * each side's is looked for on a thread of its own, the two sharing the
 * table and the budget, the other stopped when one is proven; the rest
 * (one side's question, the proof's extraction, the search for a shorter
 * win) on one thread. Every result is as sound as one thread's; the
 * counts, and what a budget reaches, depend on how the threads ran. The
 * number it will use: 1 where the platform has no threads (WebAssembly).
 * Between calls of bd_solver_run only. */
BD_FN int bd_solver_threads(bd_solver *s, int threads);
/* Go on for up to `nodes` more positions, or until done, or until the stop
 * flag (NULL, or the caller's, as bd_search_limits.stop) is raised. A win
 * found has its proof written down at once (which may search again what
 * the table has lost, up to as many positions as were searched before):
 * from then on the solver holds a proof, and looks for a shorter one.
 * Writes where it stands into out. 0, or -1 when out of memory (the solver
 * is then of no more use). */
BD_FN int bd_solver_run(bd_solver *s, uint64_t nodes, const volatile int *stop, bd_solve_status *out);
/* The proof of a win, one position with the winner to move at a time
 * (0 <= i < proof_lines; the root's first when the winner is to move):
 * its position string (BD_POS_TEXT_MAX bytes at most) and the winner's
 * move there. Every position the proof reaches with the winner to move is
 * one of them, and each line of play from the root through them ends in
 * the winner's win. 1, or 0 for an i past the end. */
BD_FN int bd_solver_proof_line(const bd_solver *s, uint64_t i, char *position, bd_move *move);
/* A draw's proof (BD_SOLVED_DRAW only): the refutation of `prover`'s win
 * within the plies the rules leave, written down as every position it
 * reaches with the other side to move, with that side's move there (every
 * move of the prover answered). Gives up past `most` positions. 0 with
 * *lines set; 1 when it is larger than that or could not be rebuilt (or
 * the solver holds no draw); -1 out of memory. The lines, read by
 * bd_solver_refutation_line as bd_solver_proof_line reads a win's, last
 * until the next call; bd_solver_refuted_positions gives the positions
 * the last refutation reaches, either side to move. */
BD_FN int bd_solver_refutation(bd_solver *s, int prover, uint64_t most, uint64_t *lines);
BD_FN int bd_solver_refutation_line(const bd_solver *s, uint64_t i, char *position, bd_move *move);
BD_FN uint64_t bd_solver_refuted_positions(const bd_solver *s);
/* The solver's state, saved to go on later (brandubh solve --state), in
 * three parts read and written in place: 0, a header (what resuming needs
 * besides the rest, with the game's root and the table's size to check it
 * by; filled in when asked for); 1, the table; 2, the proof in hand. The
 * machine's byte order. bd_solver_state gives a part's address and length.
 * To resume: a new solver for the same game and table size, given the
 * header by bd_solver_restore (0, or one of enum bd_restore, the solver
 * then unchanged), then the table and the proof read into the parts that
 * bd_solver_state names now. Between calls of bd_solver_run only; the
 * solver resumed goes on exactly as the one saved would have. */
enum bd_restore {
    BD_RESTORE_FORMAT = -1, /* not a header of this solver's layout and version */
    BD_RESTORE_GAME = -2,   /* saved for another game (position, history, rules) */
    BD_RESTORE_TABLE = -3,  /* saved with a table of another size */
    BD_RESTORE_MEMORY = -4  /* out of memory for the proof */
};
BD_FN uint64_t bd_solver_state(bd_solver *s, int part, void **at);
BD_FN int bd_solver_restore(bd_solver *s, const void *head, uint64_t len);

/* ---- Self-play for learning (selfplay.c): whole games of the search
 * against itself, each position written down with the search's score and,
 * once the game is over, its result. */
typedef struct bd_sample {
    uint64_t att;       /* the attackers' squares */
    uint64_t dfn;       /* the defenders', the king not included */
    int16_t score;      /* the search's score, from the attackers' side */
    uint16_t ply;       /* moves made before this position */
    int8_t king;        /* the king's square, or -1 */
    uint8_t side;       /* enum bd_side: to move */
    int8_t result;      /* the game's end: 1 the attackers won, -1 the
                           defenders, 0 a draw */
    uint8_t flags;      /* enum bd_sample_flag in the low four bits; the
                           caller's tag (0-15) in the high four */
} bd_sample;

enum bd_sample_flag {
    BD_SAMPLE_LANE = 1,     /* the king had an open line home */
    BD_SAMPLE_CAPTURE = 2,  /* the side to move had a capture */
    BD_SAMPLE_MATE = 4      /* the search's score was a win or a loss found */
};

/* One game from `start` (not an ending): `random_plies` moves chosen
 * uniformly by a generator seeded with `seed`, then the search's move each
 * turn (limits, weights; its seed is limits->seed plus the ply), each of
 * those positions written into out[max] with the game's result, until the
 * game ends or `max` are written (the game is then cut there, a draw).
 * `popcnt`: 1 to run the popcount build's search (only when
 * bd_cpu_has_popcnt says 1). `tag`, 0-15, goes into each sample's flags.
 * Returns how many were written, or -1 when out of memory. The same
 * arguments give the same samples on every machine. */
BD_FN int bd_selfplay(const bd_variant *v, const bd_pos *start, uint64_t seed, int random_plies,
                      const bd_search_limits *limits, const bd_weights *w, int popcnt, int tag,
                      bd_sample *out, int max);
/* The learned evaluation's counts (enum bd_learned_input) for each of n
 * samples, into out[n][BD_LEARNED_INPUTS]; a sample with no king gets
 * zeros. */
BD_FN void bd_learned_inputs(const bd_variant *v, const bd_sample *samples, int n, int16_t *out);

/* ---- Encodings for learning programs (encode.c): a fixed set of action
 * numbers, and the board as planes of bytes (docs/rl.md draws them).
 *
 * An action is a square left, a direction (enum bd_dir's order: east,
 * west, north, south) and a distance of 1 to 6 squares:
 * action = from * 24 + direction * 6 + (distance - 1). Every move is one
 * action; some actions (those that leave the board) are no move at all. */
#define BD_ACTIONS 1176

/* The move of an action number from 0 to BD_ACTIONS - 1, or 0 (no move:
 * from a1 to a1) when the action leaves the board. */
BD_FN bd_move bd_action_move(int action);
/* The action of a move along a rank or a file, or -1 for one that is not. */
BD_FN int bd_move_action(bd_move m);

/* The planes of an observation, BD_SQUARES bytes each, square s at byte s
 * (rank * 7 + file). They are seen by one side: "own" is that side's pieces
 * (the defenders' include the king), "enemy" the other side's. */
enum bd_plane {
    BD_PLANE_OWN = 0,      /* 1 where a piece of the side stands */
    BD_PLANE_ENEMY = 1,    /* 1 where a piece of the other side stands */
    BD_PLANE_KING = 2,     /* 1 on the king's square */
    BD_PLANE_THRONE = 3,   /* 1 on the throne */
    BD_PLANE_CORNERS = 4,  /* 1 on the four corners */
    BD_PLANE_TO_MOVE = 5,  /* every byte 1 when the defenders are to move */
    BD_PLANE_REPEATS = 6   /* every byte: how often the position on the board
                              has occurred (bd_game_repeats), at most 255 */
};
#define BD_PLANES 7

/* The game's position as `side` (enum bd_side) sees it, into
 * planes[BD_PLANES * BD_SQUARES]. */
BD_FN void bd_observe(const bd_game *g, int side, uint8_t *planes);
/* mask[a] = 1 for every action that is a legal move now, 0 for the others
 * (all 0 once the game is over), into mask[BD_ACTIONS]; returns how many
 * are 1. */
BD_FN int bd_action_mask(const bd_game *g, uint8_t *mask);

/* ---- Batched environments (vecenv.c): many games under one rule set,
 * stepped together by one call, each game started again from the start as
 * soon as it ends. What a call writes goes into the caller's arrays, named
 * in a bd_vec_out, one row per game.
 *
 * Each game has a generator of its own, seeded from the environment's seed
 * and the game's number, used by bd_vec_random only: the same seed gives
 * the same games on every machine. */
typedef struct bd_vec bd_vec;

typedef struct bd_vec_out {
    uint8_t *obs;          /* [n][BD_PLANES * BD_SQUARES], for the side to move
                              (or the attackers, in the fixed view) */
    uint8_t *masks;        /* [n][BD_ACTIONS], bd_action_mask of each game */
    float *rewards;        /* [n]: +1, -1 or 0 for the side that moved */
    uint8_t *terminated;   /* [n]: 1 when the move ended the game by its rules */
    uint8_t *truncated;    /* [n]: 1 when the game reached max_plies unended */
    uint8_t *outcomes;     /* [n]: enum bd_outcome of the game that ended, else 0 */
    int8_t *winners;       /* [n]: enum bd_side of its winner, else BD_NOBODY */
    uint8_t *final_obs;    /* NULL, or [n][BD_PLANES * BD_SQUARES]: the last
                              position of each game that ended, as obs would
                              have shown it (other rows are left alone) */
} bd_vec_out;

/* What bd_vec_step says. */
enum bd_vec_code { BD_VEC_OK = 0, BD_VEC_ILLEGAL = 1, BD_VEC_NO_MEMORY = 2 };

/* `n` games (at least 1) from `start`, which must not be an ending
 * already; `max_plies`: 0, or the length at which a game is cut short
 * (truncated); `fixed`: 1 for observations seen by the attackers whatever
 * the side to move, 0 for the side to move's. NULL when out of memory. The
 * games stand at the start; call bd_vec_reset before the first step. */
BD_FN bd_vec *bd_vec_new(const bd_variant *v, const bd_pos *start, int n, int max_plies, int fixed);
BD_FN void bd_vec_free(bd_vec *e);
BD_FN int bd_vec_size(const bd_vec *e);
/* How many threads (1 to BD_MAX_THREADS; 1 at first) the calls below split
 * the games over, in contiguous slices: the first in the calling thread,
 * the others on threads - 1 workers that the environment keeps from call
 * to call (made by the first call that splits, ended by bd_vec_free or
 * another count); one call at a time. A step, the masks and the random
 * actions take a thread only for every 32 games. Every array comes out the
 * same, byte for byte, on any number of threads. */
BD_FN void bd_vec_set_threads(bd_vec *e, int threads);
/* Every game back to the start, the generators seeded from `seed`;
 * writes obs and masks, and clears the rest of `out` (final_obs aside). */
BD_FN void bd_vec_reset(bd_vec *e, uint64_t seed, const bd_vec_out *out);
/* Play actions[i] in game i, for every game, and write `out`. Every action
 * is checked first: on anything but BD_VEC_OK nothing has changed, and for
 * BD_VEC_ILLEGAL *bad is the first game whose action is not a legal move. */
BD_FN int bd_vec_step(bd_vec *e, const int32_t *actions, const bd_vec_out *out, int *bad);
/* The observations (obs may be NULL) and masks of every game as they stand,
 * each row of the masks written whole. The masks must be the same array
 * every call of an environment takes them (bd_vec_reset, bd_vec_step,
 * bd_vec_observe): a step clears only what the last call marked. */
BD_FN void bd_vec_observe(bd_vec *e, uint8_t *obs, uint8_t *masks);
/* A uniformly random legal action for every game, from its own generator:
 * of the game's n legal actions in increasing order, the k-th, with
 * k = (the generator's next number >> 32) * n >> 32. */
BD_FN void bd_vec_random(bd_vec *e, int32_t *actions);
/* The search's action (and its score for the side to move, when scores is
 * not NULL) for every game, one bd_search each with the seed limits->seed
 * plus the game's number, on one thread (limits->threads is not read: the
 * environment's threads take a slice of the games each); `popcnt`: 1 to run
 * the popcount build's search (only when bd_cpu_has_popcnt says 1). Returns
 * 0, 1 when the stop flag ended it (the rows of games whose search it cut
 * or never started mean nothing), or -1 when out of memory. */
BD_FN int bd_vec_search(const bd_vec *e, const bd_search_limits *limits, const bd_weights *w,
                        int popcnt, int32_t *actions, int32_t *scores);
/* Game i as it stands (0 <= i < n), for reading through the bd_game_*
 * accessors: it belongs to the environment, and holds until its next
 * step, reset or free. */
BD_FN const bd_game *bd_vec_game(const bd_vec *e, int i);

/* ---- The hot entry points compiled a second time for processors with the
 * popcount instruction (popcnt_build.c). Call them only when
 * bd_cpu_has_popcnt() says 1; they answer exactly as bd_perft, bd_divide,
 * bd_playouts and bd_search do, and take the same positions and games. */

/* 1 when this processor runs the popcount build. */
int bd_cpu_has_popcnt(void);

int bd_popcnt_perft(const bd_variant *v, const bd_pos *p, int depth, int slides, int bulk,
                    bd_perft_stats *stats, const volatile int *stop);
int bd_popcnt_divide(const bd_variant *v, const bd_pos *p, int depth, int slides,
                     bd_move *moves, uint64_t *counts, const volatile int *stop);
int bd_popcnt_playouts(bd_game *g, uint64_t games, uint64_t seed, bd_playout_stats *out,
                       const volatile int *stop);
int bd_popcnt_search(const bd_game *g, const bd_search_limits *limits, const bd_weights *w,
                     bd_search_result *out);

/* BD_CDEF_END */

#endif

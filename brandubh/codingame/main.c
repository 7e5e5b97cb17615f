/* The CodinGame bot's turn loop and clock, around the engine: the template
 * that `brandubh codingame --export FILE` fills in (brandubh/export.py): each
 * marked comment line is replaced by the engine's sources, the tables'
 * start-up code, the bot's settings and so on. */
/*@PROLOGUE@*/
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O2")
#endif
/*@INCLUDES@*/
#include <stdio.h>
#include <time.h>

/* The search's clock (the hook in csrc/search.c's check_limits, empty in
 * the package): past the turn's deadline the search stops as when its budget
 * runs out, keeping the best move of what it finished. */
static int bot_clock_out(void);
#define BD_EXPORT_CLOCK_CHECK(c) do { if (bot_clock_out()) (c)->stopped = 1; } while (0)
/*@ENGINE@*/
/*@TABLES@*/
/*@SETTINGS@*/
/*@NET@*/

/* The NNUE's weights from BOT_NET's text (export.py's pack_net says how it
 * is written): the first layer's rows up to the rule's, the row of the
 * rule the bot plays, the hidden biases, the output weights. */
static void bot_net_init(void) {
    static int digit[128];
    const char *const *chunk = BOT_NET;
    const char *s = *chunk;
    int i, base = (int)strlen(BOT_NET_DIGITS);
    for (i = 0; i < base; i++) digit[(int)BOT_NET_DIGITS[i]] = i;
    for (i = 0; i < (BD_NNUE_RULE + 3) * BD_NNUE_HIDDEN; i++) {
        int row = i / BD_NNUE_HIDDEN, j = i % BD_NNUE_HIDDEN, u;
        int16_t x;
        if (!*s) s = *++chunk;
        u = digit[(int)*s++];
        if (u >= BOT_NET_ONE) u = BOT_NET_ONE + (u - BOT_NET_ONE) * base + digit[(int)*s++];
        x = (int16_t)(u & 1 ? -(u >> 1) - 1 : u >> 1);
        if (row < BD_NNUE_RULE) BD_NNUE_W1[row][j] = x;
        else if (row == BD_NNUE_RULE) BD_NNUE_W1[row + (BOT_VARIANT.king_capture & 3)][j] = x;
        else if (row == BD_NNUE_RULE + 1) BD_NNUE_B1[j] = x;
        else BD_NNUE_W2[j] = x;
    }
    BD_NNUE_B2 = BOT_NET_B2;
}

/* Wall-clock milliseconds (what the referee measures); CPU time where C11's
 * timespec_get is not there. */
static double bot_now(void) {
#if defined(TIME_UTC)
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
#else
    return (double)clock() * 1e3 / CLOCKS_PER_SEC;
#endif
}

static double bot_deadline;

static int bot_clock_out(void) { return bot_now() >= bot_deadline; }

/* A line of standard input without its line end; 0 at the end of input. */
static int bot_line(char *buf, int size) {
    int n;
    if (!fgets(buf, size, stdin)) return 0;
    n = (int)strlen(buf);
    if (n == size - 1 && buf[n - 1] != '\n') {
        int ch;
        while ((ch = getchar()) != EOF && ch != '\n') {
        }
    }
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        buf[--n] = 0;
    return 1;
}

static char *bot_trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* A move read as the puzzle's referee reads an answer (brandubh.notation's
 * LENIENT_ANSWER): "d2c2", in either case, with at most one space between
 * the squares ("D2C2", "d2 c2"); 0 when it is not one. The last move is
 * the opponent's answer, which may reach the bot in any of these forms. */
static bd_move bot_parse(const char *s) {
    int ff, fr, tf, tr;
    const char *to = s + 2;
    if (strlen(s) == 5 && s[2] == ' ') to++;
    else if (strlen(s) != 4) return 0;
    /* | 32: A-G as a-g (no other character becomes a-g). */
    ff = (s[0] | 32) - 'a', fr = s[1] - '1', tf = (to[0] | 32) - 'a', tr = to[1] - '1';
    if (ff < 0 || ff > 6 || fr < 0 || fr > 6 || tf < 0 || tf > 6 || tr < 0 || tr > 6) return 0;
    return (bd_move)((fr * 7 + ff) * 64 + tr * 7 + tf);
}

static void bot_text(bd_move m, char *out) {
    int from = m >> 6, to = m & 63;
    out[0] = (char)('a' + from % 7), out[1] = (char)('1' + from / 7);
    out[2] = (char)('a' + to % 7), out[3] = (char)('1' + to / 7), out[4] = 0;
}

/* Seven board lines (rank 7 first) and the side to move as a position
 * string; 0 when they are not a board. With `loose`, anything unreadable is
 * an empty square and a second king is dropped. */
static int bot_board(char rows[7][64], int side, int loose, char *out) {
    int i, j, n = 0, kings = 0;
    for (i = 0; i < 7; i++) {
        const char *row = bot_trim(rows[i]);
        if (!loose && strlen(row) != 7) return 0;
        for (j = 0; j < 7; j++) {
            char ch = j < (int)strlen(row) ? row[j] : '.';
            if (ch == 'K' && ++kings > 1 && loose) ch = '.';
            if (ch == 'A') out[n++] = 'a';
            else if (ch == 'D') out[n++] = 'd';
            else if (ch == 'K') out[n++] = 'k';
            else if (ch == '.' || loose) out[n++] = '1';
            else return 0;
        }
        out[n++] = i < 6 ? '/' : ' ';
    }
    out[n++] = side ? 'd' : 'a';
    out[n] = 0;
    return kings <= 1;
}

static int bot_side(const bd_game *g) { return g->hist[g->ply].pos.side; }

static int bot_same(const bd_game *g, const char *text) {
    bd_pos p;
    const bd_pos *now = &g->hist[g->ply].pos;
    return bd_pos_from_string(text, &p) == BD_POS_OK && p.att == now->att && p.dfn == now->dfn &&
           p.king == now->king && p.side == now->side;
}

static bd_game *bot_start(const char *text) {
    bd_pos p;
    if (bd_pos_from_string(text, &p) != BD_POS_OK) return NULL;
    return bd_game_new(&BOT_VARIANT, &p);
}

static uint64_t bot_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(void) {
    char role_line[64], last_line[64], rows[7][64], given[BD_POS_TEXT_MAX], out[8];
    bd_game *record = NULL;
    bd_weights w;
    int turn = 0, role = -1, i;
    /* One table for the whole game: what a turn searched, the next turn
     * finds (the reply it expected, the lines it refuted) instead of
     * searching it again. Made before the first turn's clock runs. */
    bd_table *table = BOT_KEEP_TABLE ? bd_table_new(BOT_TT_BYTES) : NULL;
    bd_tables_init();
    bot_net_init();
    bd_default_weights(&w);
    /*@WEIGHTS@*/
    for (;;) {
        double start;
        int r, have_board, first = record == NULL;
        bd_move last, legal[BD_MAX_MOVES], move = 0;
        bd_game *trial = NULL;
        int n;
        do {
            if (!bot_line(role_line, sizeof role_line)) return 0;
        } while (!*bot_trim(role_line));
        start = bot_now();
        for (i = 0; i < 8; i++)
            if (!bot_line(i ? rows[i - 1] : last_line, 64)) strcpy(i ? rows[i - 1] : last_line, "");
        r = bot_trim(role_line)[0] - '0';
        if ((r == 0 || r == 1) && !bot_trim(role_line)[1]) role = r;
        else {
            fprintf(stderr, "turn %d: the role line is not 0 or 1\n", turn + 1);
            if (role < 0) role = 0;
        }
        last = bot_parse(bot_trim(last_line));
        have_board = bot_board(rows, role, 0, given);
        if (!have_board) fprintf(stderr, "turn %d: the board cannot be read\n", turn + 1);
        /* The record after the reported move, and whether the board is it. */
        if (last) {
            trial = record ? bd_game_clone(record) : bot_start(BOT_SETUP);
            if (trial && (bot_side(trial) == role || bd_game_play(trial, last, NULL) != BD_PLAY_OK)) {
                bd_game_free(trial);
                trial = NULL;
            }
        }
        if (trial && bot_side(trial) == role && (!have_board || bot_same(trial, given))) {
            bd_game_free(record);
            record = trial;
        } else {
            bd_game_free(trial);
            if (!have_board && record && bot_side(record) == role && record->outcome == BD_ONGOING) {
                fprintf(stderr, "turn %d: playing on from my record\n", turn + 1);
            } else {
                if (!have_board) bot_board(rows, role, 1, given);
                if (!first || last || strcmp(bot_trim(last_line), "NONE"))
                    fprintf(stderr, "turn %d: the board does not follow from my record: starting from it\n",
                            turn + 1);
                bd_game_free(record);
                record = bot_start(given);
            }
        }
        if (record && record->outcome != BD_ONGOING) {
            fprintf(stderr, "turn %d: my record says the game is over: playing on from the board\n", turn + 1);
            trial = bd_game_new(&BOT_VARIANT, &record->hist[record->ply].pos);
            bd_game_free(record);
            record = trial;
        }
        n = 0;
        if (record) {
            n = bd_game_moves(record, legal);
            if (n == 0) n = bd_gen_moves(&BOT_VARIANT, &record->hist[record->ply].pos, legal);
        }
        if (n > 0) {
            bd_search_limits lim;
            bd_search_result res;
            memset(&res, 0, sizeof res);
            uint64_t salt = bot_mix(BOT_SEED ^ bot_mix(record->hist[record->ply].pos.key + (uint64_t)record->ply));
            memset(&lim, 0, sizeof lim);
            lim.budget = turn ? BOT_BUDGET : BOT_FIRST_BUDGET;
            lim.seed = (uint32_t)salt;
            lim.tt_bytes = BOT_TT_BYTES;
            lim.table = table;
            bot_deadline = start + (turn ? BOT_TURN_STOP_MS : BOT_FIRST_STOP_MS);
            if ((double)(salt >> 11) / 9007199254740992.0 < BOT_BLUNDER)
                move = legal[bot_mix(salt) % (uint64_t)n];
            else if (record->outcome == BD_ONGOING && bd_search(record, &lim, &w, &res) == 0)
                move = res.move;
            for (i = 0; i < n && legal[i] != move; i++) {
            }
            if (i == n) move = legal[0];
            if (BOT_VERBOSE)
                fprintf(stderr, "turn %d: depth %d, %lu nodes, %.1f ms, seed %lu\n", turn + 1, res.depth,
                        (unsigned long)res.nodes, bot_now() - start, (unsigned long)lim.seed);
        }
        if (move) bot_text(move, out);
        else strcpy(out, "NONE");
        printf("%s\n", out);
        fflush(stdout);
        if (move && record && bd_game_play(record, move, NULL) != BD_PLAY_OK) {
            trial = bd_game_new(&BOT_VARIANT, &record->hist[record->ply].pos);
            bd_game_free(record);
            record = trial;
            if (record) bd_game_play(record, move, NULL);
        }
        turn++;
    }
}

/* The engine's lookup tables computed at start-up (csrc/tables.c holds them
 * written out, made by tools/gen_tables.py; this is the same logic in C, and
 * tests/test_export.py checks the two agree). */
static void bd_tables_init(void) {
    static const int step[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    uint64_t state = 0x6272616E64756268ULL, z;
    int i, o, s, d, k, f, r, ff, rr;
    for (i = 0; i < 7; i++)
        for (o = 0; o < 128; o++) {
            int reach = 0, j;
            for (j = i + 1; j < 7 && !(o >> j & 1); j++) reach |= 1 << j;
            for (j = i - 1; j >= 0 && !(o >> j & 1); j--) reach |= 1 << j;
            BD_SLIDE[i][o] = (uint8_t)reach;
        }
    for (o = 0; o < 128; o++) {
        BD_SPREAD[o] = 0;
        for (k = 0; k < 7; k++)
            if (o >> k & 1) BD_SPREAD[o] |= 1ULL << (7 * k);
    }
    for (s = 0; s < 49; s++) {
        f = s % 7;
        r = s / 7;
        BD_FILE_OF[s] = (uint8_t)f;
        BD_RANK_OF[s] = (uint8_t)r;
        BD_ADJACENT[s] = 0;
        for (d = 0; d < 4; d++) {
            uint64_t b = 0;
            for (k = 1; k <= 2; k++) {
                ff = f + step[d][0] * k;
                rr = r + step[d][1] * k;
                z = (uint64_t)(ff >= 0 && ff < 7 && rr >= 0 && rr < 7 ? rr * 7 + ff : 255);
                if (k == 1) BD_NEAR[s][d] = (int8_t)(z == 255 ? -1 : (int)z);
                else BD_FAR[s][d] = (int8_t)(z == 255 ? -1 : (int)z);
            }
            if (BD_NEAR[s][d] >= 0) BD_ADJACENT[s] |= 1ULL << BD_NEAR[s][d];
            for (ff = f - step[d][0], rr = r - step[d][1]; ff >= 0 && ff < 7 && rr >= 0 && rr < 7;
                 ff -= step[d][0], rr -= step[d][1])
                b |= 1ULL << (rr * 7 + ff);
            BD_BEHIND[d][s] = b;
        }
    }
    for (o = 0; o < 256; o++) {
        for (i = 0; i < 8; i++) BD_SELECT_IN_BYTE[o][i] = 8;
        for (i = 0, k = 0; i < 8; i++)
            if (o >> i & 1) BD_SELECT_IN_BYTE[o][k++] = (uint8_t)i;
    }
    /* Zobrist keys: splitmix64 from the seed "brandubh". */
    for (i = 0; i <= 3 * 49; i++) {
        state += 0x9E3779B97F4A7C15ULL;
        z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        if (i < 3 * 49) BD_ZOBRIST[i / 49][i % 49] = z;
        else BD_ZOBRIST_SIDE = z;
    }
}

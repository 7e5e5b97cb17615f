/* VectorEnv's C calls timed without Python: steps a second of
 * bd_vec_random + bd_vec_step over N games on T threads, with the calling
 * thread's and the process's CPU time (docs/rl.md, "Speed"). Linux/POSIX.
 *
 *     gcc -std=c99 -O3 -pthread -Icsrc csrc/[a-z]*.c bench/vecenv_threads.c -o vecenv_threads
 *     ./vecenv_threads 8192 2 60      # games, threads, steps
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "brandubh.h"
static double now(clockid_t c) { struct timespec t; clock_gettime(c, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
    int n, threads, steps, i, bad;
    bd_variant v = {0, 1, 0, 1, 1, BD_KING_NIELSEN, 0, 1, 0, 0, 3, 1, 400, 0};
    bd_pos *start = bd_pos_new();
    bd_vec *e; bd_vec_out out;
    int32_t *actions;
    if (argc != 4) {
        fprintf(stderr, "usage: vecenv_threads GAMES THREADS STEPS\n");
        return 2;
    }
    n = atoi(argv[1]);
    threads = atoi(argv[2]);
    steps = atoi(argv[3]);
    if (n < 1 || threads < 1 || steps < 1) return 2;
    actions = malloc(sizeof(int32_t) * (size_t)n);
    bd_variant_normalize(&v, 400);
    bd_pos_from_string("3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a", start);
    e = bd_vec_new(&v, start, n, 0, 0);
    bd_vec_set_threads(e, threads);
    memset(&out, 0, sizeof out);
    out.obs = calloc((size_t)n, BD_PLANES * BD_SQUARES); out.masks = calloc((size_t)n, BD_ACTIONS);
    out.rewards = calloc((size_t)n, 4); out.terminated = calloc(n, 1); out.truncated = calloc(n, 1);
    out.outcomes = calloc(n, 1); out.winners = calloc(n, 1); out.final_obs = calloc((size_t)n, BD_PLANES * BD_SQUARES);
    bd_vec_reset(e, 1, &out);
    for (i = 0; i < 5; i++) { bd_vec_random(e, actions); bd_vec_step(e, actions, &out, &bad); }
    double w = now(CLOCK_MONOTONIC), c = now(CLOCK_THREAD_CPUTIME_ID), p = now(CLOCK_PROCESS_CPUTIME_ID);
    for (i = 0; i < steps; i++) { bd_vec_random(e, actions); bd_vec_step(e, actions, &out, &bad); }
    w = now(CLOCK_MONOTONIC) - w; c = now(CLOCK_THREAD_CPUTIME_ID) - c; p = now(CLOCK_PROCESS_CPUTIME_ID) - p;
    printf("%d games, %d threads: %.0f steps/s wall; calling thread CPU %.3f s, process CPU %.3f s, wall %.3f s\n",
           n, threads, (double)n * steps / w, c, p, w);
    return 0;
}

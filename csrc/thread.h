/* Threads and the few atomic operations the engine shares between them
 * (thread.c): the search's helper threads (search.c) and the batched
 * environments' slices (vecenv.c). POSIX threads, or Windows threads under
 * _WIN32; nothing else. A thread is started by a call and joined before the
 * same call returns, but for a pool's workers (bd_pool), which a
 * structure holds (a batched environment) and its free ends.
 *
 * With BD_NO_THREADS defined (the exported CodinGame bot, one file built
 * with a bare `gcc bot.c`), no thread can be started: bd_thread_start says
 * NULL, and every caller then does the work in the calling thread.
 * WebAssembly (web/: the engine in a browser or Node) has no threads the
 * engine could start, so there BD_NO_THREADS is always defined. */
#ifndef BD_THREAD_H
#define BD_THREAD_H

#include <stddef.h>
#include <stdint.h>

#if defined(__wasm__) && !defined(BD_NO_THREADS)
#define BD_NO_THREADS
#endif

#include "core.h"

typedef struct bd_thread bd_thread;

#ifdef BD_NO_THREADS
static inline bd_thread *bd_thread_start(void (*fn)(void *), void *arg) {
    (void)fn;
    (void)arg;
    return NULL;
}
static inline void bd_thread_join(bd_thread *t) { (void)t; }
#else
/* A new thread running fn(arg); NULL when the platform refuses one (the
 * caller then runs the work itself). */
BD_FN bd_thread *bd_thread_start(void (*fn)(void *), void *arg);
/* Wait for the thread to end, and free it. */
BD_FN void bd_thread_join(bd_thread *t);
#endif

/* A pool of threads kept from call to call, for work cut into many short
 * calls (vecenv.c's steps: a fraction of a millisecond each, where starting
 * and joining a thread a call cost as much as the second thread saved).
 * Its workers wait between runs, a fraction of a millisecond awake (a run
 * that follows soon finds them at once), then asleep. They outlive the call
 * that made them, and end when the pool is freed. */
typedef struct bd_pool bd_pool;

#ifdef BD_NO_THREADS
static inline bd_pool *bd_pool_new(int workers) {
    (void)workers;
    return NULL;
}
static inline int bd_pool_workers(const bd_pool *pool) {
    (void)pool;
    return 0;
}
static inline void bd_pool_run(bd_pool *pool, int count, void (*fn)(void *, int), void *arg) {
    int k;
    (void)pool;
    for (k = 0; k < count; k++) fn(arg, k);
}
static inline void bd_pool_free(bd_pool *pool) { (void)pool; }
#else
/* A pool of up to `workers` threads; NULL when not one could be started
 * (or memory lacks): bd_pool_run then does all the work itself. */
BD_FN bd_pool *bd_pool_new(int workers);
/* How many workers it has (0 for NULL). */
BD_FN int bd_pool_workers(const bd_pool *pool);
/* fn(arg, k) for every k from 0 to count - 1, all done when it returns:
 * the calling thread and the workers each take the next k not yet taken
 * until none is left, so which thread does which k is not fixed (the work
 * must not care), and a worker slow to start leaves its share to the
 * others. One run at a time. */
BD_FN void bd_pool_run(bd_pool *pool, int count, void (*fn)(void *, int), void *arg);
/* End the workers (each finishes first) and free the pool; NULL is fine. */
BD_FN void bd_pool_free(bd_pool *pool);
#endif

/* A baton passed round the threads of one search (search.c's lockstep):
 * one thread runs at a time, in the order 0, 1, ..., n - 1, 0, ..., each
 * until it hands the baton on, so that what they share (the table, the
 * budget) is read and written in the same order on every run, whatever the
 * machine's timing. A thread that leaves is skipped from then on. Each hand
 * over is a lock and a wake-up: under a microsecond's work between them it
 * would cost more than the work. */
typedef struct bd_baton bd_baton;

#ifdef BD_NO_THREADS
static inline bd_baton *bd_baton_new(int threads) {
    (void)threads;
    return NULL;
}
static inline void bd_baton_next(bd_baton *b, int me) { (void)b, (void)me; }
static inline void bd_baton_leave(bd_baton *b, int me) { (void)b, (void)me; }
static inline void bd_baton_free(bd_baton *b) { (void)b; }
#else
/* A baton for threads 0 to threads - 1, held by thread 0; NULL when
 * memory lacks. */
BD_FN bd_baton *bd_baton_new(int threads);
/* Thread `me`, holding the baton, hands it to the next thread still in
 * (itself when none is), and waits until it comes back. A thread's first
 * call, before it ever held the baton, only waits for it. */
BD_FN void bd_baton_next(bd_baton *b, int me);
/* Thread `me` is done: skipped from now on, and the baton, if it held it,
 * goes to the next thread still in. Any thread may say so for a thread
 * that never started. */
BD_FN void bd_baton_leave(bd_baton *b, int me);
/* Free it, once every thread has left or ended; NULL is fine. */
BD_FN void bd_baton_free(bd_baton *b);
#endif

/* Relaxed atomic loads and stores of a word that another thread may write
 * at the same time: each reads or writes the whole word at once (so a
 * reader never sees half of one write), and the compiler may not keep it
 * in a register. They order nothing else: the transposition table checks
 * each entry instead (tt.h), and the flags are only ever raised. On x86
 * and ARM each is one plain load or store. */
#if defined(__GNUC__) || defined(__clang__)
static inline uint64_t bd_load64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void bd_store64(uint64_t *p, uint64_t x) { __atomic_store_n(p, x, __ATOMIC_RELAXED); }
static inline int bd_load_flag(const volatile int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void bd_store_flag(volatile int *p, int x) { __atomic_store_n(p, x, __ATOMIC_RELAXED); }
/* Replace *p by `want` if it still holds `seen`; 1 when it did. */
static inline int bd_cas64(uint64_t *p, uint64_t seen, uint64_t want) {
    return __atomic_compare_exchange_n(p, &seen, want, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
#elif defined(_MSC_VER)
#include <intrin.h>
/* MSVC: aligned volatile 64-bit accesses are single loads and stores on
 * x64 and ARM64. */
static inline uint64_t bd_load64(const uint64_t *p) { return *(const volatile uint64_t *)p; }
static inline void bd_store64(uint64_t *p, uint64_t x) { *(volatile uint64_t *)p = x; }
static inline int bd_load_flag(const volatile int *p) { return *p; }
static inline void bd_store_flag(volatile int *p, int x) { *p = x; }
static inline int bd_cas64(uint64_t *p, uint64_t seen, uint64_t want) {
    return (uint64_t)_InterlockedCompareExchange64((volatile __int64 *)p, (__int64)want, (__int64)seen) == seen;
}
#else
/* Elsewhere: volatile accesses, enough for one thread; BD_NO_THREADS is the
 * safe choice for such a compiler. */
static inline uint64_t bd_load64(const uint64_t *p) { return *(const volatile uint64_t *)p; }
static inline void bd_store64(uint64_t *p, uint64_t x) { *(volatile uint64_t *)p = x; }
static inline int bd_load_flag(const volatile int *p) { return *p; }
static inline void bd_store_flag(volatile int *p, int x) { *p = x; }
static inline int bd_cas64(uint64_t *p, uint64_t seen, uint64_t want) {
    if (*p != seen) return 0;
    *p = want;
    return 1;
}
#endif

#ifndef BD_NO_THREADS
/* Give the processor to another thread that is ready to run (thread.c). */
BD_FN void bd_thread_yield(void);

/* A lock in an int (0 when free), for a few loads and stores at a time
 * (the solver's table, solve.c: one in each bucket, on the line the bucket
 * is read from, so that taking it costs no more memory traffic): taking it
 * is an acquire, leaving it a release, so what one thread wrote under it
 * the next to take it sees whole. It spins a while, then yields: on a
 * machine with more threads than cores, the holder may be waiting for a
 * core. With no threads there is nothing to lock (the caller takes none). */
#if defined(__GNUC__) || defined(__clang__)
static inline int bd_spin_try(int *p) { return !__atomic_exchange_n(p, 1, __ATOMIC_ACQUIRE); }
static inline int bd_spin_held(const int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void bd_spin_unlock(int *p) { __atomic_store_n(p, 0, __ATOMIC_RELEASE); }
#elif defined(_MSC_VER)
/* The Interlocked functions are full barriers: acquire and release both. */
static inline int bd_spin_try(int *p) { return !_InterlockedExchange((volatile long *)p, 1); }
static inline int bd_spin_held(const int *p) { return *(const volatile int *)p; }
static inline void bd_spin_unlock(int *p) { _InterlockedExchange((volatile long *)p, 0); }
#else
static inline int bd_spin_try(int *p) {
    if (*(volatile int *)p) return 0;
    *(volatile int *)p = 1;
    return 1;
}
static inline int bd_spin_held(const int *p) { return *(const volatile int *)p; }
static inline void bd_spin_unlock(int *p) { *(volatile int *)p = 0; }
#endif
static inline void bd_spin_lock(int *p) {
    int spins = 0;
    while (!bd_spin_try(p))
        while (bd_spin_held(p))
            if (++spins >= 64) {
                bd_thread_yield();
                spins = 0;
            }
}
#endif

#endif

/* Threads from the platform (thread.h): POSIX threads, or Windows threads
 * under _WIN32. A handle is a small allocation holding the platform's
 * thread and what it runs, freed by the join. */
#include "thread.h"

#ifndef BD_NO_THREADS

#include <stdlib.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

/* The helpers recurse as deep as the search does (BD_MAX_PLY plies, a move
 * picker on each frame): a stack of their own this size, whatever the
 * platform's default for a new thread (128 KiB on some). */
#define BD_THREAD_STACK ((size_t)4 << 20)

struct bd_thread {
#ifdef _WIN32
    HANDLE handle;
#else
    pthread_t handle;
#endif
    void (*fn)(void *);
    void *arg;
};

#ifdef _WIN32
static DWORD WINAPI trampoline(LPVOID p) {
    bd_thread *t = (bd_thread *)p;
    t->fn(t->arg);
    return 0;
}
#else
static void *trampoline(void *p) {
    bd_thread *t = (bd_thread *)p;
    t->fn(t->arg);
    return NULL;
}
#endif

bd_thread *bd_thread_start(void (*fn)(void *), void *arg) {
    bd_thread *t = (bd_thread *)malloc(sizeof *t);
    if (!t) return NULL;
    t->fn = fn;
    t->arg = arg;
#ifdef _WIN32
    t->handle = CreateThread(NULL, BD_THREAD_STACK, trampoline, t, 0, NULL);
    if (!t->handle) {
        free(t);
        return NULL;
    }
#else
    {
        pthread_attr_t attr;
        int failed;
        if (pthread_attr_init(&attr) != 0) {
            free(t);
            return NULL;
        }
        pthread_attr_setstacksize(&attr, BD_THREAD_STACK);
        failed = pthread_create(&t->handle, &attr, trampoline, t);
        pthread_attr_destroy(&attr);
        if (failed) {
            free(t);
            return NULL;
        }
    }
#endif
    return t;
}

void bd_thread_join(bd_thread *t) {
    if (!t) return;
#ifdef _WIN32
    WaitForSingleObject(t->handle, INFINITE);
    CloseHandle(t->handle);
#else
    pthread_join(t->handle, NULL);
#endif
    free(t);
}

/* ---- The pool (thread.h).
 *
 * A run's parts are taken, not given: the caller and every worker take the
 * next part not yet taken (`claim`, changed only by compare-and-swap) until
 * none is left, so a worker the system has not yet given a core leaves its
 * share to the others instead of holding the call up (on a busy machine, a
 * call that waited for every worker ran several times slower than one
 * thread). `claim` holds the run's number beside the next part, so that a
 * worker that wakes after its run ended takes nothing from the next one.
 *
 * One lock guards the run's other fields; `wake` tells the workers a run is
 * there (or that they must end), `done` tells the caller that the last part
 * taken is finished. Before sleeping on either, a thread watches the word
 * it waits on for a while (BD_POOL_SPIN reads, about 0.15 ms on this
 * project's machine), unlocked and relaxed: a run's work is a fraction of
 * a millisecond, the next run follows within as much (a step's passes,
 * one after the other), and a sleeping thread takes tens of microseconds
 * to wake. A tenth of that kept 1,024 games on two threads at 1.0 to 1.3
 * times one thread's steps a second, even on a free machine (docs/rl.md).
 * What a thread sees unlocked it then confirms under the lock, which also
 * orders the run's results before the caller reads them. */
#define BD_POOL_SPIN 200000
#define CLAIM_PART_BITS 16  /* parts a run: up to 65,535 */

#ifdef _WIN32
typedef SRWLOCK bd_lock;
typedef CONDITION_VARIABLE bd_cond;
static void lock_init(bd_lock *m) { InitializeSRWLock(m); }
static void lock_free(bd_lock *m) { (void)m; }
static void lock(bd_lock *m) { AcquireSRWLockExclusive(m); }
static void unlock(bd_lock *m) { ReleaseSRWLockExclusive(m); }
static void cond_init(bd_cond *c) { InitializeConditionVariable(c); }
static void cond_free(bd_cond *c) { (void)c; }
static void cond_wait(bd_cond *c, bd_lock *m) { SleepConditionVariableSRW(c, m, INFINITE, 0); }
static void cond_wake_all(bd_cond *c) { WakeAllConditionVariable(c); }
#else
typedef pthread_mutex_t bd_lock;
typedef pthread_cond_t bd_cond;
static void lock_init(bd_lock *m) { pthread_mutex_init(m, NULL); }
static void lock_free(bd_lock *m) { pthread_mutex_destroy(m); }
static void lock(bd_lock *m) { pthread_mutex_lock(m); }
static void unlock(bd_lock *m) { pthread_mutex_unlock(m); }
static void cond_init(bd_cond *c) { pthread_cond_init(c, NULL); }
static void cond_free(bd_cond *c) { pthread_cond_destroy(c); }
static void cond_wait(bd_cond *c, bd_lock *m) { pthread_cond_wait(c, m); }
static void cond_wake_all(bd_cond *c) { pthread_cond_broadcast(c); }
#endif

typedef struct pool_worker {
    bd_pool *pool;
    bd_thread *thread;
} pool_worker;

struct bd_pool {
    bd_lock lock;
    bd_cond wake, done;
    uint64_t runs;      /* how many runs were asked: a worker waits for it to grow */
    uint64_t claim;     /* the run's number << CLAIM_PART_BITS | the next part to take */
    volatile int left;  /* parts of the run not yet finished */
    int count;          /* the run's parts */
    void (*fn)(void *, int);
    void *arg;
    int quit;
    int workers;
    pool_worker *worker;
#ifndef _WIN32
    pid_t pid;          /* the process whose workers they are */
#endif
};

/* The pool's workers, as the calling process sees them: none in a child
 * forked after they started (fork copies only the calling thread), where
 * the pool then does its runs in the calling thread and frees no thread. */
static int workers_here(const bd_pool *pool) {
#ifndef _WIN32
    if (pool && pool->pid != getpid()) return 0;
#endif
    return pool ? pool->workers : 0;
}

/* The next part of run `run` (of `count` parts) not yet taken, now this
 * thread's; -1 when every part is taken or the run is over. */
static int take_part(bd_pool *pool, uint64_t run, int count) {
    uint64_t tag = run << CLAIM_PART_BITS;
    for (;;) {
        uint64_t c = bd_load64(&pool->claim);
        int k = (int)(c & ((1u << CLAIM_PART_BITS) - 1));
        if ((c ^ tag) >> CLAIM_PART_BITS || k >= count) return -1;
        if (bd_cas64(&pool->claim, c, c + 1)) return k;
    }
}

/* Every part of run `run` this thread can take, done; how many. */
static int do_parts(bd_pool *pool, uint64_t run, int count, void (*fn)(void *, int), void *arg) {
    int k, done = 0;
    while ((k = take_part(pool, run, count)) >= 0) {
        fn(arg, k);
        done++;
    }
    return done;
}

/* `done` parts of the run finished: the caller woken when they were the last. */
static void finish_parts(bd_pool *pool, int done) {
    lock(&pool->lock);
    bd_store_flag(&pool->left, pool->left - done);
    if (pool->left == 0) cond_wake_all(&pool->done);
    unlock(&pool->lock);
}

static void pool_loop(void *p) {
    pool_worker *me = (pool_worker *)p;
    bd_pool *pool = me->pool;
    uint64_t seen = 0;
    for (;;) {
        int i, count, done;
        void (*fn)(void *, int);
        void *arg;
        for (i = 0; i < BD_POOL_SPIN && bd_load64(&pool->runs) == seen; i++) {
        }
        lock(&pool->lock);
        while (pool->runs == seen && !pool->quit) cond_wait(&pool->wake, &pool->lock);
        if (pool->quit) {
            unlock(&pool->lock);
            return;
        }
        seen = pool->runs;
        count = pool->count;
        fn = pool->fn;
        arg = pool->arg;
        unlock(&pool->lock);
        done = do_parts(pool, seen, count, fn, arg);
        if (done) finish_parts(pool, done);
    }
}

bd_pool *bd_pool_new(int workers) {
    bd_pool *pool = (bd_pool *)calloc(1, sizeof *pool);
    int k;
    if (!pool || workers < 1) {
        free(pool);
        return NULL;
    }
    pool->worker = (pool_worker *)calloc((size_t)workers, sizeof *pool->worker);
    if (!pool->worker) {
        free(pool);
        return NULL;
    }
#ifndef _WIN32
    pool->pid = getpid();
#endif
    lock_init(&pool->lock);
    cond_init(&pool->wake);
    cond_init(&pool->done);
    for (k = 0; k < workers; k++) {
        pool->worker[k].pool = pool;
        pool->worker[k].thread = bd_thread_start(pool_loop, &pool->worker[k]);
        if (!pool->worker[k].thread) break;
        pool->workers = k + 1;
    }
    if (pool->workers == 0) {
        bd_pool_free(pool);
        return NULL;
    }
    return pool;
}

int bd_pool_workers(const bd_pool *pool) { return workers_here(pool); }

void bd_pool_run(bd_pool *pool, int count, void (*fn)(void *, int), void *arg) {
    uint64_t run;
    int k, i;
    if (count < 2 || count >= 1 << CLAIM_PART_BITS || bd_pool_workers(pool) == 0) {
        for (k = 0; k < count; k++) fn(arg, k);
        return;
    }
    lock(&pool->lock);
    run = pool->runs + 1;
    pool->count = count;
    pool->fn = fn;
    pool->arg = arg;
    bd_store_flag(&pool->left, count);
    /* The run's number kept in the claim's upper bits, where it wraps
     * (after 2^48 runs: no worker sleeps through that many). */
    bd_store64(&pool->claim, run << CLAIM_PART_BITS);
    bd_store64(&pool->runs, run);
    cond_wake_all(&pool->wake);
    unlock(&pool->lock);
    finish_parts(pool, do_parts(pool, run, count, fn, arg));
    for (i = 0; i < BD_POOL_SPIN && bd_load_flag(&pool->left); i++) {
    }
    lock(&pool->lock);
    while (pool->left) cond_wait(&pool->done, &pool->lock);
    unlock(&pool->lock);
}

void bd_pool_free(bd_pool *pool) {
    int k;
    if (!pool) return;
    if (workers_here(pool) != pool->workers) return; /* a forked child's copy: its lock may be held, no worker to end */
    lock(&pool->lock);
    pool->quit = 1;
    cond_wake_all(&pool->wake);
    unlock(&pool->lock);
    for (k = 0; k < pool->workers; k++) bd_thread_join(pool->worker[k].thread);
    cond_free(&pool->wake);
    cond_free(&pool->done);
    lock_free(&pool->lock);
    free(pool->worker);
    free(pool);
}

/* ---- The baton (thread.h): who holds it, and who is still in, under one
 * lock; `moved` wakes every waiter when it changes hands, and each looks
 * whether it is its own turn. */
struct bd_baton {
    bd_lock lock;
    bd_cond moved;
    int turn;           /* the thread holding it; -1 once every thread left */
    int threads;
    unsigned char *in;  /* [threads]: 1 while thread k has not left */
    unsigned char *held;/* [threads]: 1 once thread k has held it */
};

bd_baton *bd_baton_new(int threads) {
    bd_baton *b = (bd_baton *)calloc(1, sizeof *b);
    int k;
    if (!b) return NULL;
    b->in = (unsigned char *)malloc((size_t)threads);
    b->held = (unsigned char *)calloc((size_t)threads, 1);
    if (!b->in || !b->held) {
        free(b->in);
        free(b->held);
        free(b);
        return NULL;
    }
    for (k = 0; k < threads; k++) b->in[k] = 1;
    b->threads = threads;
    b->turn = 0;
    lock_init(&b->lock);
    cond_init(&b->moved);
    return b;
}

/* The next thread after `me` still in, `me` itself if none other is, -1 if
 * none is; under the lock. */
static int next_in(const bd_baton *b, int me) {
    int k, i;
    for (i = 1; i <= b->threads; i++) {
        k = (me + i) % b->threads;
        if (b->in[k]) return k;
    }
    return -1;
}

void bd_baton_next(bd_baton *b, int me) {
    lock(&b->lock);
    if (b->held[me] && b->turn == me) {
        b->turn = next_in(b, me);
        cond_wake_all(&b->moved);
    }
    while (b->turn != me) cond_wait(&b->moved, &b->lock);
    b->held[me] = 1;
    unlock(&b->lock);
}

void bd_baton_leave(bd_baton *b, int me) {
    lock(&b->lock);
    b->in[me] = 0;
    if (b->turn == me) {
        b->turn = next_in(b, me);
        cond_wake_all(&b->moved);
    }
    unlock(&b->lock);
}

void bd_baton_free(bd_baton *b) {
    if (!b) return;
    cond_free(&b->moved);
    lock_free(&b->lock);
    free(b->in);
    free(b->held);
    free(b);
}

void bd_thread_yield(void) {
#ifdef _WIN32
    SwitchToThread();
#else
    sched_yield();
#endif
}

#endif

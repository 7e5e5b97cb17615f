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

#endif

// The worker pool that runs the parts of one kernel call concurrently, with no allocation per call. (A job may also
// be two whole model runs, one a part: Interpreter.eachOnACore, the landmark models of two faces or hands; the pool
// is then that caller's for milliseconds, and other callers run their parts themselves meanwhile.)
//
// One caller at a time publishes a job (a function pointer, a context pointer and how many threads
// may work on it) in a fixed slot and bumps a generation counter (a caller finding the slot taken
// runs its parts itself); workers spin briefly on it (yielding their core after a few
// microseconds), then sleep on a futex. The parts are dealt in contiguous ranges, one per thread
// (the caller's first), so each thread computes the same share of every layer and reads what it
// wrote itself. A thread claims the parts of its own range from the front; when it has none left it
// takes the others' from the back, one at a time. So a worker that wakes late, or loses its core to
// another process mid-job, holds up the caller by one part at most, not by its whole share. Each
// range is one 64-bit word (generation, front, back) changed by compare-and-swap, so a worker that
// wakes late can never run a part of a finished job.
#include "ckernels.h"
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define VT_POOL_MAX_WORKERS 63
/// How long a worker (or a waiting caller) spins before it sleeps, in nanoseconds: long enough to
/// bridge the gap between two split kernel calls of one invoke() (a few microseconds of serial
/// work), short enough that idle workers do not burn a core between invokes (the CPU time per
/// call at 2 threads stays close to the 1-thread CPU time).
#define VT_SPIN_NS 40000
/// After this long, a spinning thread also yields its core at each clock check (sched_yield returns
/// at once when nothing else waits for the core): the cores are then shared with another process
/// (ffmpeg decoding a video beside the task) rather than spun away. On 2 cores, 720p face video:
/// wall 1.49 -> 1.33 s, medians of 7 alternating runs; per-call times without another process unchanged.
#define VT_YIELD_NS 5000

/// What a spinning thread does at a clock check, `spun` ns after it began: yields past
/// VT_YIELD_NS; returns true past VT_SPIN_NS, when it should sleep.
static int spun_enough(uint64_t spun) {
    if (spun > VT_YIELD_NS) sched_yield();
    return spun > VT_SPIN_NS;
}

// ---- Hand-off counters (vt_pool_stats) and the test knob that makes each hand-off dear ----

/// 1 while vt_pool_count is on: a plain int read once per call, so counting costs one predictable
/// branch when off (the profile command turns it on around its runs).
static _Atomic int counting;
static _Atomic unsigned long long n_jobs, n_parts, n_worker_parts, n_waits, n_sleeps, n_wait_ns;

static inline void tally(_Atomic unsigned long long *c, unsigned long long v) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) atomic_fetch_add_explicit(c, v, memory_order_relaxed);
}

void vt_pool_count(int on) { atomic_store(&counting, on); }

void vt_pool_stats_read(vt_pool_stats *s) {
    s->jobs = atomic_load(&n_jobs);
    s->parts = atomic_load(&n_parts);
    s->worker_parts = atomic_load(&n_worker_parts);
    s->join_waits = atomic_load(&n_waits);
    s->join_sleeps = atomic_load(&n_sleeps);
    s->join_wait_ns = atomic_load(&n_wait_ns);
}

/// Extra nanoseconds a worker spends before it claims a part and after it finishes one
/// (VT_POOL_HANDOFF_DELAY_NS, read when the first worker starts; 0 = off): stands in for a host
/// where a cache line takes that long to cross between cores, both ways of each hand-off.
static uint64_t handoff_delay;

static uint64_t now_ns(void);

static void delay_handoff(void) {
    if (!handoff_delay) return;
    const uint64_t start = now_ns();
    while (now_ns() - start < handoff_delay) {}
}

static pthread_mutex_t callers = PTHREAD_MUTEX_INITIALIZER; // one job at a time
static pthread_mutex_t starting = PTHREAD_MUTEX_INITIALIZER; // guards worker creation
static int workers;                                          // started workers (under `starting`)

// word: the job's generation (high 32 bits), bumped by each publish; what workers watch.
static _Atomic uint64_t word;
/// Each thread's range of the current job's parts: generation (high 32 bits) | front (bits 16..31) |
/// back (bits 0..15); parts front..<back are unclaimed. One cache line each.
typedef struct {
    _Alignas(64) _Atomic uint64_t span;
} vt_range;
static vt_range ranges[VT_POOL_MAX_WORKERS + 1];
static _Atomic(vt_part_fn) job_fn;
static _Atomic(void *) job_ctx;
static _Atomic int job_threads;      // threads that may work on the job: the caller and workers 1..threads-1
static _Atomic uint32_t epoch;       // futex word: low 32 bits of the generation, for sleeping workers
static _Atomic uint32_t sleepers;    // workers asleep (or about to be) on `epoch`
static _Atomic uint32_t remaining;   // futex word: parts not yet finished
static _Atomic uint32_t caller_asleep;

static void futex_wait(_Atomic uint32_t *addr, uint32_t expected) {
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr) {
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/// A part of generation `gen` for thread `thread` of `threads`: the front of its own range, else the
/// back of another's (the next threads' first); -1 when none is left unclaimed.
static int claim(uint32_t gen, int thread, int threads) {
    for (int i = 0; i < threads; i++) {
        const int k = (thread + i) % threads;
        _Atomic uint64_t *span = &ranges[k].span;
        uint64_t r = atomic_load_explicit(span, memory_order_acquire);
        for (;;) {
            const uint32_t front = (uint32_t)(r >> 16) & 0xffff, back = (uint32_t)r & 0xffff;
            if ((uint32_t)(r >> 32) != gen || front >= back) break;
            // Own range: the front part. Another's: its back part, so its owner keeps going in order.
            const uint64_t next = i == 0 ? r + (1u << 16) : r - 1;
            if (atomic_compare_exchange_weak_explicit(span, &r, next, memory_order_acq_rel, memory_order_acquire))
                return (int)(i == 0 ? front : back - 1);
        }
    }
    return -1;
}

/// Claims and runs parts of generation `gen` as thread `thread` until none is left.
static void run_parts(uint32_t gen, int thread) {
    if (thread) delay_handoff();
    int threads = atomic_load_explicit(&job_threads, memory_order_acquire);
    if (threads > VT_POOL_MAX_WORKERS + 1) threads = VT_POOL_MAX_WORKERS + 1;
    for (int part; (part = claim(gen, thread, threads)) >= 0;) {
        // The slot cannot change until this claimed part is finished.
        const vt_part_fn fn = atomic_load_explicit(&job_fn, memory_order_relaxed);
        void *ctx = atomic_load_explicit(&job_ctx, memory_order_relaxed);
        fn(ctx, part, thread);
        if (thread) {
            tally(&n_worker_parts, 1);
            delay_handoff();
        }
        if (atomic_fetch_sub_explicit(&remaining, 1, memory_order_acq_rel) == 1 &&
            atomic_load_explicit(&caller_asleep, memory_order_seq_cst))
            futex_wake(&remaining);
    }
}

static void *worker_main(void *arg) {
    const int index = (int)(intptr_t)arg; // 1, 2, ... (the caller is thread 0)
    uint32_t seen = (uint32_t)(atomic_load_explicit(&word, memory_order_acquire) >> 32);
    for (;;) {
        uint64_t w = atomic_load_explicit(&word, memory_order_acquire);
        if ((uint32_t)(w >> 32) == seen) {
            const uint64_t start = now_ns();
            for (unsigned spin = 1;; spin++) {
                cpu_relax();
                w = atomic_load_explicit(&word, memory_order_acquire);
                if ((uint32_t)(w >> 32) != seen) break;
                if ((spin & 63) == 0 && spun_enough(now_ns() - start)) {
                    atomic_fetch_add_explicit(&sleepers, 1, memory_order_seq_cst);
                    if (atomic_load_explicit(&epoch, memory_order_seq_cst) == seen) futex_wait(&epoch, seen);
                    atomic_fetch_sub_explicit(&sleepers, 1, memory_order_seq_cst);
                    w = atomic_load_explicit(&word, memory_order_acquire);
                    if ((uint32_t)(w >> 32) != seen) break;
                }
            }
        }
        seen = (uint32_t)(w >> 32);
        // A job published with fewer threads leaves this worker out (its scratch has no slot for it).
        if (index < atomic_load_explicit(&job_threads, memory_order_acquire)) run_parts(seen, index);
    }
    return NULL;
}

/// Starts workers until there are `count`; returns how many run (fewer if the system refuses threads).
static int ensure_workers(int count) {
    if (count > VT_POOL_MAX_WORKERS) count = VT_POOL_MAX_WORKERS;
    pthread_mutex_lock(&starting);
    if (!workers) {
        const char *delay = getenv("VT_POOL_HANDOFF_DELAY_NS");
        if (delay) handoff_delay = strtoull(delay, NULL, 10);
    }
    while (workers < count) {
        pthread_t thread;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        const int failed = pthread_create(&thread, &attr, worker_main, (void *)(intptr_t)(workers + 1));
        pthread_attr_destroy(&attr);
        if (failed) break;
        workers++;
    }
    const int n = workers;
    pthread_mutex_unlock(&starting);
    return n;
}

int vt_pool_workers(void) {
    pthread_mutex_lock(&starting);
    const int n = workers;
    pthread_mutex_unlock(&starting);
    return n;
}

// Set on a thread that runs one of several models at once: its calls stay on it.
static _Thread_local int serial_here;

int vt_pool_set_serial(int serial) {
    const int previous = serial_here;
    serial_here = serial;
    return previous;
}

int vt_pool_serial(void) { return serial_here; }

void vt_parallel_run(int parts, int threads, vt_part_fn fn, void *ctx) {
    if (threads > VT_POOL_MAX_WORKERS + 1) threads = VT_POOL_MAX_WORKERS + 1;
    if (serial_here || parts <= 1 || threads <= 1 || parts > 0xffff) {
        for (int p = 0; p < parts; p++) fn(ctx, p, 0);
        return;
    }
    // One job holds the pool at a time. A caller that finds it taken (another interpreter's call:
    // server workers, --jobs with --threads, parallel tests) runs its own parts rather than wait:
    // waiting serialised every interpreter's calls behind one, and a caller that released the
    // lock and took it again at its next call could starve the others for a whole invoke().
    if (pthread_mutex_trylock(&callers) != 0) {
        for (int p = 0; p < parts; p++) fn(ctx, p, 0);
        return;
    }
    const int started = ensure_workers(threads - 1);
    if (started == 0) {
        // No worker could start: the caller runs every part.
        pthread_mutex_unlock(&callers);
        for (int p = 0; p < parts; p++) fn(ctx, p, 0);
        return;
    }
    const int job = started + 1 < threads ? started + 1 : threads;
    atomic_store_explicit(&job_fn, fn, memory_order_relaxed);
    atomic_store_explicit(&job_ctx, ctx, memory_order_relaxed);
    atomic_store_explicit(&job_threads, job, memory_order_relaxed);
    atomic_store_explicit(&remaining, (uint32_t)parts, memory_order_relaxed);
    const uint32_t gen = (uint32_t)(atomic_load_explicit(&word, memory_order_relaxed) >> 32) + 1;
    // Thread k's range: parts [parts·k/job, parts·(k+1)/job), published before the generation.
    for (int k = 0; k < job; k++) {
        const uint64_t front = (uint64_t)parts * (uint64_t)k / (uint64_t)job;
        const uint64_t back = (uint64_t)parts * (uint64_t)(k + 1) / (uint64_t)job;
        atomic_store_explicit(&ranges[k].span, ((uint64_t)gen << 32) | (front << 16) | back, memory_order_relaxed);
    }
    atomic_store_explicit(&word, (uint64_t)gen << 32, memory_order_release);
    atomic_store_explicit(&epoch, gen, memory_order_seq_cst);
    if (atomic_load_explicit(&sleepers, memory_order_seq_cst)) futex_wake(&epoch);
    tally(&n_jobs, 1);
    tally(&n_parts, (unsigned long long)parts);
    run_parts(gen, 0);
    if (atomic_load_explicit(&remaining, memory_order_acquire)) {
        const uint64_t start = now_ns();
        tally(&n_waits, 1);
        for (unsigned spin = 1; atomic_load_explicit(&remaining, memory_order_acquire); spin++) {
            cpu_relax();
            if ((spin & 63) == 0 && spun_enough(now_ns() - start)) {
                tally(&n_sleeps, 1);
                atomic_store_explicit(&caller_asleep, 1, memory_order_seq_cst);
                const uint32_t left = atomic_load_explicit(&remaining, memory_order_seq_cst);
                if (left) futex_wait(&remaining, left);
                atomic_store_explicit(&caller_asleep, 0, memory_order_seq_cst);
            }
        }
        tally(&n_wait_ns, now_ns() - start);
    }
    pthread_mutex_unlock(&callers);
}

// What a hand-off between two cores costs on this host: a cache-line ping-pong between two threads,
// and the pool's own hand-off (an empty job split over two threads), measured once per process so
// the kernels can leave unsplit the work too small to pay for it (KernelThreads). And what two cores
// give at all: the share of one core's arithmetic each keeps when both compute at once (a vCPU
// whose physical core's other hyperthread is busy, ours or another tenant's, keeps less).
#define _GNU_SOURCE
#include "ckernels.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t clock_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int compare_doubles(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/// The median of `n` samples (sorted in place).
static double median(double *samples, int n) {
    qsort(samples, (size_t)n, sizeof(double), compare_doubles);
    return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

// ---- ping-pong ----

/// The ball: the main thread writes odd values, the partner the next even one, on one cache line.
typedef struct {
    _Alignas(64) _Atomic uint32_t ball;
    uint32_t last;
} court;

/// Pins the calling thread to CPU `cpu` (when it exists); returns 1 when pinned.
static int pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

static void *partner_main(void *arg) {
    court *c = arg;
    pin(1);
    for (uint32_t v = 1; v < c->last; v += 2) {
        while (atomic_load_explicit(&c->ball, memory_order_acquire) != v) relax();
        atomic_store_explicit(&c->ball, v + 1, memory_order_release);
    }
    return NULL;
}

double vt_pingpong_ns(int batches, int rounds) {
    if (batches < 1 || rounds < 1 || batches > 1000 || rounds > 1000000) return 0;
    // With one CPU to run on, the two spinning threads would take turns a scheduler slice each (seconds for
    // the 1,000 round trips of a plan): nothing to measure there.
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2) return 0;
    court *c = aligned_alloc(64, sizeof(court));
    double *samples = malloc(sizeof(double) * (size_t)batches);
    if (!c || !samples) {
        free(c);
        free(samples);
        return 0;
    }
    memset(c, 0, sizeof *c);
    c->last = (uint32_t)(2 * batches * rounds);
    pthread_t partner;
    if (pthread_create(&partner, NULL, partner_main, c) != 0) {
        free(c);
        free(samples);
        return 0;
    }
    // The caller on CPU 0 and the partner on CPU 1: the two cores, not two threads sharing one.
    cpu_set_t mask;
    const int had_mask = pthread_getaffinity_np(pthread_self(), sizeof mask, &mask) == 0;
    pin(0);
    uint32_t v = 0;
    for (int b = 0; b < batches; b++) {
        const uint64_t start = clock_ns();
        for (int r = 0; r < rounds; r++) {
            atomic_store_explicit(&c->ball, v + 1, memory_order_release);
            while (atomic_load_explicit(&c->ball, memory_order_acquire) != v + 2) relax();
            v += 2;
        }
        samples[b] = (double)(clock_ns() - start) / rounds;
    }
    pthread_join(partner, NULL);
    if (had_mask) pthread_setaffinity_np(pthread_self(), sizeof mask, &mask);
    const double result = median(samples, batches);
    free(c);
    free(samples);
    return result;
}

// ---- two cores at once ----

/// Floating-point multiply-adds in eight independent chains, `iterations` times; returns a value
/// that depends on every chain, so the work cannot be dropped. Plain vector code (SSE, NEON):
/// what it measures is sharing of the core's arithmetic units, not the widest ISA.
typedef float vt_lanes __attribute__((vector_size(16)));
static float arithmetic(long iterations) {
    vt_lanes a[8], m = {0.9999999f, 0.9999999f, 0.9999999f, 0.9999999f}, c = {1e-7f, 1e-7f, 1e-7f, 1e-7f};
    for (int k = 0; k < 8; k++) a[k] = (vt_lanes){1.0f, 1.0f, 1.0f, (float)k};
    for (long i = 0; i < iterations; i++) {
        for (int k = 0; k < 8; k++) a[k] = a[k] * m + c; // no fast-math: each step must run
    }
    float sum = 0;
    for (int k = 0; k < 8; k++) sum += a[k][0] + a[k][1] + a[k][2] + a[k][3];
    return sum;
}

typedef struct {
    long iterations;
    _Atomic int ready, go;
    double seconds;
    float sink;
} share_run;

static void *share_partner(void *arg) {
    share_run *r = arg;
    pin(1);
    atomic_store_explicit(&r->ready, 1, memory_order_release);
    while (!atomic_load_explicit(&r->go, memory_order_acquire)) relax();
    const uint64_t start = clock_ns();
    r->sink = arithmetic(r->iterations);
    r->seconds = (double)(clock_ns() - start) * 1e-9;
    return NULL;
}

double vt_two_core_share(int rounds, double milliseconds) {
    if (rounds < 1 || rounds > 101 || !(milliseconds > 0) || milliseconds > 100) return 0;
    // CPUs 0 and 1, both allowed to this thread (as the ping-pong pins them).
    cpu_set_t mask;
    if (pthread_getaffinity_np(pthread_self(), sizeof mask, &mask) != 0 || !CPU_ISSET(0, &mask) ||
        !CPU_ISSET(1, &mask) || !pin(0))
        return 0;
    // The iterations that take about `milliseconds` alone on CPU 0.
    long iterations = 1000;
    volatile float sink = 0;
    for (;;) {
        const uint64_t start = clock_ns();
        sink += arithmetic(iterations);
        const double ms = (double)(clock_ns() - start) * 1e-6;
        if (ms >= milliseconds / 4 || iterations > (1L << 40)) {
            iterations = (long)((double)iterations * milliseconds / (ms > 1e-6 ? ms : 1e-6)) + 1;
            break;
        }
        iterations *= 4;
    }
    double shares[101];
    int n = 0;
    for (int r = 0; r < rounds; r++) {
        uint64_t start = clock_ns();
        sink += arithmetic(iterations);
        const double alone = (double)(clock_ns() - start) * 1e-9;
        share_run run = {iterations, 0, 0, 0, 0};
        pthread_t partner;
        if (pthread_create(&partner, NULL, share_partner, &run) != 0) break;
        // Both start together once the partner runs on CPU 1.
        while (!atomic_load_explicit(&run.ready, memory_order_acquire)) relax();
        atomic_store_explicit(&run.go, 1, memory_order_release);
        start = clock_ns();
        sink += arithmetic(iterations);
        const double together = (double)(clock_ns() - start) * 1e-9;
        pthread_join(partner, NULL);
        sink += run.sink;
        // Each core's speed while both computed, as a share of one core alone (their mean). A core computes no
        // faster beside another than alone: a share above 1 is a lone run other tenants slowed, and counts as 1
        // (under load a share of 2.07 read "a second thread gains at most x4.14" on two cores).
        const double both = (together + run.seconds) / 2;
        if (both > 0) shares[n++] = alone / both < 1 ? alone / both : 1;
    }
    (void)sink;
    pthread_setaffinity_np(pthread_self(), sizeof mask, &mask);
    return n ? median(shares, n) : 0;
}

// ---- the pool's hand-off ----

/// One probe job: the thread that claims part 0 waits (at most 1 ms) for another thread to run
/// part 1, so the job's wall time is one publish, claim and join across two cores.
typedef struct {
    _Atomic int arrived;
    int threads[2];
} probe;

static void probe_part(void *ctx, int part, int thread) {
    probe *p = ctx;
    p->threads[part] = thread;
    if (part == 1) {
        atomic_store_explicit(&p->arrived, 1, memory_order_release);
        return;
    }
    const uint64_t start = clock_ns();
    while (!atomic_load_explicit(&p->arrived, memory_order_acquire) && clock_ns() - start < VT_PROBE_TIMEOUT_NS)
        relax();
}

#define VT_PROBE_SAMPLES 101
/// The warm-up's time budget: probes until a worker (started for it, or asleep) runs a part.
#define VT_PROBE_WARMUP_NS 5000000
/// The measurement's time budget: it stops there with the samples it has.
#define VT_PROBE_BUDGET_NS 3000000

/// The last measurement (atomic: re-measured while late, read by every split call's caller).
static _Atomic double handoff;
static pthread_once_t handoff_once = PTHREAD_ONCE_INIT;
/// While the last measurement came late: when it may be taken again, and the wait after that one.
static _Atomic uint64_t retry_at_ns, retry_gap_ns;
/// 1 while a thread re-measures (one at a time; others keep the value they have).
static _Atomic int remeasuring;

/// The first wait before a late measurement is taken again; each late one doubles it, up to the last.
#define VT_RETRY_FIRST_NS 100000000ull
#define VT_RETRY_LAST_NS 64000000000ull

static double measure(void) {
    // Set, VT_POOL_HANDOFF_NS replaces the measurement (benches and tests: a fixed grain).
    const char *fixed = getenv("VT_POOL_HANDOFF_NS");
    if (fixed && *fixed) return strtod(fixed, NULL);
    // A thread that keeps its calls to itself (vt_pool_set_serial) still measures the pool.
    const int serial = vt_pool_set_serial(0);
    double samples[VT_PROBE_SAMPLES];
    int n = 0, late = 0;
    for (const uint64_t begin = clock_ns(); clock_ns() - begin < VT_PROBE_WARMUP_NS;) {
        probe p = {0, {-1, -1}};
        vt_parallel_run(2, 2, probe_part, &p);
        if (p.threads[0] != p.threads[1]) break;
    }
    for (const uint64_t begin = clock_ns(); n < VT_PROBE_SAMPLES && clock_ns() - begin < VT_PROBE_BUDGET_NS;) {
        probe p = {0, {-1, -1}};
        const uint64_t start = clock_ns();
        vt_parallel_run(2, 2, probe_part, &p);
        const double wall = (double)(clock_ns() - start);
        // Kept: two threads ran the parts in time. A worker later than the timeout (asleep, or its
        // core taken by another process) counts as a hand-off of the timeout.
        if (p.threads[0] != p.threads[1] && wall < VT_PROBE_TIMEOUT_NS) samples[n++] = wall;
        else late++;
    }
    vt_pool_set_serial(serial);
    if (late >= n) return vt_pool_workers() ? VT_PROBE_TIMEOUT_NS : 0;
    return median(samples, n);
}

/// Records a measurement; a late one is taken again after the current wait, which then doubles.
static void record(double ns) {
    atomic_store(&handoff, ns);
    if (ns < VT_PROBE_TIMEOUT_NS) {
        atomic_store(&retry_gap_ns, VT_RETRY_FIRST_NS);
        return;
    }
    const uint64_t gap = atomic_load(&retry_gap_ns);
    atomic_store(&retry_at_ns, clock_ns() + gap);
    atomic_store(&retry_gap_ns, gap * 2 < VT_RETRY_LAST_NS ? gap * 2 : VT_RETRY_LAST_NS);
}

static void measure_handoff(void) {
    atomic_store(&retry_gap_ns, VT_RETRY_FIRST_NS);
    record(measure());
}

int vt_pool_handoff_refresh(void) {
    pthread_once(&handoff_once, measure_handoff);
    if (atomic_load_explicit(&handoff, memory_order_relaxed) < VT_PROBE_TIMEOUT_NS) return 0;
    if (vt_pool_serial() || clock_ns() < atomic_load(&retry_at_ns)) return 0;
    int idle = 0;
    if (!atomic_compare_exchange_strong(&remeasuring, &idle, 1)) return 0;
    record(measure());
    atomic_store(&remeasuring, 0);
    return 1;
}

void vt_pool_handoff_set(double ns) {
    pthread_once(&handoff_once, measure_handoff);
    atomic_store(&retry_gap_ns, VT_RETRY_FIRST_NS);
    atomic_store(&handoff, ns);
    atomic_store(&retry_at_ns, 0);
}

double vt_pool_handoff_ns(void) {
    pthread_once(&handoff_once, measure_handoff);
    return atomic_load_explicit(&handoff, memory_order_relaxed);
}

import CKernels

/// What handing work to another core costs on this host (Sources/CKernels/handoff.c), and the
/// factor it puts on the kernels' minimum work per part: where a hand-off is dearer than where the
/// minimums were tuned, fewer and larger parts.
package enum HandoffCost {
    /// The pool's hand-off (an empty job over two threads) in nanoseconds where the kernels' minimum
    /// work per part was tuned: AMD EPYC, family 25 model 17, 2 vCPUs under KVM, when the worker has
    /// its core (591 ns measured beside a cache-line ping-pong of 320 ns; a loaded host measures more).
    static let tunedNanoseconds: Double = 600

    /// The grain's bounds: a cheap hand-off halves the minimums at most, a dear one multiplies them by 16 at most.
    static let grainRange = 0.5...16.0

    /// This host's pool hand-off in nanoseconds, measured on first use (about a millisecond), and again while the
    /// last measurement came late (`refreshIfLate`); 0 when no worker thread runs.
    package static var nanoseconds: Double { vt_pool_handoff_ns() }

    /// Whether the last measurement found most workers late (asleep, or their core taken by other work):
    /// `nanoseconds` is then the probe's timeout, not a hand-off's time.
    package static var cameLate: Bool { nanoseconds >= Double(VT_PROBE_TIMEOUT_NS) }

    /// `nanoseconds` over `tunedNanoseconds`, within `grainRange`; 1 when unmeasured. Read at each split, so a
    /// plan made while the measurement was late (the grain at its largest) splits as it should once it is not.
    package static var grain: Double {
        let ns = nanoseconds
        return ns > 0 ? Swift.min(grainRange.upperBound, Swift.max(grainRange.lowerBound, ns / tunedNanoseconds)) : 1
    }

    /// Measures the hand-off again when the last measurement came late and its wait has passed (0.1 s after the
    /// first, doubling to 64 s): a process that started while another held the second core (9 of 16 `model
    /// benchmark` starts here with a Python process starting beside them) kept the largest grain, and at two
    /// threads left most kernels whole, for its whole life. Else one atomic load; `Interpreter.invoke()` calls it
    /// at two or more threads. Returns whether it measured.
    @discardableResult
    package static func refreshIfLate() -> Bool { vt_pool_handoff_refresh() != 0 }

    /// A cache line's round trip between CPUs 0 and 1 in nanoseconds, measured on first use (1,000 round
    /// trips, under a millisecond, once per process): about 27 on this VM's hyperthreads, 60 on two cores of
    /// one complex, 320 across complexes (Intel's mesh sits between); 0 when unmeasured (one CPU allowed).
    package static let lineTripNanoseconds: Double = vt_pingpong_ns(5, 200)

    /// The round trip above which a line moved between cores costs more than buffer reuse saves in the cache:
    /// AMD EPYC, 2 vCPUs, 2 threads, five detector and landmark models: separate buffers 11-19% faster at
    /// ~320 ns and 12-26% slower at ~60 ns (`MemoryPlan`).
    static let dearLineTripNanoseconds: Double = 150

    /// Whether a plan over several threads gives each run-time tensor its own buffer (`MemoryPlan`): where
    /// lines cross between cores dearly (`lineTripNanoseconds` above `dearLineTripNanoseconds`).
    package static var separatesBuffers: Bool { lineTripNanoseconds > dearLineTripNanoseconds }

    /// Median nanoseconds of a cache line's round trip between two threads, over `batches` batches
    /// of `rounds` round trips (a thread started for it); 0 when that thread cannot start or the process may run
    /// on one CPU only.
    package static func pingPong(batches: Int = 31, rounds: Int = 2000) -> Double {
        vt_pingpong_ns(Int32(clamping: batches), Int32(clamping: rounds))
    }

    /// Each core's arithmetic speed while both compute, as a share of one core alone (median of
    /// `rounds` rounds of about `milliseconds` each; 1: independent cores, 0.5: one core's units
    /// shared; at most 1, a lone run slowed by other tenants counting as 1); 0 when it cannot run. Twice it bounds
    /// what a second thread can gain here now.
    package static func twoCoreShare(rounds: Int = 7, milliseconds: Double = 2) -> Double {
        vt_two_core_share(Int32(clamping: rounds), milliseconds)
    }
}

/// What the worker pool did per `invoke()` (`Interpreter.poolActivity(runs:)`), counted
/// process-wide: other interpreters' calls made meanwhile count too.
package struct PoolActivity: Sendable, Codable, Equatable {
    /// Jobs handed to the worker threads: one publish and one join each.
    package var jobs: Double
    /// Parts of those jobs.
    package var parts: Double
    /// Parts the workers ran (the rest ran on the calling thread).
    package var workerParts: Double
    /// Jobs whose caller ran out of parts before the workers finished, and waited.
    package var joinWaits: Double
    /// Waits in which the caller slept on the futex.
    package var joinSleeps: Double
    /// The caller's time waiting for workers, in milliseconds.
    package var joinWaitMilliseconds: Double

    /// The counters' growth from `before` to `after`, per each of `runs` calls.
    init(from before: vt_pool_stats, to after: vt_pool_stats, runs: Int) {
        let n = Double(Swift.max(1, runs))
        func per(_ a: UInt64, _ b: UInt64) -> Double { Double(b &- a) / n }
        jobs = per(before.jobs, after.jobs)
        parts = per(before.parts, after.parts)
        workerParts = per(before.worker_parts, after.worker_parts)
        joinWaits = per(before.join_waits, after.join_waits)
        joinSleeps = per(before.join_sleeps, after.join_sleeps)
        joinWaitMilliseconds = per(before.join_wait_ns, after.join_wait_ns) / 1e6
    }
}

/// Runs `body` with the pool's counters on, returning what it returns and the counters' readings
/// before and after.
func countingPoolActivity<R>(_ body: () -> R) -> (R, before: vt_pool_stats, after: vt_pool_stats) {
    var before = vt_pool_stats(), after = vt_pool_stats()
    vt_pool_count(1)
    defer { vt_pool_count(0) }
    vt_pool_stats_read(&before)
    let result = body()
    vt_pool_stats_read(&after)
    return (result, before, after)
}

import Foundation

/// The timing arithmetic every bench and the CLI's `model benchmark` and `model profile` share: wall
/// times in milliseconds, the process's CPU time, and one median and percentile over them.
package enum Timing {
    /// The value at fraction `q` (0...1) of `values` in sorted order, interpolated linearly between the
    /// two neighbours (0.5: the median, the mean of the middle two for an even count); 0 for none.
    package static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let position = q * Double(sorted.count - 1)
        let low = Int(position.rounded(.down)), high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
    }

    /// The median of `values` (0 for none).
    package static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    /// CPU time used so far by the whole process (every thread), in milliseconds.
    package static func processCPUMilliseconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
    }

    /// The wall time `body` takes, in milliseconds.
    package static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// What a timed loop found, in milliseconds, under the names the benches' and `model benchmark`'s
    /// JSON give it.
    package struct Summary: Codable, Sendable {
        /// The median wall time of one run.
        package var medianMs: Double
        /// The 90th percentile of one run's wall time.
        package var p90Ms: Double
        /// The whole process's CPU time (every thread) over the timed runs, per run: what waiting
        /// workers burn shows here. Whole-loop, not per call: Linux adds a running thread's time to the
        /// process clock only at ticks and switches, so one call's reading misses the workers'.
        package var cpuMsPerCall: Double
    }

    /// Runs `body` `warmup` times untimed, then `runs` times (at least once) timed.
    package static func measure(runs: Int, warmup: Int, _ body: () throws -> Void) rethrows -> Summary {
        for _ in 0..<warmup { try body() }
        let cpuStart = processCPUMilliseconds()
        var times: [Double] = []
        times.reserveCapacity(max(1, runs))
        for _ in 0..<max(1, runs) { times.append(try milliseconds(body)) }
        return Summary(
            medianMs: median(times), p90Ms: percentile(times, 0.9),
            cpuMsPerCall: (processCPUMilliseconds() - cpuStart) / Double(times.count))
    }
}

import ArgumentParser
import Foundation
import Inference
import VisionErrors

/// `vision-tasks model benchmark PATH [--entry NAME] [--runs N] [--warmup N] [--threads N] [--json]`:
/// times `invoke()` on seeded random inputs and prints the median and 90th-percentile latency.
struct ModelBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Time a model's inference on random inputs: median and p90 latency in milliseconds."
    )

    @OptionGroup var source: ModelSourceOptions

    @Option(help: "Timed runs.")
    var runs = 100

    @Option(help: "Untimed runs first.")
    var warmup = 10

    @Option(help: "Worker threads.")
    var threads = 1

    @Flag(help: "Print one JSON object {\"model\", \"medianMs\", \"p90Ms\", \"cpuMsPerCall\", \"threads\"}.")
    var json = false

    /// What `--json` prints.
    struct Report: Codable {
        /// The model's path (and entry, for a bundle).
        var model: String
        /// Median wall time of one call, in milliseconds.
        var medianMs: Double
        /// 90th percentile of one call's wall time, in milliseconds.
        var p90Ms: Double
        /// CPU time of the whole process (all threads) over the timed runs, per run: what waiting
        /// workers burn shows here. Whole-loop, not per call: Linux adds a running thread's time to
        /// the process clock only at ticks and switches, so one call's reading misses the workers'.
        var cpuMsPerCall: Double
        /// The inference threads the model ran with.
        var threads: Int
    }

    func run() async throws {
        try reportingErrors {
            guard runs >= 1 else {
                throw VisionTasksError.invalidOption(name: "--runs", reason: "must be at least 1, got \(runs)")
            }
            guard warmup >= 0 else {
                throw VisionTasksError.invalidOption(name: "--warmup", reason: "must be at least 0, got \(warmup)")
            }
            let (name, data) = try source.loadModelData()
            let interpreter = try source.randomlyFedInterpreter(data, threads: threads)
            for _ in 0..<warmup { interpreter.invoke() }
            var times: [Double] = []
            times.reserveCapacity(runs)
            let cpuStart = Self.processCPUNanoseconds()
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                interpreter.invoke()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            let cpuPerCall = Double(Self.processCPUNanoseconds() - cpuStart) / 1e6 / Double(max(1, runs))
            times.sort()
            let report = Report(
                model: name, medianMs: Self.percentile(times, 0.5), p90Ms: Self.percentile(times, 0.9),
                cpuMsPerCall: cpuPerCall, threads: threads)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                Console.out(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
            } else {
                let ms = { (v: Double) in String(format: "%.3f", v) }
                Console.out(
                    "\(name): median \(ms(report.medianMs)) ms, p90 \(ms(report.p90Ms)) ms, CPU \(ms(report.cpuMsPerCall)) ms per call (\(runs) runs, \(warmup) warm-up, \(threads) thread(s))\n"
                )
            }
        }
    }

    /// CPU time used so far by the whole process (every thread), in nanoseconds.
    static func processCPUNanoseconds() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return t.tv_sec * 1_000_000_000 + t.tv_nsec
    }

    /// The value at fraction `q` of sorted `values` (linear interpolation).
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let position = q * Double(values.count - 1)
        let low = Int(position.rounded(.down)), high = min(low + 1, values.count - 1)
        return values[low] + (values[high] - values[low]) * (position - Double(low))
    }
}

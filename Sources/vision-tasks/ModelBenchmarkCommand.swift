import ArgumentParser
import Foundation
import Inference
import VisionCore

/// `vision-tasks model benchmark PATH [--entry NAME] [--runs N] [--warmup N] [--threads N] [--json]`:
/// times `invoke()` on seeded random inputs and prints the median and 90th-percentile latency.
struct ModelBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Time a model's inference on random inputs: median and p90 latency in milliseconds."
    )

    @OptionGroup var timing: ModelTimingOptions<BenchmarkDefaults>

    @Flag(
        help:
            "Print one JSON object {\"model\", \"threads\", \"separateBuffers\", \"host\": {\"cpu\", \"twoCoreShare\", \"pingPongNs\", ...}, \"medianMs\", \"p90Ms\", \"cpuMsPerCall\"}."
    )
    var json = false

    /// What `--json` prints: the model's path (and entry, for a bundle), the inference threads it ran with,
    /// whether its plan gave each tensor its own buffer, the host right after the runs, and the timing's figures.
    struct Report: Encodable {
        var model: String
        var threads: Int
        /// Whether the plan gave each tensor its own buffer (`Interpreter.separateBuffers`: at 2+ threads where a
        /// line's round trip, measured when the first plan was made, was dear, and within the plan's limit).
        var separateBuffers: Bool
        var host: HostReport
        var medianMs, p90Ms, cpuMsPerCall: Double
    }

    func run() async throws {
        try reportingErrors {
            try timing.checkRuns()
            let (name, model) = try timing.source.loadModel()
            let interpreter = try timing.outputs.randomlyFedInterpreter(model, threads: timing.threads)
            let timed = Timing.measure(runs: timing.runs, warmup: timing.warmup) { interpreter.invoke() }
            let host = HostReport.now(twoCoreShare: HandoffCost.twoCoreShare())
            if json {
                try Console.outJSON(
                    Report(
                        model: name, threads: timing.threads, separateBuffers: interpreter.separateBuffers, host: host,
                        medianMs: timed.medianMs, p90Ms: timed.p90Ms, cpuMsPerCall: timed.cpuMsPerCall))
            } else {
                let ms = { (v: Double) in String(format: "%.3f", v) }
                Console.out(
                    host.header
                        + "\(name): median \(ms(timed.medianMs)) ms, p90 \(ms(timed.p90Ms)) ms, CPU \(ms(timed.cpuMsPerCall)) ms per call (\(timing.runs) runs, \(timing.warmup) warm-up, \(timing.threads) thread(s))\n"
                )
            }
        }
    }
}

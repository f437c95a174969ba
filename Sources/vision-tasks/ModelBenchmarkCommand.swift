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
            "Print one JSON object {\"model\", \"threads\", \"twoCoreShare\", \"pingPongNs\", \"medianMs\", \"p90Ms\", \"cpuMsPerCall\"}."
    )
    var json = false

    /// What `--json` prints: the model's path (and entry, for a bundle), the inference threads it ran
    /// with, what two cores gave at once and what a cache line's round trip between them cost just after
    /// the runs, and the timing's figures, in one object.
    struct Report: Encodable {
        var model: String
        var threads: Int
        /// `HandoffCost.twoCoreShare()` measured right after the timed runs: twice it bounds what a
        /// second thread could gain on this host then (other tenants' load on the cores moves it).
        var twoCoreShare: Double
        /// `HandoffCost.pingPong()` measured right after the timed runs: on this VM it moves between about
        /// 60 and 330 ns as the two vCPUs land on near or far cores, and every second thread pays it.
        var pingPongNs: Double
        /// Whether the plan gave each tensor its own buffer (`Interpreter.separateBuffers`: at 2+ threads where a
        /// line's round trip, measured when the first plan was made, was dear, and within the plan's limit).
        var separateBuffers: Bool
        var timed: Timing.Summary

        enum CodingKeys: CodingKey { case model, threads, twoCoreShare, pingPongNs, separateBuffers }

        /// `model`, `threads`, `twoCoreShare`, `pingPongNs` and `separateBuffers`, then the figures of `timed`, as
        /// one flat object.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(model, forKey: .model)
            try container.encode(threads, forKey: .threads)
            try container.encode(twoCoreShare, forKey: .twoCoreShare)
            try container.encode(pingPongNs, forKey: .pingPongNs)
            try container.encode(separateBuffers, forKey: .separateBuffers)
            try timed.encode(to: encoder)
        }
    }

    func run() async throws {
        try reportingErrors {
            try timing.checkRuns()
            let (name, data) = try timing.source.loadModelData()
            let interpreter = try timing.source.randomlyFedInterpreter(data, threads: timing.threads)
            let timed = Timing.measure(runs: timing.runs, warmup: timing.warmup) { interpreter.invoke() }
            let share = HandoffCost.twoCoreShare(), pingPong = HandoffCost.pingPong()
            if json {
                try Console.outJSON(
                    Report(
                        model: name, threads: timing.threads, twoCoreShare: share, pingPongNs: pingPong,
                        separateBuffers: interpreter.separateBuffers, timed: timed))
            } else {
                let ms = { (v: Double) in String(format: "%.3f", v) }
                Console.out(
                    "\(name): median \(ms(timed.medianMs)) ms, p90 \(ms(timed.p90Ms)) ms, CPU \(ms(timed.cpuMsPerCall)) ms per call (\(timing.runs) runs, \(timing.warmup) warm-up, \(timing.threads) thread(s)); two cores at once then: \(String(format: "%.2f", share)) of one each, a cache line's round trip between them \(String(format: "%.0f", pingPong)) ns\n"
                )
            }
        }
    }
}

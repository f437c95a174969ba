import ArgumentParser
import Foundation
import Inference
import VisionCore

/// `vision-tasks model profile PATH [--entry NAME] [--threads N] [--runs N] [--warmup N] [--json]`:
/// each operator's mean time per inference at one thread and at `--threads`, side by side, with its
/// speed-up and share of the total, as LiteRT's `benchmark_model --enable_op_profiling` lists them;
/// then the same summed by operator type, with the jobs each hands to the worker threads. The header
/// names the CPU, its caches and what a hand-off between two cores costs here. Shows which
/// operators a second thread does not split, and where the caller waits for it.
struct ModelProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Time each operator of a model at 1 thread and at --threads, side by side, on random inputs."
    )

    @OptionGroup var timing: ModelTimingOptions<ProfileDefaults>

    @Option(help: "Operators listed, slowest first at --threads (0: all, in model order).")
    var top = 25

    @Flag(
        help:
            "Print one JSON object: {\"model\", \"threads\", \"host\", \"pool\", \"operators\": [{\"op\", \"index\", \"outputShape\", \"ms1\", \"msN\", \"handoffsN\"}]}."
    )
    var json = false

    /// One operator at both thread counts.
    struct Row: Codable {
        var op: String
        var index: Int
        var outputShape: [Int]
        /// Mean ms per inference at one thread.
        var ms1: Double
        /// Mean ms per inference at `threads`.
        var msN: Double
        /// Mean jobs handed to the worker threads per inference at `threads`.
        var handoffsN: Double
    }

    /// What `--json` prints.
    struct Report: Codable {
        var model: String
        var threads: Int
        var host: HostReport
        /// What the worker pool did per inference at `threads`.
        var pool: PoolActivity
        var operators: [Row]
    }

    func run() async throws {
        try reportingErrors {
            try timing.checkRuns()
            try requireOption("--top", top, in: 0...Int.max)
            let (name, model) = try timing.source.loadModel()
            let (runs, warmup, threads) = (timing.runs, timing.warmup, timing.threads)
            func interpreter(_ threads: Int) throws -> Interpreter {
                try timing.outputs.randomlyFedInterpreter(model, threads: threads)
            }
            // The two thread counts alternate in rounds, so that other work on the machine weighs on
            // both alike; each operator's figure is the median of its round means.
            // At one thread, one column: the same interpreter is timed once.
            let single = try interpreter(1), multi = threads == 1 ? nil : try interpreter(threads)
            // The runs dealt over the rounds, the first `runs % rounds` taking one more (runs / rounds each dropped
            // the rest: "--runs 7" timed 5).
            let rounds = min(Self.rounds, runs)
            var one: [[OperatorProfile]] = [], many: [[OperatorProfile]] = [], shares: [Double] = []
            for round in 0..<rounds {
                let perRound = runs / rounds + (round < runs % rounds ? 1 : 0)
                one.append(single.profile(runs: perRound, warmup: round == 0 ? warmup : 1))
                many.append(multi?.profile(runs: perRound, warmup: round == 0 ? warmup : 1) ?? one[round])
                shares.append(HandoffCost.twoCoreShare())
            }
            let rows = one[0].indices.map { k in
                Row(
                    op: one[0][k].op, index: one[0][k].index, outputShape: one[0][k].outputShape,
                    ms1: Timing.median(one.map { $0[k].milliseconds }),
                    msN: Timing.median(many.map { $0[k].milliseconds }),
                    handoffsN: Timing.median(many.map { $0[k].handoffs }))
            }
            let pool = (multi ?? single).poolActivity(runs: max(1, runs / rounds))
            let host = HostReport.now(twoCoreShare: Timing.median(shares))
            let report = Report(model: name, threads: threads, host: host, pool: pool, operators: rows)
            if json {
                try Console.outJSON(report)
            } else {
                Console.out(Self.table(report, top: top, runs: runs, rounds: rounds))
            }
        }
    }

    /// Rounds the runs are split into, the thread counts alternating.
    static let rounds = 5

    /// The text report: the host, the operators (slowest first at `threads`, at most `top`), then by type; at one
    /// thread, one column of times.
    static func table(_ report: Report, top: Int, runs: Int, rounds: Int) -> String {
        let (rows, model, threads, host, pool) = (
            report.operators, report.model, report.threads, report.host, report.pool
        )
        let total1 = rows.reduce(0) { $0 + $1.ms1 }, totalN = rows.reduce(0) { $0 + $1.msN }
        let f = { (v: Double) in String(format: "%8.3f", v) }
        let speedup = { (a: Double, b: Double) in b > 0 ? String(format: "%5.2fx", a / b) : "    -" }
        let share = { (v: Double, total: Double) in String(format: "%5.1f%%", total > 0 ? 100 * v / total : 0) }
        let jobs = { (v: Double) in String(format: "%6.1f", v) }
        let compared = threads > 1
        var out = host.header
        if compared {
            out +=
                "pool at \(threads) threads, per call: \(String(format: "%.1f", pool.jobs)) jobs, \(String(format: "%.1f", pool.parts)) parts (\(String(format: "%.1f", pool.workerParts)) by workers); caller waited in \(String(format: "%.1f", pool.joinWaits)) (slept in \(String(format: "%.1f", pool.joinSleeps))), \(String(format: "%.3f", pool.joinWaitMilliseconds)) ms\n"
        }
        let times =
            (compared
                ? "\(f(total1)) ms at 1 thread, \(f(totalN)) ms at \(threads) (\(speedup(total1, totalN))); \(runs) runs each in "
                    + "\(rounds) alternating rounds" : "\(f(total1)) ms at 1 thread; \(runs) runs in \(rounds) rounds")
        out += "\(model): \(rows.count) kernels; sum of operator times \(times), medians\n"
        out +=
            compared
            ? "  index  operator              output shape          ms 1T   ms \(threads)T  speed-up  share \(threads)T    jobs\n"
            : "  index  operator              output shape          ms 1T  share 1T\n"
        let listed = top == 0 ? rows : Array(rows.sorted { $0.msN > $1.msN }.prefix(top))
        for r in listed {
            let shape = r.outputShape.map(String.init).joined(separator: "x")
            out +=
                "  " + String(format: "%5d", r.index) + "  " + r.op.padding(toLength: 20, withPad: " ", startingAt: 0)
                + "  " + shape.padding(toLength: 18, withPad: " ", startingAt: 0) + "  " + f(r.ms1)
                + (compared
                    ? "  " + f(r.msN) + "  " + speedup(r.ms1, r.msN) + "  " + share(r.msN, totalN) + "  "
                        + jobs(r.handoffsN) : "  " + share(r.ms1, total1)) + "\n"
        }
        out += "  by operator type:\n"
        var byType: [String: (Double, Double, Int, Double)] = [:]
        for r in rows {
            let t = byType[r.op] ?? (0, 0, 0, 0)
            byType[r.op] = (t.0 + r.ms1, t.1 + r.msN, t.2 + 1, t.3 + r.handoffsN)
        }
        for (op, t) in byType.sorted(by: { $0.value.1 > $1.value.1 }) {
            out +=
                "    " + op.padding(toLength: 20, withPad: " ", startingAt: 0) + String(format: "%4d", t.2)
                + " kernels  " + f(t.0)
                + (compared
                    ? "  " + f(t.1) + "  " + speedup(t.0, t.1) + "  " + share(t.1, totalN) + "  " + jobs(t.3) + " jobs"
                    : "  " + share(t.0, total1)) + "\n"
        }
        return out
    }
}

import ArgumentParser
import Foundation
import VisionErrors

/// The defaults and help of the options that time a model (`ModelTimingOptions`), one set per command.
protocol ModelTimingDefaults {
    /// `--runs`: its default and help.
    static var runs: (value: Int, help: String) { get }
    /// `--warmup`'s default.
    static var warmup: Int { get }
    /// `--threads`: its default and help.
    static var threads: (value: Int, help: String) { get }
}

/// `model benchmark`'s defaults: 100 timed runs after 10, one thread.
enum BenchmarkDefaults: ModelTimingDefaults {
    static let runs = (value: 100, help: "Timed runs.")
    static let warmup = 10
    static let threads = (value: 1, help: "Worker threads.")
}

/// `model profile`'s defaults: 50 timed runs per thread count after 5, one thread against two.
enum ProfileDefaults: ModelTimingDefaults {
    static let runs = (value: 50, help: "Timed runs per thread count (in 5 rounds, the thread counts alternating).")
    static let warmup = 5
    static let threads = (value: 2, help: "Worker threads to compare with one thread (1: one column).")
}

/// What `model benchmark` and `model profile` share: the model, the timed and untimed runs and the
/// worker threads, with each command's defaults and help (`Defaults`).
struct ModelTimingOptions<Defaults: ModelTimingDefaults>: ParsableArguments {
    @OptionGroup var source: ModelSourceOptions

    @OptionGroup var outputs: OutputSelection

    @Option(help: ArgumentHelp(Defaults.runs.help))
    var runs: Int = Defaults.runs.value

    @Option(help: "Untimed runs first.")
    var warmup: Int = Defaults.warmup

    @Option(help: ArgumentHelp(Defaults.threads.help))
    var threads: Int = Defaults.threads.value

    /// The runs a command may time or warm up with: the timings of a million runs are 8 MB, and a run takes a
    /// millisecond or more (a runs count past memory's reach used to abort the reservation of its timings).
    static var runsRange: ClosedRange<Int> { 1...1_000_000 }

    /// `invalidOption` for `--runs` outside `runsRange` or `--warmup` below 0 or above its top.
    func checkRuns() throws {
        try requireOption("--runs", runs, in: Self.runsRange)
        try requireOption("--warmup", warmup, in: 0...Self.runsRange.upperBound)
    }
}

/// `invalidOption` naming `option` when `value` is outside `range` ("at least" for a range with no top).
func requireOption(_ option: String, _ value: Int, in range: ClosedRange<Int>) throws {
    guard range.contains(value) else {
        let bounds =
            range.upperBound == .max ? "at least \(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"
        throw VisionTasksError.invalidOption(name: option, reason: "must be \(bounds), got \(value)")
    }
}

extension Console {
    /// Writes `report` as one line of JSON (keys sorted, slashes not escaped).
    static func outJSON(_ report: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        out(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
    }
}

// The engine's public face: load a TFLite model once, then set inputs, invoke, read outputs.

import CKernels
import Foundation
import TFLite
import VisionErrors

/// Name, shape and element type of a model input or output.
public struct TensorInfo: Sendable, Equatable, Codable {
    /// The tensor's name in the model.
    public let name: String
    /// Its static shape.
    public let shape: [Int]
    /// Its element type ("float32": the only type the interpreter exchanges).
    public let type: String
    /// Number of elements (product of `shape`).
    public var elementCount: Int { shape.reduce(1, *) }
}

/// One operator's share of an inference (`Interpreter.profile`).
public struct OperatorProfile: Sendable, Codable, Equatable {
    /// The TFLite operator (the first of a fused group: CONV_2D with its activation and ADD).
    public let op: String
    /// Its index in the model's subgraph.
    public let index: Int
    /// The shape it writes.
    public let outputShape: [Int]
    /// Mean wall time per run, in milliseconds.
    public let milliseconds: Double
    /// Mean jobs it handed to the worker threads per run (0: it ran whole on the calling thread).
    public let handoffs: Double
}

/// Runs a TFLite model (subgraph 0) with VisionTasks' own fp32 kernels.
///
/// Loading resolves shapes, widens fp16 weights, folds constant subgraphs, plans one memory
/// arena and packs weights; `invoke()` then allocates nothing. One interpreter must be used by
/// one thread (or task) at a time; it may use `numThreads` worker threads inside `invoke()`.
public final class Interpreter {
    /// The model's inputs, in subgraph order.
    public let inputs: [TensorInfo]
    /// The model's outputs, in subgraph order.
    public let outputs: [TensorInfo]
    /// Threads `invoke()` splits large kernels over.
    public let numThreads: Int
    /// The most threads `invoke()` may be given.
    public static let maxThreads = 64
    let plan: ExecutionPlan
    /// Whether the plan gave each run-time tensor its own buffer (at 2+ threads where lines cross between cores
    /// dearly, within `MemoryPlan.separateLimit`).
    package var separateBuffers: Bool { plan.separateBuffers }

    /// Prepares `model` for inference.
    /// - Parameters:
    ///   - model: The parsed model; its subgraph 0 is run.
    ///   - numThreads: Threads `invoke()` may use, 1...64.
    ///   - readOutputs: The output indices the caller reads (nil: all); operators that feed only the
    ///     others are not run, and those outputs stay zero.
    /// - Throws: `VisionTasksError.unsupportedModel` naming the first operator or tensor type the engine
    ///   lacks; `.invalidModel` for inconsistent shapes; `.invalidOption` for `numThreads` outside 1...64 or
    ///   a `readOutputs` index out of range.
    public convenience init(model: TFLiteModel, numThreads: Int = 1, readOutputs: Set<Int>? = nil) throws {
        try self.init(graph: try GraphLoader.load(model), numThreads: numThreads, readOutputs: readOutputs)
    }

    /// Parses and prepares a `.tflite` file's bytes; see `init(model:numThreads:)`.
    /// - Parameters:
    ///   - modelData: The bytes of a `.tflite` file.
    ///   - numThreads: Threads `invoke()` may use, 1...64.
    /// - Throws: `VisionTasksError.invalidModel` for bytes that are not a well-formed model; otherwise as
    ///   `init(model:numThreads:readOutputs:)` does.
    public convenience init(modelData: Data, numThreads: Int = 1) throws {
        try self.init(model: try TFLiteModel(data: modelData), numThreads: numThreads)
    }

    /// `grain`, when given, replaces this host's factor on the kernels' minimum work per part, and
    /// `separateBuffers` its choice of buffers (tests).
    init(
        graph: Graph, numThreads: Int, readOutputs: Set<Int>? = nil, grain: Double? = nil,
        separateBuffers: Bool? = nil
    ) throws {
        guard (1...Self.maxThreads).contains(numThreads) else {
            throw VisionTasksError.invalidOption(
                name: "numThreads", reason: "must be between 1 and \(Self.maxThreads), got \(numThreads)")
        }
        if let bad = readOutputs?.first(where: { !graph.outputs.indices.contains($0) }) {
            throw VisionTasksError.invalidOption(
                name: "readOutputs", reason: "the model has \(graph.outputs.count) outputs, got index \(bad)")
        }
        self.numThreads = numThreads
        let threads = KernelThreads(
            numThreads, grain: grain, separateBuffers: separateBuffers ?? KernelThreads(numThreads).separateBuffers)
        plan = try ExecutionPlan(graph: graph, threads: threads, readOutputs: readOutputs)
        inputs = plan.inputs
        outputs = plan.outputs
    }

    /// Copies `values` into input `index`; throws `invalidArgument` for a wrong index or element count.
    /// - Parameters:
    ///   - index: The input, in subgraph order.
    ///   - values: Exactly the input's element count of values.
    /// - Throws: `VisionTasksError.invalidArgument` for an index out of range or a wrong count.
    public func setInput(_ index: Int, _ values: [Float]) throws {
        let buffer = try inputBuffer(index)
        guard values.count == buffer.count else {
            throw VisionTasksError.invalidArgument(
                "input \(index) (\(inputs[index].name)) takes \(buffer.count) values \(inputs[index].shape), got \(values.count)"
            )
        }
        _ = buffer.update(from: values)
    }

    /// Lends input `index`'s buffer for filling in place (it keeps its contents between invocations).
    /// - Parameters:
    ///   - index: The input, in subgraph order.
    ///   - body: Fills the buffer; what it returns is returned.
    /// - Throws: `VisionTasksError.invalidArgument` for an index out of range, or what `body` throws.
    public func withInputBuffer<R>(_ index: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) throws -> R {
        try body(try inputBuffer(index))
    }

    /// Runs `body` over disjoint ranges covering `0 ..< total`, concurrently on the worker threads
    /// `invoke()` uses (parts of at least `minimumPerPart` items; small totals stay on this thread),
    /// and returns when every part is done: for preprocessing that fills an input, such as the
    /// image-to-tensor warp. `body` must be safe to run on several threads at once.
    package func splitWork(_ total: Int, minimumPerPart: Int, _ body: (Range<Int>) -> Void) {
        withoutActuallyEscaping(body) { body in
            KernelThreads(numThreads).split(total, minimumPerPart: minimumPerPart, ClosureJob(body: body))
        }
    }

    /// Runs `body` with every interpreter call made on this thread kept on it (its kernels and
    /// `splitWork` unsplit): for a thread that runs one of several models at once, each on a core
    /// of its own.
    package static func withoutSplitting<R>(_ body: () throws -> R) rethrows -> R {
        let previous = vt_pool_set_serial(1)
        defer { _ = vt_pool_set_serial(previous) }
        return try body()
    }

    /// Runs `body(i)` for each `i` in `0 ..< count`, up to `count` at once on the worker pool's threads (the
    /// caller's among them; a part no worker takes in time runs on the caller), each with its interpreter calls
    /// unsplit (`withoutSplitting`); returns when all are done. For several models run at once, each on a core. When
    /// another interpreter's call holds the pool, the caller runs them all in turn; while they run, the pool is this
    /// call's, and other interpreters' calls run unsplit.
    /// It uses no Dispatch on the caller's thread: a thread that has run `DispatchQueue.concurrentPerform` corrupts
    /// the heap (glibc, swift-corelibs-libdispatch) when a task is released in its teardown, as a `Thread`'s
    /// closure releases what it holds.
    package static func eachOnACore(_ count: Int, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        withoutActuallyEscaping(body) { body in
            KernelThreads(count, grain: 1).split(
                count, minimumPerPart: 1, ClosureJob { parts in withoutSplitting { parts.forEach(body) } })
        }
    }

    /// Runs the model on the current inputs; allocates nothing.
    public func invoke() {
        if numThreads > 1 { HandoffCost.refreshIfLate() }
        plan.run()
    }

    /// Runs the model `runs` times after `warmup` untimed runs and returns each operator's (each
    /// kernel's: a fused group counts once, under its first operator) mean wall time per run, in the
    /// order they run: where the time of one `invoke()` goes, as LiteRT's op profiling shows it.
    /// - Parameters:
    ///   - runs: Timed runs (at least 1 is made).
    ///   - warmup: Untimed runs before them.
    public func profile(runs: Int, warmup: Int = 1) -> [OperatorProfile] {
        if numThreads > 1 { HandoffCost.refreshIfLate() }
        for _ in 0..<max(0, warmup) { plan.run() }
        var times = [UInt64](repeating: 0, count: plan.kernels.count)
        var jobs = times
        let count = max(1, runs)
        _ = countingPoolActivity {
            times.withUnsafeMutableBufferPointer { times in
                jobs.withUnsafeMutableBufferPointer { jobs in
                    for _ in 0..<count { plan.run(timing: times, jobs: jobs) }
                }
            }
        }
        return plan.labels.indices.map { k in
            let label = plan.labels[k]
            return OperatorProfile(
                op: label.op, index: label.index, outputShape: label.outputShape,
                milliseconds: Double(times[k]) / Double(count) / 1e6, handoffs: Double(jobs[k]) / Double(count))
        }
    }

    /// Runs the model `runs` times and returns what the worker pool did per run: jobs handed over,
    /// parts the workers ran, and how long the calling thread waited for them.
    package func poolActivity(runs: Int) -> PoolActivity {
        let count = max(1, runs)
        let (_, before, after) = countingPoolActivity {
            for _ in 0..<count { plan.run() }
        }
        return PoolActivity(from: before, to: after, runs: count)
    }

    /// A copy of output `index` (empty for an index out of range).
    public func output(_ index: Int) -> [Float] {
        guard plan.outputBuffers.indices.contains(index) else { return [] }
        return Array(plan.outputBuffers[index])
    }

    /// Lends output `index`'s buffer for reading without a copy; valid until the next `invoke()`.
    /// - Parameters:
    ///   - index: The output, in subgraph order.
    ///   - body: Reads the buffer; what it returns is returned.
    /// - Throws: `VisionTasksError.invalidArgument` for an index out of range, or what `body` throws.
    public func withOutputBuffer<R>(_ index: Int, _ body: (UnsafeBufferPointer<Float>) throws -> R) throws -> R {
        guard plan.outputBuffers.indices.contains(index) else {
            throw VisionTasksError.invalidArgument("output index \(index) out of range 0..<\(outputs.count)")
        }
        return try body(UnsafeBufferPointer(plan.outputBuffers[index]))
    }

    private func inputBuffer(_ index: Int) throws -> UnsafeMutableBufferPointer<Float> {
        guard plan.inputBuffers.indices.contains(index) else {
            throw VisionTasksError.invalidArgument("input index \(index) out of range 0..<\(inputs.count)")
        }
        return plan.inputBuffers[index]
    }
}

/// `Interpreter.splitWork`'s body as a kernel job.
private struct ClosureJob: RangeJob {
    let body: (Range<Int>) -> Void

    func run(thread: Int, begin: Int, end: Int) { body(begin..<end) }
}

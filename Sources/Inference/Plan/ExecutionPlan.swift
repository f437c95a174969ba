// From graph to runnable plan: the passes of PlanPasses.swift in order (validate, fold, prune, fuse,
// plan memory, bind), then the arena and kernels `run()` uses.

import CKernels
import Dispatch
import VisionErrors

/// Owns float buffers handed to kernels as raw pointers (constants, folding scratch).
final class BufferStore {
    private var buffers: [AlignedFloats] = []

    /// A stable copy of `values`.
    func store(_ values: [Float]) -> UnsafeMutablePointer<Float> {
        let b = AlignedFloats(count: values.count)
        values.withUnsafeBufferPointer { v in
            if let base = v.baseAddress { b.pointer.update(from: base, count: v.count) }
        }
        buffers.append(b)
        return b.pointer
    }

    /// A zeroed buffer of `count` floats.
    func allocate(_ count: Int) -> UnsafeMutablePointer<Float> {
        let b = AlignedFloats(count: count)
        buffers.append(b)
        return b.pointer
    }
}

/// Converts a planning problem of node `node` into the error users see, naming the operator.
func modelError(_ error: Error, node: GraphNode) -> VisionTasksError {
    let place = "operator \(node.opName) (index \(node.index)) in subgraph 0"
    switch error {
    case VisionTasksError.unsupportedModel(let message):
        return .unsupportedModel("\(place) is not supported: \(message)")
    case VisionTasksError.invalidModel(let message): return .invalidModel("\(place): \(message)")
    case let e as VisionTasksError: return e
    default: return .invalidModel("\(place): \(error)")
    }
}

/// A graph ready to run: kernels in order over one arena, with stable input and output buffers.
final class ExecutionPlan {
    let kernels: [Kernel]
    /// What each kernel computes, parallel to `kernels` (for profiles).
    let labels: [KernelLabel]
    /// The graph's inputs and outputs, shapes resolved. The graph itself is not kept: its constants
    /// (the weights, fp16 and widened) live on packed or copied for the kernels, so holding them
    /// too would double an instance's memory.
    let inputs: [TensorInfo]
    let outputs: [TensorInfo]
    let inputBuffers: [UnsafeMutableBufferPointer<Float>]
    let outputBuffers: [UnsafeMutableBufferPointer<Float>]
    /// Whether each run-time tensor has its own buffer (`MemoryPlan.separate`).
    let separateBuffers: Bool
    private let arena: AlignedFloats
    private let constants: BufferStore

    init(graph source: Graph, threads: KernelThreads, readOutputs: Set<Int>? = nil) throws {
        var graph = source
        try PlanPasses.validate(graph)
        try PlanPasses.fold(&graph)
        PlanPasses.prune(&graph, keeping: readOutputs)
        let nodes = try PlanPasses.fuse(&graph)
        let layout = PlanPasses.planMemory(graph, nodes, separateBuffers: threads.separateBuffers)
        guard layout.memory.arenaCount <= GraphLoader.maxComputedFloats else {
            throw VisionTasksError.unsupportedModel(
                "the model's run-time tensors need \(layout.memory.arenaCount) floats at once; the engine holds at most "
                    + "\(GraphLoader.maxComputedFloats)")
        }
        let arena = AlignedFloats(count: layout.memory.arenaCount)
        let constants = BufferStore()
        let bound = try PlanPasses.bind(
            graph, nodes, layout: layout, arena: arena.pointer, constants: constants, threads: threads)
        kernels = bound.map(\.kernel)
        labels = bound.map(\.label)
        func info(_ t: Int) -> TensorInfo {
            TensorInfo(name: graph.tensors[t].name, shape: graph.tensors[t].shape, type: "float32")
        }
        inputs = graph.inputs.map(info)
        outputs = graph.outputs.map(info)
        self.arena = arena
        self.constants = constants
        separateBuffers = layout.memory.separate
        func buffer(_ t: Int) -> UnsafeMutableBufferPointer<Float> {
            UnsafeMutableBufferPointer(
                start: arena.pointer + layout.offset(of: t), count: graph.tensors[t].elementCount)
        }
        inputBuffers = graph.inputs.map(buffer)
        outputBuffers = graph.outputs.map(buffer)
    }

    /// Runs every kernel once.
    func run() {
        kernels.forEachWithoutAllocating { $0.run() }
    }

    /// Runs every kernel once, adding each one's wall time in nanoseconds to `times` and the jobs it
    /// handed to the worker pool to `jobs` (one entry per kernel each; jobs count while the pool's
    /// counters are on, `countingPoolActivity`).
    func run(timing times: UnsafeMutableBufferPointer<UInt64>, jobs: UnsafeMutableBufferPointer<UInt64>) {
        var i = 0
        var stats = vt_pool_stats()
        kernels.forEachWithoutAllocating { kernel in
            vt_pool_stats_read(&stats)
            let before = stats.jobs
            let start = DispatchTime.now().uptimeNanoseconds
            kernel.run()
            times[i] &+= DispatchTime.now().uptimeNanoseconds &- start
            vt_pool_stats_read(&stats)
            jobs[i] &+= stats.jobs &- before
            i += 1
        }
    }
}

/// The operator a kernel runs: its TFLite name and index in the model (the first of a fused group),
/// and the shape it writes.
struct KernelLabel: Sendable {
    let op: String
    let index: Int
    let outputShape: [Int]
}

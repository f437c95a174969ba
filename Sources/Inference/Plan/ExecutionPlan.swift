import VisionErrors
// From graph to runnable plan: prepare every node (shapes checked against the model), fold
// nodes whose inputs are all constant, place run-time tensors in one arena, and bind kernels.


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
    case VisionTasksError.unsupportedModel(let message): return .unsupportedModel("\(place) is not supported: \(message)")
    case VisionTasksError.invalidModel(let message): return .invalidModel("\(place): \(message)")
    case let e as VisionTasksError: return e
    default: return .invalidModel("\(place): \(error)")
    }
}

/// A graph ready to run: kernels in order over one arena, with stable input and output buffers.
final class ExecutionPlan {
    let kernels: [Kernel]
    /// Graph tensors after folding (shapes resolved).
    let graph: Graph
    let inputBuffers: [UnsafeMutableBufferPointer<Float>]
    let outputBuffers: [UnsafeMutableBufferPointer<Float>]
    private let arena: AlignedFloats
    private let constants: BufferStore

    init(graph source: Graph, threads: KernelThreads) throws {
        var graph = source
        for t in graph.inputs + graph.outputs {
            guard graph.tensors[t].type == .float32 else {
                throw VisionTasksError.unsupportedModel(
                    "tensor \(graph.tensors[t].name) (graph input/output) has type \(graph.tensors[t].type); only float32 is supported")
            }
        }
        for t in graph.inputs where graph.tensors[t].constant != nil {
            throw VisionTasksError.invalidModel("graph input \(graph.tensors[t].name) is a constant tensor")
        }

        // 1. Prepare every node; fold the constant ones.
        let constants = BufferStore()
        var kept: [(node: GraphNode, prepared: PreparedNode)] = []
        var written = Set(graph.inputs)
        for node in graph.nodes {
            let prepared: PreparedNode
            do {
                for t in node.inputs where t >= 0 {
                    guard graph.tensors[t].constant != nil || written.contains(t) else {
                        throw VisionTasksError.invalidModel("input tensor \(graph.tensors[t].name) is read before it is computed")
                    }
                }
                prepared = try NodePreparer(graph: graph, node: node).prepare()
                for (slot, t) in node.outputs.enumerated() {
                    let declared = graph.tensors[t]
                    let inferred = prepared.outputShapes[slot]
                    guard declared.shape == inferred || declared.shape.isEmpty && inferred.reduce(1, *) == 1 else {
                        throw VisionTasksError.invalidModel("output \(declared.name) is declared \(declared.shape) but computes to \(inferred)")
                    }
                    guard declared.type == .float32 || node.operation == .dequantize else {
                        throw VisionTasksError.unsupportedModel("output \(declared.name) has type \(declared.type)")
                    }
                    guard declared.constant == nil, !written.contains(t) else {
                        throw VisionTasksError.invalidModel("output \(declared.name) is written twice or is a constant")
                    }
                    graph.tensors[t].shape = inferred
                    graph.tensors[t].type = .float32
                    written.insert(t)
                }
            } catch {
                throw modelError(error, node: node)
            }
            let foldable = node.inputs.allSatisfy { $0 < 0 || graph.tensors[$0].constant != nil }
            if foldable {
                do {
                    for (slot, values) in try Self.fold(node: node, prepared: prepared, graph: graph).enumerated() {
                        graph.tensors[node.outputs[slot]].constant = .float32(values)
                    }
                } catch {
                    throw modelError(error, node: node)
                }
            } else {
                kept.append((node, prepared))
            }
        }

        // 2. Fuse neighbours, now that shapes are resolved and constants folded; prepare the fused nodes.
        graph.nodes = kept.map(\.node)
        graph.fuseOperators()
        kept = []
        for node in graph.nodes {
            do {
                kept.append((node, try NodePreparer(graph: graph, node: node).prepare()))
            } catch {
                throw modelError(error, node: node)
            }
        }

        // 3. Buffers: one per run-time tensor, RESHAPE outputs sharing their input's.
        var root = [Int: Int]()
        func rootOf(_ t: Int) -> Int { root[t].map(rootOf) ?? t }
        for (node, prepared) in kept where prepared.isReshape {
            root[node.outputs[0]] = rootOf(node.inputs[0])
        }
        var requestIndex = [Int: Int]()
        var requests: [BufferRequest] = []
        func touch(_ t: Int, _ step: Int, defining: Bool) {
            let r = rootOf(t)
            if let i = requestIndex[r] {
                requests[i].firstStep = min(requests[i].firstStep, step)
                requests[i].lastStep = max(requests[i].lastStep, step)
            } else {
                requestIndex[r] = requests.count
                requests.append(BufferRequest(count: graph.tensors[r].elementCount, firstStep: step, lastStep: step))
            }
        }
        for t in graph.inputs { touch(t, -1, defining: true) }
        for (step, (node, _)) in kept.enumerated() {
            for t in node.inputs where t >= 0 && graph.tensors[t].constant == nil { touch(t, step, defining: false) }
            for t in node.outputs { touch(t, step, defining: true) }
        }
        for t in graph.outputs { touch(t, -1, defining: false) }
        for t in graph.inputs + graph.outputs {
            if let i = requestIndex[rootOf(t)] { requests[i].lastStep = Int.max }
        }
        let memory = MemoryPlan(requests)
        let arena = AlignedFloats(count: memory.arenaCount)
        // Every tensor reaching here was touched above, so it has a request.
        func pointer(_ t: Int) -> UnsafeMutablePointer<Float> {
            arena.pointer + (requestIndex[rootOf(t)].map { memory.offsets[$0] } ?? 0)
        }

        // 4. Kernels bound to arena and constant buffers.
        var constantPointers = [Int: UnsafeMutablePointer<Float>]()
        var kernels: [Kernel] = []
        for (node, prepared) in kept {
            if prepared.isReshape && rootOf(node.outputs[0]) == rootOf(node.inputs[0]) { continue }
            let context = BoundContext(node: node, graph: graph, threads: threads, resolve: pointer) { t in
                if let p = constantPointers[t] { return p }
                guard case .float32(let values)? = graph.tensors[t].constant else { return nil }
                let p = constants.store(values)
                constantPointers[t] = p
                return p
            }
            do {
                kernels.append(try prepared.make(context))
            } catch {
                throw modelError(error, node: node)
            }
        }
        // Graph outputs that folding made constant are written once, here.
        for t in graph.outputs {
            if case .float32(let values)? = graph.tensors[t].constant {
                values.withUnsafeBufferPointer { v in
                    if let base = v.baseAddress { pointer(t).update(from: base, count: v.count) }
                }
            }
        }
        self.graph = graph
        self.kernels = kernels
        self.arena = arena
        self.constants = constants
        inputBuffers = graph.inputs.map { UnsafeMutableBufferPointer(start: pointer($0), count: graph.tensors[$0].elementCount) }
        outputBuffers = graph.outputs.map { UnsafeMutableBufferPointer(start: pointer($0), count: graph.tensors[$0].elementCount) }
    }

    /// Runs every kernel once.
    func run() {
        kernels.forEachWithoutAllocating { $0.run() }
    }

    /// Computes a node whose inputs are all constant, on temporary buffers.
    private static func fold(node: GraphNode, prepared: PreparedNode, graph: Graph) throws -> [[Float]] {
        let scratch = BufferStore()
        var outputs: [UnsafeMutablePointer<Float>] = []
        for s in prepared.outputShapes { outputs.append(scratch.allocate(s.reduce(1, *))) }
        let context = BoundContext(node: node, graph: graph, threads: .single, resolve: { t in
            node.outputs.firstIndex(of: t).map { outputs[$0] } ?? scratch.allocate(1)
        }) { t in
            guard case .float32(let values)? = graph.tensors[t].constant else { return nil }
            return scratch.store(values)
        }
        try prepared.make(context).run()
        return prepared.outputShapes.indices.map { i in
            Array(UnsafeBufferPointer(start: outputs[i], count: prepared.outputShapes[i].reduce(1, *)))
        }
    }
}

/// A `KernelContext` resolving tensors through closures (arena offsets or scratch buffers).
private struct BoundContext: KernelContext {
    let node: GraphNode
    let graph: Graph
    let threads: KernelThreads
    let resolve: (Int) -> UnsafeMutablePointer<Float>
    let constant: (Int) -> UnsafeMutablePointer<Float>?

    func input(_ slot: Int) -> UnsafePointer<Float> {
        let t = node.inputs[slot]
        return UnsafePointer(constant(t) ?? resolve(t))
    }

    func output(_ slot: Int) -> UnsafeMutablePointer<Float> { resolve(node.outputs[slot]) }

    func constantValues(_ slot: Int) -> [Float]? {
        guard slot < node.inputs.count, node.inputs[slot] >= 0,
              case .float32(let values)? = graph.tensors[node.inputs[slot]].constant else { return nil }
        return values
    }
}

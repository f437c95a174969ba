// The planner's passes, in the order `ExecutionPlan` runs them, each a function of the graph that
// a test can run alone: validate → fold → fuse → plan memory → bind.

import VisionErrors

/// A run-time node and what its preparation found (shapes, kernel factory).
typealias PlannedNode = (node: GraphNode, prepared: PreparedNode)

// MARK: - Tensor layout

/// Where each run-time tensor lives in the arena. RESHAPE outputs share their input's buffer, and so does
/// an elementwise operator's output (`PreparedNode.inPlaceInput`) when nothing reads that input afterwards:
/// the values then stay in the cache, and at two threads in the core, that wrote them.
struct TensorLayout {
    /// Tensor → the tensor whose buffer it shares (RESHAPE output → input), followed to the root.
    private let root: [Int: Int]
    /// Root tensor → its request in `memory`.
    private let requestIndex: [Int: Int]
    /// The arena offsets of the requests.
    let memory: MemoryPlan

    /// The tensor whose buffer `t` uses.
    func rootOf(_ t: Int) -> Int { root[t].map(rootOf) ?? t }

    /// `t`'s offset in the arena, in floats.
    func offset(of t: Int) -> Int { requestIndex[rootOf(t)].map { memory.offsets[$0] } ?? 0 }

    /// Lays out the run-time tensors of `nodes`: one buffer per tensor (RESHAPE outputs, and elementwise
    /// outputs whose input is read last there, sharing their input's), alive from the step that writes it to
    /// the last that reads it; graph inputs and outputs live throughout, so their buffers stay stable.
    init(graph: Graph, nodes: [PlannedNode], separateBuffers: Bool = false) {
        var root = [Int: Int]()
        func rootOf(_ t: Int) -> Int { root[t].map(rootOf) ?? t }
        // The last step that reads each tensor, and per root the last that reads any tensor sharing its buffer;
        // graph inputs and outputs are read throughout.
        var lastRead = [Int: Int]()
        for (step, (node, _)) in nodes.enumerated() {
            for t in node.inputs where t >= 0 { lastRead[t] = step }
        }
        for t in graph.inputs + graph.outputs { lastRead[t] = Int.max }
        var rootLastRead = lastRead
        func share(_ t: Int, with r: Int) {
            root[t] = r
            rootLastRead[r] = max(rootLastRead[r] ?? -1, lastRead[t] ?? -1)
        }
        for (step, (node, prepared)) in nodes.enumerated() {
            if prepared.isReshape {
                share(node.outputs[0], with: rootOf(node.inputs[0]))
            } else if let slot = prepared.inPlaceInput, slot < node.inputs.count, node.inputs[slot] >= 0,
                graph.tensors[node.inputs[slot]].constant == nil
            {
                let r = rootOf(node.inputs[slot]), out = node.outputs[0]
                if (rootLastRead[r] ?? -1) <= step, (lastRead[out] ?? -1) != Int.max,
                    graph.tensors[r].elementCount == graph.tensors[out].elementCount
                {
                    share(out, with: r)
                }
            }
        }
        var requestIndex = [Int: Int]()
        var requests: [BufferRequest] = []
        func touch(_ t: Int, _ step: Int) {
            let r = rootOf(t)
            if let i = requestIndex[r] {
                requests[i].firstStep = min(requests[i].firstStep, step)
                requests[i].lastStep = max(requests[i].lastStep, step)
            } else {
                requestIndex[r] = requests.count
                requests.append(BufferRequest(count: graph.tensors[r].elementCount, firstStep: step, lastStep: step))
            }
        }
        for t in graph.inputs { touch(t, -1) }
        for (step, (node, _)) in nodes.enumerated() {
            for t in node.inputs where t >= 0 && graph.tensors[t].constant == nil { touch(t, step) }
            for t in node.outputs { touch(t, step) }
        }
        for t in graph.outputs { touch(t, -1) }
        for t in graph.inputs + graph.outputs {
            if let i = requestIndex[rootOf(t)] { requests[i].lastStep = Int.max }
        }
        self.root = root
        self.requestIndex = requestIndex
        memory = MemoryPlan(requests, separate: separateBuffers)
    }
}

// MARK: - Passes

/// The passes from a loaded graph to bound kernels.
enum PlanPasses {
    /// Validate: the graph's inputs and outputs are float32 and its inputs are not constants.
    static func validate(_ graph: Graph) throws {
        for t in graph.inputs + graph.outputs {
            guard graph.tensors[t].type == .float32 else {
                throw VisionTasksError.unsupportedModel(
                    "tensor \(graph.tensors[t].name) (graph input/output) has type \(graph.tensors[t].type); only float32 is supported"
                )
            }
        }
        for t in graph.inputs where graph.tensors[t].constant != nil {
            throw VisionTasksError.invalidModel("graph input \(graph.tensors[t].name) is a constant tensor")
        }
    }

    /// Fold: prepares every node in order (inputs computed before they are read, output shapes
    /// checked against the model's and resolved, each output written once), computes the nodes whose
    /// inputs are all constant into constant tensors, and keeps the others as the graph's nodes.
    static func fold(_ graph: inout Graph) throws {
        var kept: [GraphNode] = []
        var written = Set(graph.inputs)
        var folded = 0 // floats of constants computed so far
        for node in graph.nodes {
            let prepared: PreparedNode
            do {
                for t in node.inputs where t >= 0 {
                    guard graph.tensors[t].constant != nil || written.contains(t) else {
                        throw VisionTasksError.invalidModel(
                            "input tensor \(graph.tensors[t].name) is read before it is computed")
                    }
                }
                prepared = try node.operation.prepare(NodeInputs(graph: graph, node: node))
                for (slot, t) in node.outputs.enumerated() {
                    let declared = graph.tensors[t]
                    let inferred = prepared.outputShapes[slot]
                    guard declared.shape == inferred || declared.shape.isEmpty && inferred.allSatisfy({ $0 == 1 })
                    else {
                        throw VisionTasksError.invalidModel(
                            "output \(declared.name) is declared \(declared.shape) but computes to \(inferred)")
                    }
                    guard declared.type == .float32 || node.operation.readsConstantsOnly else {
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
            if node.inputs.allSatisfy({ $0 < 0 || graph.tensors[$0].constant != nil }) {
                do {
                    for shape in prepared.outputShapes { folded += try computedCount(shape, "folded constant") }
                    guard folded <= GraphLoader.maxComputedFloats else {
                        throw VisionTasksError.unsupportedModel(
                            "the constants folded at load come to more than \(GraphLoader.maxComputedFloats) floats")
                    }
                    for (slot, values) in try compute(node: node, prepared: prepared, graph: graph).enumerated() {
                        graph.tensors[node.outputs[slot]].constant = .float32(values)
                    }
                } catch {
                    throw modelError(error, node: node)
                }
            } else {
                kept.append(node)
            }
        }
        graph.nodes = kept
    }

    /// Prune: with `outputs` (indices into the graph's outputs) given, drops every node that feeds
    /// none of them, so `invoke()` skips work whose results nobody reads (a model's segmentation head
    /// when no mask is wanted); the other outputs keep their buffers, left at zero.
    static func prune(_ graph: inout Graph, keeping outputs: Set<Int>?) {
        guard let outputs else { return }
        var needed = Set(outputs.map { graph.outputs[$0] })
        var kept: [GraphNode] = []
        for node in graph.nodes.reversed() where node.outputs.contains(where: needed.contains) {
            kept.append(node)
            needed.formUnion(node.inputs.filter { $0 >= 0 })
        }
        graph.nodes = kept.reversed()
    }

    /// Fuse: applies the operators' rewrites (now that shapes are resolved and constants folded:
    /// neighbours merged, FULLY_CONNECTED nodes sharing their weights stacked) and prepares the
    /// resulting run-time nodes.
    static func fuse(_ graph: inout Graph) throws -> [PlannedNode] {
        graph.apply(OperatorTable.rewrites)
        return try graph.nodes.map { node in
            do {
                return (node, try node.operation.prepare(NodeInputs(graph: graph, node: node)))
            } catch {
                throw modelError(error, node: node)
            }
        }
    }

    /// Plan memory: the arena offsets of the run-time tensors (each in its own buffer when `separateBuffers`).
    static func planMemory(_ graph: Graph, _ nodes: [PlannedNode], separateBuffers: Bool = false) -> TensorLayout {
        TensorLayout(graph: graph, nodes: nodes, separateBuffers: separateBuffers)
    }

    /// Bind: one kernel per node over the arena at `arena` (constants copied into `constants`),
    /// RESHAPEs that share their input's buffer dropped; graph outputs that folding made constant
    /// are written into the arena once, here.
    static func bind(
        _ graph: Graph, _ nodes: [PlannedNode], layout: TensorLayout, arena: UnsafeMutablePointer<Float>,
        constants: BufferStore, threads: KernelThreads
    ) throws -> [(kernel: Kernel, label: KernelLabel)] {
        func pointer(_ t: Int) -> UnsafeMutablePointer<Float> { arena + layout.offset(of: t) }
        var constantPointers = [Int: UnsafeMutablePointer<Float>]()
        var kernels: [(kernel: Kernel, label: KernelLabel)] = []
        let objects = SharedObjects()
        for (node, prepared) in nodes {
            if prepared.isReshape && layout.rootOf(node.outputs[0]) == layout.rootOf(node.inputs[0]) { continue }
            let context = BoundContext(node: node, graph: graph, threads: threads, objects: objects, resolve: pointer) {
                t in
                if let p = constantPointers[t] { return p }
                guard case .float32(let values)? = graph.tensors[t].constant else { return nil }
                let p = constants.store(values)
                constantPointers[t] = p
                return p
            }
            do {
                let label = KernelLabel(
                    op: node.opName, index: node.index,
                    outputShape: node.outputs.first.map { graph.tensors[$0].shape } ?? [])
                kernels.append((try prepared.make(context), label))
            } catch {
                throw modelError(error, node: node)
            }
        }
        for t in graph.outputs {
            if case .float32(let values)? = graph.tensors[t].constant {
                values.withUnsafeBufferPointer { v in
                    if let base = v.baseAddress { pointer(t).update(from: base, count: v.count) }
                }
            }
        }
        return kernels
    }

    /// Computes a node whose inputs are all constant, on temporary buffers.
    private static func compute(node: GraphNode, prepared: PreparedNode, graph: Graph) throws -> [[Float]] {
        let scratch = BufferStore()
        var outputs: [UnsafeMutablePointer<Float>] = []
        for s in prepared.outputShapes { outputs.append(scratch.allocate(s.reduce(1, *))) }
        let context = BoundContext(
            node: node, graph: graph, threads: .single, objects: SharedObjects(),
            resolve: { t in
                node.outputs.firstIndex(of: t).map { outputs[$0] } ?? scratch.allocate(1)
            }
        ) { t in
            guard case .float32(let values)? = graph.tensors[t].constant else { return nil }
            return scratch.store(values)
        }
        try prepared.make(context).run()
        return prepared.outputShapes.indices.map { i in
            Array(UnsafeBufferPointer(start: outputs[i], count: prepared.outputShapes[i].reduce(1, *)))
        }
    }
}

// MARK: - Bound kernel context

/// A `KernelContext` resolving tensors through closures (arena offsets or scratch buffers).
struct BoundContext: KernelContext {
    let node: GraphNode
    let graph: Graph
    let threads: KernelThreads
    let objects: SharedObjects
    let resolve: (Int) -> UnsafeMutablePointer<Float>
    let constant: (Int) -> UnsafeMutablePointer<Float>?

    func input(_ slot: Int) -> UnsafePointer<Float> {
        let t = node.inputs[slot]
        return UnsafePointer(constant(t) ?? resolve(t))
    }

    func output(_ slot: Int) -> UnsafeMutablePointer<Float> { resolve(node.outputs[slot]) }

    func constantValues(_ slot: Int) -> [Float]? {
        guard slot < node.inputs.count, node.inputs[slot] >= 0,
            case .float32(let values)? = graph.tensors[node.inputs[slot]].constant
        else { return nil }
        return values
    }

    func shared<T: AnyObject>(_ slots: [Int], _ make: () throws -> T) throws -> T {
        try objects.object(slots.map(node.input), make)
    }
}

/// The objects a plan's kernels share, each built from constant tensors (see `KernelContext.shared`).
final class SharedObjects {
    private struct Key: Hashable {
        let type: ObjectIdentifier
        let tensors: [Int]
    }
    private var objects: [Key: AnyObject] = [:]

    /// The `T` made for these tensors, made by `make` the first time.
    func object<T: AnyObject>(_ tensors: [Int], _ make: () throws -> T) throws -> T {
        let key = Key(type: ObjectIdentifier(T.self), tensors: tensors)
        if let found = objects[key] as? T { return found }
        let made = try make()
        objects[key] = made
        return made
    }
}

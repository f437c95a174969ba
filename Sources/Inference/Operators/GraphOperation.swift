// What an operator is to the engine. Each operator lives in one file of this folder: how it is read
// from a TFLite model (its `loaders`), its shape rules and its kernel binding (`prepare`), what it
// absorbs in fusion (`fusing`) and the graph rewrites it owns (`rewrites`, in its file or one beside
// it, applied by Graph/GraphRewrites.swift); OperatorTable.swift lists them all.

import TFLite
import VisionErrors

/// Reads one TFLite operator into an operation (options decoded); throws for options it cannot run.
typealias OperatorLoader = @Sendable (OperatorSource) throws -> any GraphOperation

/// Fails with `message` (a malformed model; the planner adds the operator's name) unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(VisionTasksError) {
    if !condition { throw .invalidModel(message()) }
}

/// A rewrite of the graph an operator owns, applied before kernels are bound (constants folded, shapes resolved).
enum GraphRewrite: Sendable {
    /// Given a producer and the one node reading its single output (not a graph output), the node
    /// replacing both (run at the consumer's place, writing its outputs), or nil to leave them.
    case pair(@Sendable (_ graph: Graph, _ producer: GraphNode, _ consumer: GraphNode) -> GraphNode?)
    /// A rewrite of the whole graph.
    case whole(@Sendable (inout Graph) -> Void)
}

/// An operator of the graph with its options decoded: its shape rules and its kernel binding.
protocol GraphOperation: Sendable {
    /// The TFLite builtin codes this operation implements, each with how it is read from a model.
    static var loaders: [BuiltinOperator: OperatorLoader] { get }
    /// The custom operators (TFLite `CUSTOM` with these custom codes) this operation implements.
    static var customLoaders: [String: OperatorLoader] { get }
    /// Checks the node's inputs, computes its output shapes and returns the recipe binding its kernel.
    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode
    /// This operation with `activation` applied to its output, nil when it has no free activation slot.
    func fusing(_ activation: Activation) -> (any GraphOperation)?
    /// The rewrites this operation owns (the nodes they replace are of this operation), in the order they run.
    static var rewrites: [GraphRewrite] { get }
    /// True when the operation reads only a constant, of any element type, and folding turns its output
    /// into an fp32 constant, so that output may be declared with another type (DEQUANTIZE, DENSIFY).
    var readsConstantsOnly: Bool { get }
}

extension GraphOperation {
    func fusing(_ activation: Activation) -> (any GraphOperation)? { nil }
    static var customLoaders: [String: OperatorLoader] { [:] }
    static var rewrites: [GraphRewrite] { [] }
    var readsConstantsOnly: Bool { false }
}

/// A TFLite operator as the loader hands it to an operation's loader.
struct OperatorSource {
    let op: TFLiteModel.Operator
    /// "operator NAME (index i) in subgraph 0", for messages.
    let place: String
    /// The options' fused activation (`none` for operators without one).
    let activation: Activation

    /// The decoded builtin options.
    var options: BuiltinOptions { op.options }

    /// The error for an options table of another operator.
    func mismatch() -> VisionTasksError {
        .invalidModel("\(place) has options of another operator (\(options))")
    }
}

/// What planning learned about a node: its output shapes, and how to make its kernel.
struct PreparedNode {
    var outputShapes: [[Int]]
    /// True when the output is the input's data under another shape (RESHAPE): no kernel needed
    /// if the two can share a buffer.
    var isReshape = false
    /// The input slot whose buffer the output may take over when nothing reads that input afterwards
    /// (elementwise kernels, which read each value before writing it); nil: the output needs its own.
    var inPlaceInput: Int? = nil
    var make: (KernelContext) throws -> Kernel
}

/// The buffers a kernel is bound to, and constant data for packing weights.
protocol KernelContext {
    /// The buffer of the node's input at `slot` (constant or arena).
    func input(_ slot: Int) -> UnsafePointer<Float>
    /// The buffer of the node's output at `slot`.
    func output(_ slot: Int) -> UnsafeMutablePointer<Float>
    /// The values of the node's constant float input at `slot` (weights, biases), nil if absent.
    func constantValues(_ slot: Int) -> [Float]?
    /// How many threads a kernel may split its work over.
    var threads: KernelThreads { get }
    /// What `make` builds from the node's constant inputs at `slots`, built once per plan: nodes that
    /// read the same constant tensors there get the same object (one packed copy of shared weights).
    func shared<T: AnyObject>(_ slots: [Int], _ make: () throws -> T) throws -> T
}

/// A node's inputs as its operation's shape rules read them: tensors, float shapes, constant arguments.
struct NodeInputs {
    let graph: Graph
    let node: GraphNode

    /// The input tensor at `slot`; `invalidModel` when absent.
    func tensor(_ slot: Int) throws(VisionTasksError) -> GraphTensor {
        guard slot < node.inputs.count, node.inputs[slot] >= 0 else {
            throw VisionTasksError.invalidModel("input \(slot) is missing")
        }
        return graph.tensors[node.inputs[slot]]
    }

    /// Whether the optional input at `slot` is present.
    func has(_ slot: Int) -> Bool { slot < node.inputs.count && node.inputs[slot] >= 0 }

    /// How many input slots the node lists.
    var count: Int { node.inputs.count }

    /// Shape of a float input (run-time or constant).
    func floatShape(_ slot: Int) throws(VisionTasksError) -> [Int] {
        let t = try tensor(slot)
        guard t.type == .float32 else {
            throw VisionTasksError.unsupportedModel(
                "input \(slot) (\(t.name)) has type \(t.type); only float32 is supported here")
        }
        return t.shape
    }

    /// Values of a constant int32 argument (shape, axes, permutation, paddings, indices, size).
    func ints(_ slot: Int) throws(VisionTasksError) -> [Int] {
        let t = try tensor(slot)
        guard case .int32(let v)? = t.constant else {
            throw VisionTasksError.unsupportedModel("input \(slot) (\(t.name)) must be a constant int32 tensor")
        }
        return v.map(Int.init)
    }

    /// The declared shape of the node's output at `slot`.
    func declaredOutputShape(_ slot: Int) -> [Int] { graph.tensors[node.outputs[slot]].shape }

    /// `invalidModel` unless the node has `n` outputs.
    func requireOutputs(_ n: Int) throws(VisionTasksError) {
        try require(node.outputs.count == n, "has \(node.outputs.count) outputs, expected \(n)")
    }

    /// Checks the optional bias at `slot` has one value per output channel.
    func requireBias(slot: Int, channels: Int) throws(VisionTasksError) {
        guard has(slot) else { return }
        let b = try floatShape(slot)
        try require(b.reduce(1, *) == channels, "bias \(b) does not have \(channels) values")
    }

    /// The window geometry of a convolution or pool on NHWC `input`, with TFLite's padding rule.
    func windowGeometry(
        input s: [Int], kernelH: Int, kernelW: Int, outputChannels: Int,
        options: ConvolutionOptions
    ) throws(VisionTasksError) -> Conv2DGeometry {
        try require(
            kernelH > 0 && kernelW > 0 && options.strideH > 0 && options.strideW > 0
                && options.dilationH > 0 && options.dilationW > 0,
            "kernel, stride and dilation must be positive")
        let g = Conv2DGeometry(
            batch: s[0], inputHeight: s[1], inputWidth: s[2], inputChannels: s[3],
            outputChannels: outputChannels, kernelHeight: kernelH, kernelWidth: kernelW,
            strideHeight: options.strideH, strideWidth: options.strideW,
            dilationHeight: options.dilationH, dilationWidth: options.dilationW,
            padding: options.padding)
        try require(g.outputHeight > 0 && g.outputWidth > 0, "window larger than input \(s)")
        do {
            try g.validate(node.opName)
        } catch {
            throw VisionTasksError.unsupportedModel("geometry out of range for input \(s)")
        }
        return g
    }
}

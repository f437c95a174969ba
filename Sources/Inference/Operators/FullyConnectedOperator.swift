// FULLY_CONNECTED: rows of the input times constant [units, depth] weights, packed once for the
// C GEMM (Kernels/FullyConnectedKernel.swift).

import TFLite
import VisionErrors

/// FULLY_CONNECTED: input 1 the constant weights, input 2 the optional bias.
struct FullyConnectedOperator: GraphOperation, Equatable {
    var activation: Activation
    /// Keep the input's leading dimensions (else the output is [rows, units]).
    var keepNumDims: Bool

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .fullyConnected: { source in
            guard case .fullyConnected(let o) = source.options else { throw source.mismatch() }
            guard o.weightsFormat == 0 else {
                throw VisionTasksError.unsupportedModel(
                    "\(source.place) is not supported: shuffled weights format \(o.weightsFormat)")
            }
            return FullyConnectedOperator(activation: source.activation, keepNumDims: o.keepNumDims)
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let shape = try rows(node, input: 0)
        return PreparedNode(outputShapes: [shape.output]) { ctx in
            let weights = try packedWeights(ctx, shape)
            let (input, output, threads, clamp) = (ctx.input(0), ctx.output(0), ctx.threads, ClampRange(activation))
            return BoundKernel {
                fullyConnected(
                    input: input, output: output, rows: shape.rows, weights: weights, activation: clamp,
                    threads: threads)
            }
        }
    }

    /// The rows the input at `slot` makes against the weights (slot 1) and bias (slot 2), and the output's shape.
    func rows(_ node: NodeInputs, input slot: Int) throws(VisionTasksError) -> FullyConnectedRows {
        let s = try node.floatShape(slot), w = try node.floatShape(1)
        try require(w.count == 2 && !s.isEmpty, "weights \(w) must be 2-D")
        let depth = w[1], units = w[0]
        let count = s.reduce(1, *)
        try require(depth > 0 && count % depth == 0, "input \(s) does not divide into rows of \(depth)")
        // Kept dimensions hold the rows only when the last one is the depth (TFLite's rule).
        try require(
            !keepNumDims || s.last == depth, "input \(s) must end in the weights' depth \(depth) (keep_num_dims)")
        try node.requireBias(slot: 2, channels: units)
        let rows = count / depth
        return FullyConnectedRows(
            rows: rows, depth: depth, units: units,
            output: keepNumDims ? Array(s.dropLast()) + [units] : [rows, units])
    }

    /// The weights (slot 1) and bias (slot 2) packed, once per weight tensor: the gesture embedder's
    /// two branches share theirs, and one copy of those weights stays in L2.
    func packedWeights(_ ctx: KernelContext, _ shape: FullyConnectedRows) throws -> PackedFullyConnectedWeights {
        try ctx.shared([1, 2]) {
            let (values, bias) = try weightsAndBias(ctx, "FULLY_CONNECTED")
            return try PackedFullyConnectedWeights(
                inputCount: shape.depth, outputCount: shape.units, weights: values,
                bias: bias)
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        self.activation == .none ? FullyConnectedOperator(activation: activation, keepNumDims: keepNumDims) : nil
    }
}

/// One FULLY_CONNECTED input seen as rows of `depth` features, giving `units` features each.
struct FullyConnectedRows {
    var rows, depth, units: Int
    /// The output tensor's shape.
    var output: [Int]
}

/// FULLY_CONNECTED nodes that share their weights and not their data, merged by
/// `Graph.stackSharedFullyConnected`: inputs [x₁, weights, bias, x₂, …, xₙ], outputs [y₁, …, yₙ].
/// The rows of every xᵢ go through the weights in one call, which loads each weight once for all of
/// them; each row's result is the one its own node computes, bit for bit.
struct StackedFullyConnectedOperator: GraphOperation, Equatable {
    /// What each of the merged nodes computes.
    var layer: FullyConnectedOperator

    /// Made only by the graph rewrite, never read from a model.
    static let loaders: [BuiltinOperator: OperatorLoader] = [:]

    /// The node's data inputs' slots, in output order.
    static func dataSlots(_ count: Int) -> [Int] { [0] + Array(3..<(count + 2)) }

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        let members = node.node.outputs.count
        try require(members >= 2 && node.count == members + 2, "stacks \(node.count) inputs for \(members) outputs")
        var shapes: [FullyConnectedRows] = []
        for slot in Self.dataSlots(members) { shapes.append(try layer.rows(node, input: slot)) }
        let (depth, units) = (shapes[0].depth, shapes[0].units)
        let rows = shapes.reduce(0) { $0 + $1.rows }
        return PreparedNode(outputShapes: shapes.map(\.output)) { ctx in
            let weights = try layer.packedWeights(ctx, shapes[0])
            let inputs = Self.dataSlots(members).map { ctx.input($0) }
            let outputs = (0..<members).map { ctx.output($0) }
            let counts = shapes.map(\.rows)
            // The rows side by side, then their results: the kernel reads and writes consecutive rows.
            let staging = AlignedFloats(count: rows * (depth + units))
            let (threads, clamp) = (ctx.threads, ClampRange(layer.activation))
            return BoundKernel {
                var x = staging.pointer
                for i in 0..<members {
                    x.update(from: inputs[i], count: counts[i] * depth)
                    x += counts[i] * depth
                }
                var y = staging.pointer + rows * depth
                fullyConnected(
                    input: staging.pointer, output: y, rows: rows, weights: weights, activation: clamp,
                    threads: threads)
                for i in 0..<members {
                    outputs[i].update(from: y, count: counts[i] * units)
                    y += counts[i] * units
                }
            }
        }
    }
}

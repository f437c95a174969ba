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
                throw VisionTasksError.unsupportedModel("\(source.place) is not supported: shuffled weights format \(o.weightsFormat)")
            }
            return FullyConnectedOperator(activation: source.activation, keepNumDims: o.keepNumDims)
        },
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let s = try node.floatShape(0), w = try node.floatShape(1)
        try require(w.count == 2 && !s.isEmpty, "weights \(w) must be 2-D")
        let depth = w[1], units = w[0]
        let count = s.reduce(1, *)
        try require(depth > 0 && count % depth == 0, "input \(s) does not divide into rows of \(depth)")
        try node.requireBias(slot: 2, channels: units)
        let rows = count / depth
        let out = keepNumDims ? Array(s.dropLast()) + [units] : [rows, units]
        return PreparedNode(outputShapes: [out]) { ctx in
            let (values, bias) = try weightsAndBias(ctx, "FULLY_CONNECTED")
            let weights = try PackedFullyConnectedWeights(inputCount: depth, outputCount: units, weights: values, bias: bias)
            let (input, output, threads, clamp) = (ctx.input(0), ctx.output(0), ctx.threads, ClampRange(activation))
            return BoundKernel {
                fullyConnected(input: input, output: output, rows: rows, weights: weights, activation: clamp, threads: threads)
            }
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        self.activation == .none ? FullyConnectedOperator(activation: activation, keepNumDims: keepNumDims) : nil
    }
}

// SOFTMAX over the last dimension, with TFLite's beta (Kernels/Softmax.swift).

import TFLite
import VisionErrors

/// SOFTMAX: exp(beta · x) normalised over the last dimension.
struct SoftmaxOperator: GraphOperation, Equatable {
    var beta: Float

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .softmax: { source in
            guard case .softmax(let beta) = source.options else { throw source.mismatch() }
            return SoftmaxOperator(beta: beta)
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let s = try node.floatShape(0)
        try require(!s.isEmpty, "softmax of a scalar")
        let depth = s[s.count - 1], rows = depth == 0 ? 0 : s.reduce(1, *) / depth
        return PreparedNode(outputShapes: [s]) { ctx in
            SoftmaxKernel(input: ctx.input(0), out: ctx.output(0), rows: rows, depth: depth, beta: beta)
        }
    }
}

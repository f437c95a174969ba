// NEG, SQRT, RSQRT, RELU, LOGISTIC and HARD_SWISH: one input, elementwise (Kernels/Elementwise.swift's vector
// loops). A RELU folds into the operator producing its input when that one has a free activation
// (as TFLite converters do), removing a pass over the tensor.

import TFLite
import VisionErrors

/// An elementwise operator of one input.
struct UnaryOperator: GraphOperation, Equatable {
    /// Which function of the input.
    enum Kind: Equatable, Sendable { case neg, sqrt, rsqrt, relu, logistic, hardSwish }

    var kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .neg: { _ in UnaryOperator(.neg) },
        .sqrt: { _ in UnaryOperator(.sqrt) },
        .rsqrt: { _ in UnaryOperator(.rsqrt) },
        .relu: { _ in UnaryOperator(.relu) },
        .logistic: { _ in UnaryOperator(.logistic) },
        .hardSwish: { _ in UnaryOperator(.hardSwish) },
    ]

    /// A RELU folded into the operator producing its input, when that one has a free activation.
    static let rewrites: [GraphRewrite] = [
        .pair { _, producer, relu in
            guard (relu.operation as? UnaryOperator)?.kind == .relu, let fused = producer.operation.fusing(.relu) else {
                return nil
            }
            var node = producer
            node.operation = fused
            return node
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let s = try node.floatShape(0)
        let count = s.reduce(1, *)
        return PreparedNode(outputShapes: [s], inPlaceInput: 0) { ctx in
            makeUnaryKernel(kind, input: ctx.input(0), out: ctx.output(0), count: count, threads: ctx.threads)
        }
    }
}

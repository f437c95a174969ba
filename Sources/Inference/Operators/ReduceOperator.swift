// MEAN, SUM, REDUCE_MAX and REDUCE_MIN over constant axes (Kernels/Reduce.swift).

import TFLite
import VisionErrors

/// A reduction over the axes in input 1.
struct ReduceOperator: GraphOperation, Equatable {
    /// Which reduction.
    enum Kind: Equatable, Sendable { case mean, sum, max, min }

    var kind: Kind
    var keepDims: Bool

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .mean: { ReduceOperator(kind: .mean, keepDims: keepsDims($0)) },
        .sum: { ReduceOperator(kind: .sum, keepDims: keepsDims($0)) },
        .reduceMax: { ReduceOperator(kind: .max, keepDims: keepsDims($0)) },
        .reduceMin: { ReduceOperator(kind: .min, keepDims: keepsDims($0)) },
    ]

    /// The options' keep_dims (false when the model has no options table).
    private static func keepsDims(_ source: OperatorSource) -> Bool {
        if case .reducer(let keepDims) = source.options { return keepDims }
        return false
    }

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let plan = try ReducePlan(input: try node.floatShape(0), axes: try node.ints(1), keepDims: keepDims)
        return PreparedNode(outputShapes: [plan.outputShape]) { ctx in
            ReduceKernel(plan: plan, op: kind, input: ctx.input(0), out: ctx.output(0))
        }
    }
}

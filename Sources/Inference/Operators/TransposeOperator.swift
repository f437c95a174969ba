// TRANSPOSE by a constant permutation, as one strided block copy.

import TFLite
import VisionErrors

/// TRANSPOSE: input 1 is the constant permutation.
struct TransposeOperator: GraphOperation, Equatable {
    static let loaders: [BuiltinOperator: OperatorLoader] = [.transpose: { _ in TransposeOperator() }]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let (out, copy) = try LayoutPlanner.transpose(try node.floatShape(0), perm: try node.ints(1))
        return PreparedNode(outputShapes: [out]) { ctx in
            CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: [copy])
        }
    }
}

// PAD with zeros by constant paddings: the output is zeroed, then the input copied into place.

import TFLite
import VisionErrors

/// PAD: input 1 is the constant [rank, 2] paddings.
struct PadOperator: GraphOperation, Equatable {
    static let loaders: [BuiltinOperator: OperatorLoader] = [.pad: { _ in PadOperator() }]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let (out, copy) = try LayoutPlanner.pad(try node.floatShape(0), paddings: try node.ints(1))
        let count = out.reduce(1, *)
        return PreparedNode(outputShapes: [out]) { ctx in
            CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: [copy], zeroFillCount: count)
        }
    }
}

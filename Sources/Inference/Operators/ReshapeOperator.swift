// RESHAPE: the same values under another shape; the planner lets the output share the input's buffer,
// so the copy kernel runs only when it cannot.

import TFLite
import VisionErrors

/// RESHAPE, the target taken from input 1, else the options, else the output's declared shape.
struct ReshapeOperator: GraphOperation, Equatable {
    /// The target shape from the options, used when no shape tensor is given.
    var newShape: [Int]?

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .reshape: { source in
            if case .reshape(let shape) = source.options { return ReshapeOperator(newShape: shape) }
            return ReshapeOperator(newShape: nil)
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let s = try node.floatShape(0)
        let target: [Int]
        if node.has(1) {
            target = try node.ints(1)
        } else if let newShape {
            target = newShape
        } else {
            // No target given: TFLite takes the output tensor's declared shape.
            target = node.declaredOutputShape(0)
        }
        let out = try LayoutPlanner.reshape(s, newShape: target)
        let copy = try stridedCopy(extents: [s.reduce(1, *)], sourceStrides: [1], destinationStrides: [1])
        return PreparedNode(outputShapes: [out], isReshape: true) { ctx in
            CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: [copy])
        }
    }
}

// GATHER by constant indices along one axis: one block copy per index.

import TFLite
import VisionErrors

/// GATHER: input 1 is the constant indices.
struct GatherOperator: GraphOperation, Equatable {
    var axis: Int
    var batchDims: Int

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .gather: { source in
            guard case .gather(let axis, let batchDims) = source.options else {
                return GatherOperator(axis: 0, batchDims: 0)
            }
            return GatherOperator(axis: axis, batchDims: batchDims)
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let indicesShape = try node.tensor(1).shape
        let (out, copies) = try LayoutPlanner.gather(
            try node.floatShape(0), indices: try node.ints(1),
            indicesShape: indicesShape, axis: axis, batchDims: batchDims)
        return PreparedNode(outputShapes: [out]) { ctx in
            CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: copies)
        }
    }
}

// UNPACK: `num` outputs, one per slice of the input along `axis`.

import TFLite
import VisionErrors

/// UNPACK along `axis` into `num` outputs.
struct UnpackOperator: GraphOperation, Equatable {
    var num: Int
    var axis: Int

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .unpack: { source in
            guard case .unpack(let num, let axis) = source.options else { throw source.mismatch() }
            return UnpackOperator(num: num, axis: axis)
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(num)
        let (out, copies) = try LayoutPlanner.unpack(try node.floatShape(0), num: num, axis: axis)
        return PreparedNode(outputShapes: Array(repeating: out, count: num)) { ctx in
            let source = ctx.input(0)
            return MultiCopyKernel(parts: copies.enumerated().map { (source, ctx.output($0.offset), $0.element) })
        }
    }
}

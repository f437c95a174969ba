// CONCATENATION along one axis: one block copy per input, then the fused clamp.

import TFLite
import VisionErrors

/// CONCATENATION of every input along `axis`.
struct ConcatenationOperator: GraphOperation, Equatable {
    var axis: Int
    var activation: Activation

    init(axis: Int, _ activation: Activation) {
        self.axis = axis
        self.activation = activation
    }

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .concatenation: { source in
            guard case .concatenation(let axis, _) = source.options else { throw source.mismatch() }
            return ConcatenationOperator(axis: axis, source.activation)
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        var shapes: [[Int]] = []
        for slot in 0..<node.count { shapes.append(try node.floatShape(slot)) }
        let (out, copies) = try LayoutPlanner.concatenation(shapes, axis: axis)
        let count = out.reduce(1, *)
        return PreparedNode(outputShapes: [out]) { ctx in
            let target = ctx.output(0)
            return MultiCopyKernel(
                parts: copies.enumerated().map { (ctx.input($0.offset), target, $0.element) },
                activation: activation, clampTarget: (target, count))
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        self.activation == .none ? ConcatenationOperator(axis: axis, activation) : nil
    }
}

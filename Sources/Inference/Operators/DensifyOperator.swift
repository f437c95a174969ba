// DENSIFY of a sparse constant (MediaPipe's full-range face detector stores its fp16 weights so). The
// loader already expands every sparse constant (TFLite's Sparsity.densePositions, every index checked),
// so the planner folds this node into an fp32 constant and nothing sparse runs at invoke time.

import TFLite
import VisionErrors

/// DENSIFY of constant input 0 (float32 or float16; already dense once loaded).
struct DensifyOperator: GraphOperation, Equatable {
    static let loaders: [BuiltinOperator: OperatorLoader] = [.densify: { _ in DensifyOperator() }]

    var readsConstantsOnly: Bool { true }

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let t = try node.tensor(0)
        let values: [Float]
        switch t.constant {
        case .float32(let v)?: values = v
        case .float16(let h)?: values = h.map(floatFromHalf)
        case nil:
            throw VisionTasksError.unsupportedModel(
                "densifying a tensor computed at run time (\(t.name)) is not supported")
        default:
            throw VisionTasksError.unsupportedModel(
                "densifying \(t.type) (\(t.name)) is not supported, only float32 and float16")
        }
        return PreparedNode(outputShapes: [t.shape]) { ctx in
            ConstantKernel(values: values, out: ctx.output(0))
        }
    }
}

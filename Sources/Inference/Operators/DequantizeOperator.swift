// DEQUANTIZE of a constant tensor (fp16, or int8/uint8 with per-tensor or per-channel scales): the
// planner folds it into an fp32 constant; the kernel below only runs when its output is a graph output.

import TFLite
import VisionErrors

/// DEQUANTIZE of constant input 0.
struct DequantizeOperator: GraphOperation, Equatable {
    static let loaders: [BuiltinOperator: OperatorLoader] = [.dequantize: { _ in DequantizeOperator() }]

    var readsConstantsOnly: Bool { true }

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let t = try node.tensor(0)
        try require(t.constant != nil, "dequantizing a tensor computed at run time (\(t.name)) is not supported")
        let values: [Float]
        switch t.constant {
        case .float16(let h)?: values = h.map(floatFromHalf)
        case .int8(let q)?:
            guard let quantization = t.quantization else {
                throw VisionTasksError.invalidModel("\(t.name) has no quantization")
            }
            values = try dequantize(q, shape: t.shape, quantization: quantization)
        case .uint8(let q)?:
            guard let quantization = t.quantization else {
                throw VisionTasksError.invalidModel("\(t.name) has no quantization")
            }
            values = try dequantize(q, shape: t.shape, quantization: quantization)
        case .float32(let f)?: values = f
        default: throw VisionTasksError.unsupportedModel("cannot dequantize \(t.type)")
        }
        return PreparedNode(outputShapes: [t.shape]) { ctx in
            ConstantKernel(values: values, out: ctx.output(0))
        }
    }
}

/// Writes constant values into its output (a DEQUANTIZE that could not be folded because its
/// output is a graph output; folding normally removes it).
final class ConstantKernel: Kernel {
    let values: [Float]
    let out: UnsafeMutablePointer<Float>

    init(values: [Float], out: UnsafeMutablePointer<Float>) {
        self.values = values
        self.out = out
    }

    func run() {
        values.withUnsafeBufferPointer { b in
            if let base = b.baseAddress { out.update(from: base, count: b.count) }
        }
    }
}

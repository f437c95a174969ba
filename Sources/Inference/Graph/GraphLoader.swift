// TFLite model → Graph: decodes subgraph 0's tensors (constant bytes by element type) and maps
// each operator and its options to a `GraphOperation` through OperatorTable, refusing anything the
// engine cannot run.

import Foundation
import TFLite
import VisionErrors

enum GraphLoader {
    /// The most tensors, and the most operators, a subgraph may have: MediaPipe's vision models have at most
    /// 727 and 471. The memory plan takes time quadratic in the tensors alive together (0.7 s for 16,384
    /// graph outputs), so a hostile file of a hundred thousand must be refused, not planned for minutes.
    static let maxTensors = 16_384

    /// The most floats (1 GiB) one plan computes into: any one tensor's shape, the arena of run-time tensors,
    /// and the constants folded at load, each. MediaPipe's vision models need at most a few million; a hostile
    /// file's shapes (a RESHAPE target, a PAD's paddings, a declared input of 2^38 values) are refused, not
    /// multiplied past `Int.max` or allocated.
    static let maxComputedFloats = 1 << 28

    /// Builds the graph of `model`'s subgraph 0. Throws `unsupportedModel` naming the first operator,
    /// option or tensor type the engine lacks, or a subgraph of more than `maxTensors` tensors or operators;
    /// `invalidModel` for indices out of range.
    static func load(_ model: TFLiteModel) throws -> Graph {
        guard let subgraph = model.subgraphs.first else {
            throw VisionTasksError.invalidModel("the model has no subgraph")
        }
        for (count, what) in [(subgraph.tensors.count, "tensors"), (subgraph.operators.count, "operators")]
        where count > maxTensors {
            throw VisionTasksError.unsupportedModel(
                "subgraph 0 has \(count) \(what); the engine runs at most \(maxTensors)")
        }
        var tensors: [GraphTensor] = []
        var used = Set<Int>()
        for op in subgraph.operators {
            used.formUnion(op.inputs.filter { $0 >= 0 })
            used.formUnion(op.outputs)
        }
        used.formUnion(subgraph.inputs)
        used.formUnion(subgraph.outputs)
        for (i, t) in subgraph.tensors.enumerated() {
            tensors.append(try tensor(t, index: i, model: model, needed: used.contains(i)))
        }
        let count = tensors.count
        func check(_ list: [Int], _ what: String, allowAbsent: Bool) throws {
            for t in list where !(t >= 0 && t < count || allowAbsent && t == -1) {
                throw VisionTasksError.invalidModel("\(what) refers to tensor \(t), subgraph 0 has \(count)")
            }
        }
        try check(subgraph.inputs, "subgraph 0 input list", allowAbsent: false)
        try check(subgraph.outputs, "subgraph 0 output list", allowAbsent: false)
        // The first operator the engine lacks is refused; the others it lacks are named with it.
        let missing = subgraph.operators.enumerated().compactMap { index, op in
            OperatorTable.missing(op).map { "\($0) (index \(index))" }
        }
        let others =
            missing.count < 2
            ? ""
            : "; the engine lacks \(missing.count - 1) more: " + missing.dropFirst().prefix(8).joined(separator: ", ")
                + (missing.count > 9 ? ", ..." : "")
        var nodes: [GraphNode] = []
        for (index, op) in subgraph.operators.enumerated() {
            let place = "operator \(op.opcode.name) (index \(index)) in subgraph 0"
            try check(op.inputs, "\(place) input list", allowAbsent: true)
            try check(op.outputs, "\(place) output list", allowAbsent: false)
            let found: (any GraphOperation)?
            do {
                found = try operation(op, place: place)
            } catch VisionTasksError.unsupportedModel(let reason) where OperatorTable.missing(op) != nil {
                throw VisionTasksError.unsupportedModel(reason + others)
            }
            guard let operation = found else {
                throw VisionTasksError.unsupportedModel("\(place) is not supported" + others)
            }
            nodes.append(
                GraphNode(
                    operation: operation, opName: op.opcode.name, index: index, inputs: op.inputs,
                    outputs: op.outputs))
        }
        return Graph(tensors: tensors, nodes: nodes, inputs: subgraph.inputs, outputs: subgraph.outputs)
    }

    /// Decodes one tensor; constant bytes are read only for tensors operators use.
    private static func tensor(_ t: TFLiteModel.Tensor, index: Int, model: TFLiteModel, needed: Bool) throws
        -> GraphTensor
    {
        let type: ElementType
        switch t.type {
        case .float32: type = .float32
        case .float16: type = .float16
        case .int32: type = .int32
        case .int8: type = .int8
        case .uint8: type = .uint8
        default:
            if needed {
                throw VisionTasksError.unsupportedModel(
                    "tensor \(t.name) (index \(index)) in subgraph 0 has type \(t.type), which is not supported")
            }
            type = .int32
        }
        guard t.shape.allSatisfy({ $0 >= 0 }) else {
            throw VisionTasksError.unsupportedModel(
                "tensor \(t.name) (index \(index)) in subgraph 0 has a dynamic shape \(t.shape)")
        }
        var quantization: Quantization?
        if let q = t.quantization, !q.scale.isEmpty {
            quantization = Quantization(scales: q.scale, zeroPoints: q.zeroPoint, axis: q.quantizedDimension)
        }
        var constant: ConstantData?
        if needed, let bytes = model.constantData(of: t) {
            let size: Int
            switch type {
            case .float32, .int32: size = 4
            case .float16: size = 2
            case .int8, .uint8: size = 1
            }
            // A sparse tensor stores only the values at `positions`; it is expanded to a dense constant here.
            let positions = try t.sparsity?.densePositions(
                shape: t.shape, tensor: t.name, storedValues: bytes.count / size)
            let count = positions?.count ?? t.elementCount
            guard bytes.count == count * size else {
                throw VisionTasksError.invalidModel(
                    "tensor \(t.name) (index \(index)) in subgraph 0 has \(bytes.count) bytes of data, its shape \(t.shape) of \(type) needs \(count * size)\(positions == nil ? "" : " (its stored values)")"
                )
            }
            constant = decode(bytes, type: type, count: count)
            if let at = constant?.firstNaN {
                // A weight that is not a number makes every value it touches NaN, which the kernels' clamps and
                // maxima would turn into plausible numbers: the model is refused instead.
                throw VisionTasksError.invalidModel(
                    "tensor \(t.name) (index \(index)) in subgraph 0 holds NaN at stored value \(at): its weights are corrupt"
                )
            }
            if let positions, let stored = constant {
                constant = stored.scattered(to: positions, count: t.elementCount)
            }
        }
        return GraphTensor(name: t.name, shape: t.shape, type: type, constant: constant, quantization: quantization)
    }

    /// Little-endian bytes → values (unaligned reads).
    private static func decode(_ bytes: Data, type: ElementType, count: Int) -> ConstantData {
        bytes.withUnsafeBytes { raw in
            switch type {
            case .float32:
                return .float32(
                    (0..<count).map {
                        Float(
                            bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))
                        )
                    })
            case .int32:
                return .int32(
                    (0..<count).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) })
            case .float16:
                return .float16(
                    (0..<count).map { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self)) }
                )
            case .int8:
                return .int8((0..<count).map { Int8(bitPattern: raw[$0]) })
            case .uint8:
                return .uint8((0..<count).map { raw[$0] })
            }
        }
    }

    private static func activation(_ a: ActivationFunction, place: String) throws -> Activation {
        switch a {
        case .none: return .none
        case .relu: return .relu
        case .reluN1To1: return .reluN1To1
        case .relu6: return .relu6
        case .tanh, .signBit:
            throw VisionTasksError.unsupportedModel("\(place) is not supported: fused activation \(a)")
        }
    }

    /// The operation of `op` from the operator table; nil when the engine does not implement it.
    private static func operation(_ op: TFLiteModel.Operator, place: String) throws -> (any GraphOperation)? {
        let source = OperatorSource(
            op: op, place: place, activation: try activation(op.options.fusedActivation, place: place))
        return try OperatorTable.loaders[op.opcode].map { try $0(source) }
    }
}

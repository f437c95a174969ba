// The engine's intermediate representation: a model's subgraph as plain Swift values,
// independent of the FlatBuffer it was read from. Loading, folding and planning work on it.

/// Element type of a graph tensor. Only `float32` flows at run time; the others are constants.
enum ElementType: Equatable, Sendable, CustomStringConvertible {
    case float32, float16, int32, int8, uint8

    var description: String {
        switch self {
        case .float32: return "float32"
        case .float16: return "float16"
        case .int32: return "int32"
        case .int8: return "int8"
        case .uint8: return "uint8"
        }
    }
}

/// Affine quantisation of an int8/uint8 tensor: real = scale × (q − zeroPoint), per tensor or per channel.
struct Quantization: Equatable, Sendable {
    var scales: [Float]
    var zeroPoints: [Int]
    /// The dimension `scales` runs along when there is more than one scale.
    var axis: Int
}

/// The bytes of a constant tensor, decoded by element type.
enum ConstantData: Equatable, Sendable {
    case float32([Float])
    case float16([UInt16])
    case int32([Int32])
    case int8([Int8])
    case uint8([UInt8])

    var count: Int {
        switch self {
        case .float32(let v): return v.count
        case .float16(let v): return v.count
        case .int32(let v): return v.count
        case .int8(let v): return v.count
        case .uint8(let v): return v.count
        }
    }

    /// The index of the first NaN among float values (nil for integers or when none is).
    var firstNaN: Int? {
        switch self {
        case .float32(let v): return v.firstIndex { $0.isNaN }
        case .float16(let v): return v.firstIndex { $0 & 0x7C00 == 0x7C00 && $0 & 0x03FF != 0 }
        case .int32, .int8, .uint8: return nil
        }
    }

    /// These values placed at `positions` (one each, all below `count`) of `count` zeros: a sparse
    /// tensor's stored values made dense.
    func scattered(to positions: [Int], count: Int) -> ConstantData {
        func scatter<T: Numeric>(_ values: [T]) -> [T] {
            var dense = [T](repeating: .zero, count: count)
            for (value, position) in zip(values, positions) { dense[position] = value }
            return dense
        }
        switch self {
        case .float32(let v): return .float32(scatter(v))
        case .float16(let v): return .float16(scatter(v))
        case .int32(let v): return .int32(scatter(v))
        case .int8(let v): return .int8(scatter(v))
        case .uint8(let v): return .uint8(scatter(v))
        }
    }
}

/// One tensor of the graph: a name, a static shape, a type, and its data when constant.
struct GraphTensor: Sendable {
    var name: String
    var shape: [Int]
    var type: ElementType
    var constant: ConstantData?
    var quantization: Quantization?

    var elementCount: Int { shape.reduce(1, *) }
}

/// An activation fused into an operator's output.
enum Activation: Equatable, Sendable {
    case none, relu, reluN1To1, relu6

    /// The output clamp this activation applies.
    var bounds: (min: Float, max: Float) {
        switch self {
        case .none: return (-.infinity, .infinity)
        case .relu: return (0, .infinity)
        case .reluN1To1: return (-1, 1)
        case .relu6: return (0, 6)
        }
    }
}

/// One operator application: which tensors it reads (-1 for an absent optional input) and writes.
struct GraphNode: Sendable {
    var operation: any GraphOperation
    /// The TFLite operator name (for messages).
    var opName: String
    /// The operator's index in the model's subgraph (for messages).
    var index: Int
    var inputs: [Int]
    var outputs: [Int]

    /// The tensor read at input `slot`, -1 when the slot is absent or empty.
    func input(_ slot: Int) -> Int { slot < inputs.count ? inputs[slot] : -1 }
}

extension Array where Element == GraphNode {
    /// Tensor → the position of the node that writes it.
    func producerPositions() -> [Int: Int] {
        var producer = [Int: Int]()
        for (i, node) in enumerated() { for t in node.outputs { producer[t] = i } }
        return producer
    }
}

/// A whole subgraph: tensors, nodes in execution order, and the graph's inputs and outputs.
struct Graph: Sendable {
    var tensors: [GraphTensor]
    var nodes: [GraphNode]
    var inputs: [Int]
    var outputs: [Int]
}

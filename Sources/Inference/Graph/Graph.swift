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

/// Options of CONV_2D and DEPTHWISE_CONV_2D.
struct ConvolutionOptions: Equatable, Sendable {
    var padding: WindowPadding
    var strideH: Int, strideW: Int
    var dilationH: Int = 1, dilationW: Int = 1
    var activation: Activation
    /// Output channels per input channel (depthwise only).
    var depthMultiplier: Int = 1
    /// CONV_2D only, set by fusion: input 3 is a same-shape tensor added before the activation.
    var hasResidual = false
    /// CONV_2D only, set by fusion: input 4 is a per-channel PRELU alpha applied after the activation.
    var hasPReLU = false
}

/// Options of MAX_POOL_2D.
struct PoolOptions: Equatable, Sendable {
    var padding: WindowPadding
    var strideH: Int, strideW: Int
    var filterH: Int, filterW: Int
    var activation: Activation
}

/// Masks of STRIDED_SLICE, as TFLite defines them (bit i refers to slice dimension i).
struct SliceMasks: Equatable, Sendable {
    var beginMask = 0, endMask = 0, ellipsisMask = 0, newAxisMask = 0, shrinkAxisMask = 0
    /// When true, `end` is an offset from `begin` rather than an index.
    var offset = false
}

/// Elementwise operators of two inputs (numpy broadcasting).
enum BinaryOperator: Equatable, Sendable { case add, sub, mul, div, squaredDifference, maximum, prelu }

/// Elementwise operators of one input.
enum UnaryOperator: Equatable, Sendable { case neg, sqrt, rsqrt, relu, logistic }

/// Reductions over a set of axes.
enum ReduceOperator: Equatable, Sendable { case mean, sum, max, min }

/// What a node computes, with its options already decoded.
enum GraphOperation: Equatable, Sendable {
    case binary(BinaryOperator, Activation)
    case unary(UnaryOperator)
    case conv2d(ConvolutionOptions)
    case depthwiseConv2d(ConvolutionOptions)
    case fullyConnected(Activation, keepNumDims: Bool)
    case maxPool2d(PoolOptions)
    case softmax(beta: Float)
    case pad
    /// `newShape` from the options, used when the shape is not given as an input tensor.
    case reshape(newShape: [Int]?)
    case concatenation(axis: Int, Activation)
    case resizeBilinear(alignCorners: Bool, halfPixelCenters: Bool)
    case transpose
    case stridedSlice(SliceMasks)
    case gather(axis: Int, batchDims: Int)
    case unpack(num: Int, axis: Int)
    case reduce(ReduceOperator, keepDims: Bool)
    case dequantize
}

/// One operator application: which tensors it reads (-1 for an absent optional input) and writes.
struct GraphNode: Sendable {
    var operation: GraphOperation
    /// The TFLite operator name (for messages).
    var opName: String
    /// The operator's index in the model's subgraph (for messages).
    var index: Int
    var inputs: [Int]
    var outputs: [Int]
}

/// A whole subgraph: tensors, nodes in execution order, and the graph's inputs and outputs.
struct Graph: Sendable {
    var tensors: [GraphTensor]
    var nodes: [GraphNode]
    var inputs: [Int]
    var outputs: [Int]
}

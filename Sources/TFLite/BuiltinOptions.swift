// MARK: - Schema enums

/// Padding of a convolution or pooling window (schema enum `Padding`).
public enum Padding: Int8, Sendable, Codable {
    /// Output size is ceil(input / stride); the window is padded evenly, extra on the bottom/right.
    case same = 0
    /// No padding: output size is ceil((input - window + 1) / stride).
    case valid = 1
}

/// An activation fused into an operator (schema enum `ActivationFunctionType`).
public enum ActivationFunction: Int8, Sendable, Codable {
    /// No activation.
    case none = 0
    /// max(0, x).
    case relu = 1
    /// clamp(x, -1, 1).
    case reluN1To1 = 2
    /// clamp(x, 0, 6).
    case relu6 = 3
    /// tanh(x).
    case tanh = 4
    /// Sign bit (unused by current converters).
    case signBit = 5
}

// MARK: - Operator options

/// Options of CONV_2D.
public struct Conv2DOptions: Hashable, Sendable, Codable {
    /// SAME or VALID padding.
    public var padding: Padding
    /// Horizontal stride.
    public var strideWidth: Int
    /// Vertical stride.
    public var strideHeight: Int
    /// Horizontal dilation factor (1 = none).
    public var dilationWidth: Int
    /// Vertical dilation factor (1 = none).
    public var dilationHeight: Int
    /// Fused activation.
    public var activation: ActivationFunction
}

/// Options of DEPTHWISE_CONV_2D.
public struct DepthwiseConv2DOptions: Hashable, Sendable, Codable {
    /// SAME or VALID padding.
    public var padding: Padding
    /// Horizontal stride.
    public var strideWidth: Int
    /// Vertical stride.
    public var strideHeight: Int
    /// Output channels per input channel.
    public var depthMultiplier: Int
    /// Horizontal dilation factor (1 = none).
    public var dilationWidth: Int
    /// Vertical dilation factor (1 = none).
    public var dilationHeight: Int
    /// Fused activation.
    public var activation: ActivationFunction
}

/// Options of FULLY_CONNECTED.
public struct FullyConnectedOptions: Hashable, Sendable, Codable {
    /// Fused activation.
    public var activation: ActivationFunction
    /// Weights layout: 0 = DEFAULT, 1 = SHUFFLED4x16INT8.
    public var weightsFormat: Int
    /// Keep the input's leading dimensions instead of flattening to 2-D.
    public var keepNumDims: Bool
    /// Quantize float inputs on the fly (hybrid models).
    public var asymmetricQuantizeInputs: Bool
}

/// Options of MAX_POOL_2D, AVERAGE_POOL_2D and L2_POOL_2D.
public struct Pool2DOptions: Hashable, Sendable, Codable {
    /// SAME or VALID padding.
    public var padding: Padding
    /// Horizontal stride.
    public var strideWidth: Int
    /// Vertical stride.
    public var strideHeight: Int
    /// Window width.
    public var filterWidth: Int
    /// Window height.
    public var filterHeight: Int
    /// Fused activation.
    public var activation: ActivationFunction
}

/// Options of STRIDED_SLICE.
public struct StridedSliceOptions: Hashable, Sendable, Codable {
    /// Bit i set: ignore begin[i] and start at the first element.
    public var beginMask: Int
    /// Bit i set: ignore end[i] and run to the last element.
    public var endMask: Int
    /// Bit i set: dimension i is an ellipsis.
    public var ellipsisMask: Int
    /// Bit i set: insert a new axis of size 1 at i.
    public var newAxisMask: Int
    /// Bit i set: dimension i is indexed, not sliced, and removed.
    public var shrinkAxisMask: Int
    /// `end` is an offset from `begin` rather than an absolute index.
    public var offset: Bool
}

// MARK: - Builtin options union

/// The builtin options of an operator, decoded for the operators VisionTasks' models use.
public enum BuiltinOptions: Hashable, Sendable, Codable {
    /// The operator has no options table.
    case none
    /// CONV_2D.
    case conv2D(Conv2DOptions)
    /// DEPTHWISE_CONV_2D.
    case depthwiseConv2D(DepthwiseConv2DOptions)
    /// FULLY_CONNECTED.
    case fullyConnected(FullyConnectedOptions)
    /// MAX_POOL_2D, AVERAGE_POOL_2D, L2_POOL_2D.
    case pool2D(Pool2DOptions)
    /// ADD (fused activation).
    case add(activation: ActivationFunction)
    /// SUB (fused activation).
    case sub(activation: ActivationFunction)
    /// MUL (fused activation).
    case mul(activation: ActivationFunction)
    /// DIV (fused activation).
    case div(activation: ActivationFunction)
    /// CONCATENATION: the axis to join along (negative counts from the end) and a fused activation.
    case concatenation(axis: Int, activation: ActivationFunction)
    /// RESHAPE: the target shape, when given as an option rather than a tensor.
    case reshape(newShape: [Int])
    /// SOFTMAX: the exponent scale.
    case softmax(beta: Float)
    /// RESIZE_BILINEAR: align the corner pixels of input and output, or sample at pixel centres
    /// (x + 0.5) rather than corners.
    case resizeBilinear(alignCorners: Bool, halfPixelCenters: Bool)
    /// STRIDED_SLICE.
    case stridedSlice(StridedSliceOptions)
    /// GATHER: the axis of the params tensor to gather along, and the number of leading batch dimensions.
    case gather(axis: Int, batchDims: Int)
    /// UNPACK: the number of outputs and the axis to unpack along.
    case unpack(num: Int, axis: Int)
    /// DEPTH_TO_SPACE: the side of the square each input pixel's channels become.
    case depthToSpace(blockSize: Int)
    /// MEAN, SUM, REDUCE_MAX, REDUCE_MIN and the other reducers: keep reduced dimensions with size 1.
    case reducer(keepDims: Bool)
    /// SQUEEZE: the dimensions to remove (all of size 1 when empty).
    case squeeze(squeezeDims: [Int])
    /// LEAKY_RELU: the negative slope.
    case leakyRelu(alpha: Float)
    /// PAD (no fields).
    case pad
    /// PADV2 (no fields).
    case padV2
    /// TRANSPOSE (no fields).
    case transpose
    /// SQUARED_DIFFERENCE (no fields).
    case squaredDifference
    /// MAXIMUM and MINIMUM (no fields).
    case maximumMinimum
    /// DEQUANTIZE (no fields).
    case dequantize
    /// NEG (no fields).
    case neg
    /// An options table this reader does not decode; `type` is the schema's `BuiltinOptions` union tag.
    case unknown(type: Int)

    /// The fused activation, for options that have one; `.none` otherwise.
    public var fusedActivation: ActivationFunction {
        switch self {
        case .conv2D(let o): return o.activation
        case .depthwiseConv2D(let o): return o.activation
        case .fullyConnected(let o): return o.activation
        case .pool2D(let o): return o.activation
        case .concatenation(_, let a): return a
        case .add(let a), .sub(let a), .mul(let a), .div(let a): return a
        default: return .none
        }
    }
}

// MARK: - Decoding

extension BuiltinOptions {
    /// Decodes the options table `table` whose union tag (`TFLiteSchema.BuiltinOptions`) is `type`.
    static func decode(
        type: UInt8, table: FBTable?, in buffer: FlatBuffer,
        operatorName: @autoclosure () -> String
    ) throws -> BuiltinOptions {
        guard type != TFLiteSchema.BuiltinOptions.none.rawValue else { return .none }
        guard let t = table else {
            throw buffer.fail("\(operatorName()): builtin options of type \(type) are missing their table")
        }
        func schemaEnum<Value: RawRepresentable<Int8>>(_ id: some FlatBufferField, _ what: String) throws -> Value {
            let raw = try t.scalar(id, Int8(0))
            guard let value = Value(rawValue: raw) else {
                throw t.buffer.fail("\(operatorName()): invalid \(what) value \(raw)")
            }
            return value
        }
        func padding(_ id: some FlatBufferField) throws -> Padding { try schemaEnum(id, "padding") }
        func activation(_ id: some FlatBufferField) throws -> ActivationFunction {
            try schemaEnum(id, "fused activation")
        }
        func int(_ id: some FlatBufferField, _ defaultValue: Int32 = 0) throws -> Int {
            Int(try t.scalar(id, defaultValue))
        }

        switch TFLiteSchema.BuiltinOptions(rawValue: type) {
        case .conv2DOptions:
            typealias F = TFLiteSchema.Conv2DOptions
            return .conv2D(
                Conv2DOptions(
                    padding: try padding(F.padding), strideWidth: try int(F.strideW), strideHeight: try int(F.strideH),
                    dilationWidth: try int(F.dilationWFactor, 1), dilationHeight: try int(F.dilationHFactor, 1),
                    activation: try activation(F.fusedActivationFunction)))
        case .depthwiseConv2DOptions:
            typealias F = TFLiteSchema.DepthwiseConv2DOptions
            return .depthwiseConv2D(
                DepthwiseConv2DOptions(
                    padding: try padding(F.padding), strideWidth: try int(F.strideW), strideHeight: try int(F.strideH),
                    depthMultiplier: try int(F.depthMultiplier), dilationWidth: try int(F.dilationWFactor, 1),
                    dilationHeight: try int(F.dilationHFactor, 1), activation: try activation(F.fusedActivationFunction)
                ))
        case .pool2DOptions:
            typealias F = TFLiteSchema.Pool2DOptions
            return .pool2D(
                Pool2DOptions(
                    padding: try padding(F.padding), strideWidth: try int(F.strideW), strideHeight: try int(F.strideH),
                    filterWidth: try int(F.filterWidth), filterHeight: try int(F.filterHeight),
                    activation: try activation(F.fusedActivationFunction)))
        case .fullyConnectedOptions:
            typealias F = TFLiteSchema.FullyConnectedOptions
            return .fullyConnected(
                FullyConnectedOptions(
                    activation: try activation(F.fusedActivationFunction),
                    weightsFormat: Int(try t.scalar(F.weightsFormat, Int8(0))), keepNumDims: try t.bool(F.keepNumDims),
                    asymmetricQuantizeInputs: try t.bool(F.asymmetricQuantizeInputs)))
        case .softmaxOptions: return .softmax(beta: try t.float(TFLiteSchema.SoftmaxOptions.beta, 0))
        case .concatenationOptions:
            typealias F = TFLiteSchema.ConcatenationOptions
            return .concatenation(axis: try int(F.axis), activation: try activation(F.fusedActivationFunction))
        case .addOptions: return .add(activation: try activation(TFLiteSchema.AddOptions.fusedActivationFunction))
        case .resizeBilinearOptions:
            typealias F = TFLiteSchema.ResizeBilinearOptions
            return .resizeBilinear(
                alignCorners: try t.bool(F.alignCorners), halfPixelCenters: try t.bool(F.halfPixelCenters))
        case .reshapeOptions:
            return .reshape(
                newShape: try t.scalars(TFLiteSchema.ReshapeOptions.newShape, Int32.self, "new_shape").map(Int.init))
        case .mulOptions: return .mul(activation: try activation(TFLiteSchema.MulOptions.fusedActivationFunction))
        case .padOptions: return .pad
        case .gatherOptions:
            return .gather(
                axis: try int(TFLiteSchema.GatherOptions.axis), batchDims: try int(TFLiteSchema.GatherOptions.batchDims)
            )
        case .transposeOptions: return .transpose
        case .reducerOptions: return .reducer(keepDims: try t.bool(TFLiteSchema.ReducerOptions.keepDims))
        case .subOptions: return .sub(activation: try activation(TFLiteSchema.SubOptions.fusedActivationFunction))
        case .divOptions: return .div(activation: try activation(TFLiteSchema.DivOptions.fusedActivationFunction))
        case .squeezeOptions:
            let dims = try t.scalars(TFLiteSchema.SqueezeOptions.squeezeDims, Int32.self, "squeeze_dims")
            return .squeeze(squeezeDims: dims.map(Int.init))
        case .stridedSliceOptions:
            typealias F = TFLiteSchema.StridedSliceOptions
            return .stridedSlice(
                StridedSliceOptions(
                    beginMask: try int(F.beginMask), endMask: try int(F.endMask), ellipsisMask: try int(F.ellipsisMask),
                    newAxisMask: try int(F.newAxisMask), shrinkAxisMask: try int(F.shrinkAxisMask),
                    offset: try t.bool(F.offset)))
        case .dequantizeOptions: return .dequantize
        case .maximumMinimumOptions: return .maximumMinimum
        case .negOptions: return .neg
        case .padV2Options: return .padV2
        case .unpackOptions:
            return .unpack(num: try int(TFLiteSchema.UnpackOptions.num), axis: try int(TFLiteSchema.UnpackOptions.axis))
        case .depthToSpaceOptions: return .depthToSpace(blockSize: try int(TFLiteSchema.DepthToSpaceOptions.blockSize))
        case .leakyReluOptions: return .leakyRelu(alpha: try t.float(TFLiteSchema.LeakyReluOptions.alpha, 0))
        case .squaredDifferenceOptions: return .squaredDifference
        case .some(.none), nil: return .unknown(type: Int(type))
        }
    }
}

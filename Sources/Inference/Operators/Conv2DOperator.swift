// CONV_2D on NHWC with constant [out, h, w, in] weights packed once for the C kernel
// (Kernels/Conv2DKernel.swift), plus what fusion folds into it (Conv2DFusion.swift): a RELU, a
// residual ADD (the `residual` slot: the output's shape, or fewer channels when a channel PAD was
// fused too) and a per-channel PRELU (the `preluAlpha` slot), all applied as each output tile is written.

import TFLite
import VisionErrors

/// Options of CONV_2D and DEPTHWISE_CONV_2D.
struct ConvolutionOptions: Equatable, Sendable {
    var padding: WindowPadding
    var strideH: Int, strideW: Int
    var dilationH: Int = 1, dilationW: Int = 1
    var activation: Activation
    /// Output channels per input channel (depthwise only).
    var depthMultiplier: Int = 1
    /// CONV_2D only, set by fusion: input `Conv2DOperator.Slot.residual` is a tensor added before the
    /// activation (the output's shape, or fewer channels: the missing ones add zero).
    var hasResidual = false
    /// CONV_2D only, set by fusion: input `Conv2DOperator.Slot.preluAlpha` is a per-channel PRELU alpha
    /// applied after the activation.
    var hasPReLU = false

    /// These options with `activation` fused in.
    func activated(_ activation: Activation) -> Self {
        var options = self
        options.activation = activation
        return options
    }
}

extension WindowPadding {
    /// The engine's padding for a model's SAME or VALID.
    init(_ padding: Padding) { self = padding == .same ? .same : .valid }
}

/// CONV_2D: the input, the constant filter, the optional bias, and the inputs fusion adds.
struct Conv2DOperator: GraphOperation, Equatable {
    /// The node's input slots.
    enum Slot: Int {
        /// The NHWC input.
        case input
        /// The constant [out, h, w, in] filter.
        case filter
        /// The optional bias, one value per output channel.
        case bias
        /// Added by fusion when `hasResidual`: the tensor added before the activation.
        case residual
        /// Added by fusion when `hasPReLU`: the constant per-channel PRELU alpha.
        case preluAlpha
    }

    var options: ConvolutionOptions

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .conv2D: { source in
            guard case .conv2D(let o) = source.options else { throw source.mismatch() }
            return Conv2DOperator(
                options: ConvolutionOptions(
                    padding: WindowPadding(o.padding), strideH: o.strideHeight,
                    strideW: o.strideWidth, dilationH: o.dilationHeight,
                    dilationW: o.dilationWidth, activation: source.activation))
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let s = try node.floatShape(Slot.input.rawValue), f = try node.floatShape(Slot.filter.rawValue)
        try require(s.count == 4 && f.count == 4, "input \(s) and filter \(f) must be 4-D")
        try require(f[3] == s[3], "filter \(f) does not match input channels \(s[3])")
        let geometry = try node.windowGeometry(
            input: s, kernelH: f[1], kernelW: f[2], outputChannels: f[0], options: options)
        try node.requireBias(slot: Slot.bias.rawValue, channels: f[0])
        var residualChannels: Int?
        if options.hasResidual {
            // The output's shape, or fewer channels (a fused channel PAD: the rest add zero).
            let r = try node.floatShape(Slot.residual.rawValue), out = geometry.outputShape
            try require(
                r.count == out.count && r.dropLast() == out.dropLast()
                    && (1...out[out.count - 1]).contains(r[r.count - 1]),
                "fused residual \(r) does not match the output \(out)")
            residualChannels = r[r.count - 1]
        }
        if options.hasPReLU {
            let alphaIsConstant = try node.tensor(Slot.preluAlpha.rawValue).constant != nil
            let alphaCount = try node.floatShape(Slot.preluAlpha.rawValue).reduce(1, *)
            try require(
                alphaIsConstant && alphaCount == f[0], "fused PRELU alpha must be a constant with one value per channel"
            )
        }
        return PreparedNode(outputShapes: [geometry.outputShape]) { ctx in
            let (filter, bias) = try weightsAndBias(ctx, "CONV_2D")
            let weights = try PackedConv2DWeights(geometry: geometry, filter: filter, bias: bias)
            let (input, output, threads, clamp) = (
                ctx.input(Slot.input.rawValue), ctx.output(0), ctx.threads,
                ClampRange(options.activation)
            )
            let residual = options.hasResidual ? ctx.input(Slot.residual.rawValue) : nil
            let alpha = options.hasPReLU ? ctx.input(Slot.preluAlpha.rawValue) : nil
            let scratchCount = weights.scratchCount(threads: threads)
            let scratch = scratchCount > 0 ? AlignedFloats(count: scratchCount) : nil
            return BoundKernel {
                conv2D(
                    input: input, output: output, weights: weights, activation: clamp, residual: residual,
                    residualChannels: residualChannels, preluAlpha: alpha, scratch: scratch?.pointer, threads: threads)
            }
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        options.activation == .none && !options.hasPReLU ? Conv2DOperator(options: options.activated(activation)) : nil
    }
}

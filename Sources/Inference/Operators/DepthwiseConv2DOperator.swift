// DEPTHWISE_CONV_2D on NHWC with constant [1, h, w, channels × multiplier] weights packed once for the
// C kernel (Kernels/DepthwiseConv2DKernel.swift).

import TFLite
import VisionErrors

/// DEPTHWISE_CONV_2D: input 1 the constant filter, input 2 the optional bias.
struct DepthwiseConv2DOperator: GraphOperation, Equatable {
    var options: ConvolutionOptions

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .depthwiseConv2D: { source in
            guard case .depthwiseConv2D(let o) = source.options else { throw source.mismatch() }
            return DepthwiseConv2DOperator(
                options: ConvolutionOptions(
                    padding: WindowPadding(o.padding), strideH: o.strideHeight, strideW: o.strideWidth,
                    dilationH: o.dilationHeight, dilationW: o.dilationWidth, activation: source.activation,
                    depthMultiplier: o.depthMultiplier))
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let s = try node.floatShape(0), f = try node.floatShape(1)
        try require(
            s.count == 4 && f.count == 4 && f[0] == 1, "input \(s) and filter \(f) must be 4-D, filter [1,h,w,c]")
        try require(
            options.depthMultiplier >= 1 && f[3] == s[3] * options.depthMultiplier,
            "filter \(f) does not match input channels \(s[3]) × multiplier \(options.depthMultiplier)")
        let geometry = try node.windowGeometry(
            input: s, kernelH: f[1], kernelW: f[2], outputChannels: f[3], options: options)
        try node.requireBias(slot: 2, channels: f[3])
        return PreparedNode(outputShapes: [geometry.outputShape]) { ctx in
            let (filter, bias) = try weightsAndBias(ctx, "DEPTHWISE_CONV_2D")
            let weights = try PackedDepthwiseWeights(geometry: geometry, filter: filter, bias: bias)
            let (input, output, threads, clamp) = (
                ctx.input(0), ctx.output(0), ctx.threads, ClampRange(options.activation)
            )
            return BoundKernel {
                depthwiseConv2D(input: input, output: output, weights: weights, activation: clamp, threads: threads)
            }
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        options.activation == .none ? DepthwiseConv2DOperator(options: options.activated(activation)) : nil
    }

    /// A PAD of the rows and columns before it is read with explicit paddings (`fuseSpatialPad`).
    static let rewrites: [GraphRewrite] = [
        spatialPadRewrite(
            options: { ($0 as? DepthwiseConv2DOperator)?.options }, rebuild: { DepthwiseConv2DOperator(options: $0) })
    ]
}

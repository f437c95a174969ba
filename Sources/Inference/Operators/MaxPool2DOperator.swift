// MAX_POOL_2D on NHWC with TFLite's padding rule (Kernels/PoolingKernel.swift).

import TFLite
import VisionErrors

/// Options of MAX_POOL_2D.
struct PoolOptions: Equatable, Sendable {
    var padding: WindowPadding
    var strideH: Int, strideW: Int
    var filterH: Int, filterW: Int
    var activation: Activation

    /// These options with `activation` fused in.
    func activated(_ activation: Activation) -> Self {
        var options = self
        options.activation = activation
        return options
    }
}

/// MAX_POOL_2D.
struct MaxPool2DOperator: GraphOperation, Equatable {
    var options: PoolOptions

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .maxPool2D: { source in
            guard case .pool2D(let o) = source.options else { throw source.mismatch() }
            return MaxPool2DOperator(
                options: PoolOptions(
                    padding: WindowPadding(o.padding), strideH: o.strideHeight,
                    strideW: o.strideWidth, filterH: o.filterHeight, filterW: o.filterWidth,
                    activation: source.activation))
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let s = try node.floatShape(0)
        try require(s.count == 4, "input must be NHWC, got \(s)")
        let geometry = try node.windowGeometry(
            input: s, kernelH: options.filterH, kernelW: options.filterW,
            outputChannels: s[3],
            options: ConvolutionOptions(
                padding: options.padding, strideH: options.strideH,
                strideW: options.strideW,
                activation: options.activation))
        return PreparedNode(outputShapes: [geometry.outputShape]) { ctx in
            let (input, output, threads, clamp) = (
                ctx.input(0), ctx.output(0), ctx.threads, ClampRange(options.activation)
            )
            return BoundKernel {
                maxPool2D(input: input, output: output, geometry: geometry, activation: clamp, threads: threads)
            }
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        options.activation == .none ? MaxPool2DOperator(options: options.activated(activation)) : nil
    }
}

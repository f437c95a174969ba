// MAX_POOL_2D and AVERAGE_POOL_2D on NHWC with TFLite's padding rule (Kernels/PoolingKernel.swift):
// the window's maximum, or its mean over the taps inside the input (the selfie segmenter pools whole
// feature maps this way).

import TFLite
import VisionErrors

/// Options of MAX_POOL_2D and AVERAGE_POOL_2D.
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

    /// The options of a pooling operator as the model gives them.
    init(padding: WindowPadding, strideH: Int, strideW: Int, filterH: Int, filterW: Int, activation: Activation) {
        (self.padding, self.strideH, self.strideW) = (padding, strideH, strideW)
        (self.filterH, self.filterW, self.activation) = (filterH, filterW, activation)
    }

    /// The options of the pooling operator `source` (its Pool2DOptions table).
    init(_ source: OperatorSource) throws {
        guard case .pool2D(let o) = source.options else { throw source.mismatch() }
        self.init(
            padding: WindowPadding(o.padding), strideH: o.strideHeight, strideW: o.strideWidth,
            filterH: o.filterHeight, filterW: o.filterWidth, activation: source.activation)
    }

    /// The pooling window over the node's NHWC input 0, with its single output checked.
    func geometry(_ node: NodeInputs) throws(VisionTasksError) -> Conv2DGeometry {
        try node.requireOutputs(1)
        let s = try node.floatShape(0)
        try require(s.count == 4, "input must be NHWC, got \(s)")
        return try node.windowGeometry(
            input: s, kernelH: filterH, kernelW: filterW, outputChannels: s[3],
            options: ConvolutionOptions(padding: padding, strideH: strideH, strideW: strideW, activation: activation))
    }
}

/// MAX_POOL_2D or AVERAGE_POOL_2D.
struct Pool2DOperator: GraphOperation, Equatable {
    /// Which statistic of the window.
    enum Kind: Equatable, Sendable { case max, average }

    var kind: Kind
    var options: PoolOptions

    init(_ kind: Kind, options: PoolOptions) {
        self.kind = kind
        self.options = options
    }

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .maxPool2D: { Pool2DOperator(.max, options: try PoolOptions($0)) },
        .averagePool2D: { Pool2DOperator(.average, options: try PoolOptions($0)) },
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        let geometry = try options.geometry(node)
        return PreparedNode(outputShapes: [geometry.outputShape]) { ctx in
            let (input, output, threads, clamp, kind) = (
                ctx.input(0), ctx.output(0), ctx.threads, ClampRange(options.activation), kind
            )
            return BoundKernel {
                switch kind {
                case .max:
                    maxPool2D(input: input, output: output, geometry: geometry, activation: clamp, threads: threads)
                case .average:
                    averagePool2D(input: input, output: output, geometry: geometry, activation: clamp, threads: threads)
                }
            }
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        options.activation == .none ? Pool2DOperator(kind, options: options.activated(activation)) : nil
    }
}

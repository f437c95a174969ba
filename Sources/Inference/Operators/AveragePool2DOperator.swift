// AVERAGE_POOL_2D on NHWC with TFLite's padding rule: each window's mean over its taps inside the
// input (Kernels/PoolingKernel.swift). The selfie segmenter pools whole feature maps this way.

import TFLite
import VisionErrors

/// AVERAGE_POOL_2D.
struct AveragePool2DOperator: GraphOperation, Equatable {
    var options: PoolOptions

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .averagePool2D: { AveragePool2DOperator(options: try PoolOptions($0)) }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        let geometry = try options.geometry(node)
        return PreparedNode(outputShapes: [geometry.outputShape]) { ctx in
            let (input, output, threads, clamp) = (
                ctx.input(0), ctx.output(0), ctx.threads, ClampRange(options.activation)
            )
            return BoundKernel {
                averagePool2D(input: input, output: output, geometry: geometry, activation: clamp, threads: threads)
            }
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        options.activation == .none ? AveragePool2DOperator(options: options.activated(activation)) : nil
    }
}

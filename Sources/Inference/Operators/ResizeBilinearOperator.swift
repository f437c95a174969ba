// RESIZE_BILINEAR of an NHWC tensor to a constant size, with TFLite's align_corners and
// half_pixel_centers rules (Kernels/ResizeBilinear.swift).

import TFLite
import VisionErrors

/// RESIZE_BILINEAR: input 1 is the constant [height, width].
struct ResizeBilinearOperator: GraphOperation, Equatable {
    var alignCorners: Bool
    var halfPixelCenters: Bool
    /// A clamp on the output: a fused RELU, or the activation of a 1×1 CONV_2D moved before the resize
    /// (ConvolutionBeforeResize.swift); TFLite's operator has none.
    var activation: Activation = .none

    /// The largest output side (each side's taps are a table of that many entries).
    static let maxSide = 1 << 16

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .resizeBilinear: { source in
            guard case .resizeBilinear(let alignCorners, let halfPixelCenters) = source.options else {
                return ResizeBilinearOperator(alignCorners: false, halfPixelCenters: false)
            }
            return ResizeBilinearOperator(alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let s = try node.floatShape(0)
        try require(s.count == 4 && s.allSatisfy { $0 > 0 }, "input must be a non-empty NHWC tensor, got \(s)")
        let size = try node.ints(1)
        try require(
            size.count == 2 && size.allSatisfy { (1...Self.maxSide).contains($0) },
            "size \(size) is not two values in 1...\(Self.maxSide)")
        try require(!(alignCorners && halfPixelCenters), "align_corners and half_pixel_centers are both set")
        return PreparedNode(outputShapes: [[s[0], size[0], size[1], s[3]]]) { ctx in
            ResizeBilinearKernel(
                input: ctx.input(0), out: ctx.output(0), inputShape: s, outH: size[0], outW: size[1],
                alignCorners: alignCorners, halfPixelCenters: halfPixelCenters, activation: ClampRange(activation),
                threads: ctx.threads)
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        guard self.activation == .none else { return nil }
        var fused = self
        fused.activation = activation
        return fused
    }
}

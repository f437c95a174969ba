// DEPTH_TO_SPACE on NHWC (TFLite's DCR order): each input pixel's C channels become a block × block
// square of C / block² channels, as one strided block copy.

import TFLite
import VisionErrors

/// DEPTH_TO_SPACE with its block size.
struct DepthToSpaceOperator: GraphOperation, Equatable {
    var blockSize: Int

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .depthToSpace: { source in
            guard case .depthToSpace(let blockSize) = source.options else { throw source.mismatch() }
            return DepthToSpaceOperator(blockSize: blockSize)
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let s = try node.floatShape(0), b = blockSize
        try require(s.count == 4, "input \(s) must be 4-D")
        try require(b > 0 && b <= 1 << 12, "block size \(b) must be positive")
        try require(s[3] % (b * b) == 0, "input channels \(s[3]) are not a multiple of \(b * b)")
        let (n, h, w, c) = (s[0], s[1], s[2], s[3] / (b * b))
        let out = [n, h * b, w * b, c]
        // Input [n, h, w, by, bx, c] copied to output [n, h, by, w, bx, c].
        let source = [h * w * b * b * c, w * b * b * c, b * c, b * b * c, c, 1]
        let copy = try stridedCopy(
            extents: [n, h, b, w, b, c], sourceStrides: source,
            destinationStrides: contiguousStrides([n, h, b, w, b, c]))
        return PreparedNode(outputShapes: [out]) { ctx in
            CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: [copy])
        }
    }
}

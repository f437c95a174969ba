// MediaPipe's custom operator Convolution2DTransposeBias (mediapipe/util/tflite/operations/
// transpose_conv_bias.cc): TRANSPOSE_CONV with a bias input and no output-shape input. Inputs:
// data [N, H, W, I], filter [O, KH, KW, I] (OHWI), bias [O]; custom options three little-endian
// int32: padding (1 SAME, 2 VALID), stride width, stride height. With SAME the output loses
// max(0, K − (size − 1) mod stride − 1) rows (columns), half of them (rounded down) at the top (left);
// with VALID it is stride·(size − 1) + K. Kernel: Kernels/TransposeConvKernel.swift.

import Foundation
import TFLite
import VisionErrors

/// Convolution2DTransposeBias, with constant filter and bias.
struct TransposeConvBiasOperator: GraphOperation, Equatable {
    var padding: WindowPadding
    var strideH: Int, strideW: Int

    static let loaders: [BuiltinOperator: OperatorLoader] = [:]

    static let customLoaders: [String: OperatorLoader] = [
        "Convolution2DTransposeBias": { source in
            let bytes = source.op.customOptions ?? Data()
            guard bytes.count >= 12 else {
                throw VisionTasksError.invalidModel(
                    "\(source.place) has \(bytes.count) bytes of custom options; Convolution2DTransposeBias needs 12 (padding, stride width, stride height)"
                )
            }
            let words = (0..<3).map { i in
                Int(
                    Int32(
                        littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self) })
                )
            }
            let padding: WindowPadding
            switch words[0] {
            case 1: padding = .same
            case 2: padding = .valid
            default:
                throw VisionTasksError.invalidModel(
                    "\(source.place) has padding \(words[0]) in its custom options; 1 (SAME) or 2 (VALID) expected")
            }
            guard words[1] > 0, words[2] > 0, words[1] <= 1 << 16, words[2] <= 1 << 16 else {
                throw VisionTasksError.invalidModel(
                    "\(source.place) has strides \(words[1])×\(words[2]) in its custom options; they must be positive")
            }
            return TransposeConvBiasOperator(padding: padding, strideH: words[2], strideW: words[1])
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        try require(node.count == 3 && node.has(1) && node.has(2), "needs inputs data, filter and bias")
        let s = try node.floatShape(0), f = try node.floatShape(1), b = try node.floatShape(2)
        try require(
            s.count == 4 && f.count == 4 && b.count == 1,
            "input \(s) and filter \(f) must be 4-D, bias \(b) 1-D")
        try require(f[3] == s[3], "filter \(f) does not match input channels \(s[3])")
        try require(b[0] == f[0], "bias \(b) does not have \(f[0]) values")
        try require(s.allSatisfy { $0 > 0 } && f.allSatisfy { $0 > 0 }, "input \(s) and filter \(f) must not be empty")
        func axis(_ size: Int, _ kernel: Int, _ stride: Int) -> (out: Int, pad: Int) {
            let lost = padding == .same ? Swift.max(0, kernel - (size - 1) % stride - 1) : 0
            return (stride * (size - 1) + kernel - lost, lost / 2)
        }
        let (h, w) = (axis(s[1], f[1], strideH), axis(s[2], f[2], strideW))
        let outputShape = [s[0], h.out, w.out, f[0]]
        _ = try computedCount(outputShape, "output")
        try require(
            [s, f].allSatisfy { $0.reduce(1, *) <= 1 << 30 },
            "input \(s) or filter \(f) is larger than the engine handles")
        let geometry = TransposeConvGeometry(
            batch: s[0], inputHeight: s[1], inputWidth: s[2], inputChannels: s[3],
            outputHeight: h.out, outputWidth: w.out, outputChannels: f[0],
            kernelHeight: f[1], kernelWidth: f[2], strideHeight: strideH, strideWidth: strideW,
            padTop: h.pad, padLeft: w.pad)
        return PreparedNode(outputShapes: [outputShape]) { ctx in
            let (filter, bias) = try weightsAndBias(ctx, "Convolution2DTransposeBias")
            guard let bias else {
                throw VisionTasksError.unsupportedModel("Convolution2DTransposeBias bias must be constant")
            }
            try require(
                filter.count == f.reduce(1, *) && bias.count == f[0],
                "filter or bias values do not match their shapes \(f), \(b)")
            let weights = AlignedFloats(count: filter.count + bias.count)
            weights.pointer.update(from: filter + bias, count: weights.count)
            let columns = geometry.columnSources
            let (input, output, threads) = (ctx.input(0), ctx.output(0), ctx.threads)
            return BoundKernel {
                let base = UnsafePointer(weights.pointer)
                columns.withUnsafeBufferPointer { table in
                    guard let table = table.baseAddress else { return }
                    transposeConvBias(
                        input: input, filter: base, bias: base + filter.count, output: output, geometry: geometry,
                        columns: table, threads: threads)
                }
            }
        }
    }
}

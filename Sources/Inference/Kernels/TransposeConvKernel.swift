// A transposed convolution with bias (MediaPipe's Convolution2DTransposeBias), computed per output
// pixel by gathering the input pixels whose scattered windows cover it (Sources/CKernels/transpose_conv.c).

import CKernels

/// Shapes and parameters of a transposed convolution: input [N, H, W, I], filter [O, KH, KW, I]
/// (OHWI), output [N, OH, OW, O]. Input pixel (iy, ix) adds its filter-weighted values to output
/// pixels (iy·strideH − padTop + ky, ix·strideW − padLeft + kx); outputs outside are dropped.
package struct TransposeConvGeometry: Sendable, Equatable {
    /// The input's shape [N, H, W, I].
    package var batch, inputHeight, inputWidth, inputChannels: Int
    /// The output's height, width and channels (O).
    package var outputHeight, outputWidth, outputChannels: Int
    /// The filter's window.
    package var kernelHeight, kernelWidth: Int
    /// How far apart neighbouring input pixels' windows start in the output.
    package var strideHeight, strideWidth: Int
    /// Output rows (columns) cut from the top (left) of the full scattered result.
    package var padTop, padLeft: Int

    /// The input rows (or columns) `first ... last` (empty when first > last) whose windows cover
    /// output row `o`, where input i's window starts at i·stride − pad and is `kernel` long, of `size` inputs.
    @inline(__always)
    static func sources(_ o: Int, stride: Int, pad: Int, kernel: Int, size: Int) -> (first: Int, last: Int) {
        // i·stride − pad ≤ o and o < i·stride − pad + kernel.
        let t = o + pad
        let first = t - kernel + 1 <= 0 ? 0 : (t - kernel + stride) / stride
        return (first, t < 0 ? -1 : Swift.min(size - 1, t / stride))
    }

    /// `sources` of every output column, as first and last pairs: computed once when the kernel is
    /// bound, so `invoke()` divides only once per output row.
    package var columnSources: [Int32] {
        (0..<outputWidth).flatMap { ox in
            let s = Self.sources(ox, stride: strideWidth, pad: padLeft, kernel: kernelWidth, size: inputWidth)
            return [Int32(s.first), Int32(s.last)]
        }
    }

    /// The C kernel's geometry (dilation 1).
    var c: vt_conv_geometry {
        vt_conv_geometry(
            batch: Int32(batch), in_h: Int32(inputHeight), in_w: Int32(inputWidth), in_c: Int32(inputChannels),
            out_h: Int32(outputHeight), out_w: Int32(outputWidth), out_c: Int32(outputChannels),
            k_h: Int32(kernelHeight), k_w: Int32(kernelWidth), stride_h: Int32(strideHeight),
            stride_w: Int32(strideWidth), dil_h: 1, dil_w: 1, pad_top: Int32(padTop), pad_left: Int32(padLeft))
    }
}

/// The transposed convolution: each output is its bias plus the products over every covering input
/// pixel, the channels summed in 8 partial sums, so the result does not depend on how output rows
/// are split across `threads`. `columns` holds `geometry.columnSources`.
package func transposeConvBias(
    input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    output: UnsafeMutablePointer<Float>, geometry: TransposeConvGeometry, columns: UnsafePointer<Int32>,
    threads: KernelThreads = .single, isa: KernelISA = .best
) {
    let rows = geometry.batch * geometry.outputHeight
    let work = geometry.outputWidth * geometry.outputChannels * Swift.max(1, geometry.inputChannels)
    threads.split(
        rows, minimumPerPart: Swift.max(1, 8192 / Swift.max(1, work)),
        TransposeConvJob(
            geometry: geometry.c, input: input, filter: filter, bias: bias, output: output, columns: columns,
            isa: isa.code))
}

/// One transposed convolution call's pointers; a part computes a range of output rows.
private struct TransposeConvJob: RangeJob {
    let geometry: vt_conv_geometry
    let input: UnsafePointer<Float>
    let filter: UnsafePointer<Float>
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let columns: UnsafePointer<Int32>
    let isa: Int32

    func run(thread: Int, begin: Int, end: Int) {
        var g = geometry
        vt_transpose_conv(&g, input, filter, bias, output, columns, begin, end, isa)
    }
}

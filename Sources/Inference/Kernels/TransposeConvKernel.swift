// A transposed convolution with bias (MediaPipe's Convolution2DTransposeBias), computed per output
// pixel by gathering the input pixels whose scattered windows cover it.

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
    package var columnSources: [Int] {
        (0..<outputWidth).flatMap { ox in
            let s = Self.sources(ox, stride: strideWidth, pad: padLeft, kernel: kernelWidth, size: inputWidth)
            return [s.first, s.last]
        }
    }
}

/// The transposed convolution: each output is its bias plus the products over every covering input
/// pixel, the channels summed 8 lanes at a time, so the result does not depend on how output rows
/// are split across `threads`. `columns` holds `geometry.columnSources`.
package func transposeConvBias(
    input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    output: UnsafeMutablePointer<Float>, geometry: TransposeConvGeometry, columns: UnsafePointer<Int>,
    threads: KernelThreads = .single
) {
    let rows = geometry.batch * geometry.outputHeight
    let work = geometry.outputWidth * geometry.outputChannels * Swift.max(1, geometry.inputChannels)
    threads.split(
        rows, minimumPerPart: Swift.max(1, 8192 / Swift.max(1, work)),
        TransposeConvJob(
            geometry: geometry, input: input, filter: filter, bias: bias, output: output, columns: columns))
}

/// One transposed convolution call; a part computes a range of output rows.
private struct TransposeConvJob: RangeJob {
    let geometry: TransposeConvGeometry
    let input: UnsafePointer<Float>
    let filter: UnsafePointer<Float>
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let columns: UnsafePointer<Int>

    func run(thread: Int, begin: Int, end: Int) {
        let g = geometry
        let ci = g.inputChannels, co = g.outputChannels
        for row in begin..<end {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            let out = output + row * g.outputWidth * co
            let ys = TransposeConvGeometry.sources(
                oy, stride: g.strideHeight, pad: g.padTop, kernel: g.kernelHeight, size: g.inputHeight)
            let image = input + b * g.inputHeight * g.inputWidth * ci
            for ox in 0..<g.outputWidth {
                let xs = (first: columns[2 * ox], last: columns[2 * ox + 1])
                for oc in 0..<co {
                    var acc = SIMD8<Float>.zero
                    var iy = ys.first
                    while iy <= ys.last {
                        let ky = oy + g.padTop - iy * g.strideHeight
                        let line = image + iy * g.inputWidth * ci
                        let taps = filter + (oc * g.kernelHeight + ky) * g.kernelWidth * ci
                        var ix = xs.first
                        while ix <= xs.last {
                            let x = line + ix * ci, w = taps + (ox + g.padLeft - ix * g.strideWidth) * ci
                            var c = 0
                            while c + 8 <= ci {
                                acc += load8(x + c) * load8(w + c)
                                c += 8
                            }
                            if c < ci { acc += loadPartial(x + c, ci - c) * loadPartial(w + c, ci - c) }
                            ix += 1
                        }
                        iy += 1
                    }
                    let half = acc.lowHalf + acc.highHalf
                    out[ox * co + oc] = bias[oc] + ((half[0] + half[1]) + (half[2] + half[3]))
                }
            }
        }
    }
}

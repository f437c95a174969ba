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

    /// The input rows (or columns) in ascending order whose window covers output row `o`, with
    /// `origin(i) = i·stride − pad` and window size `kernel` over `size` inputs.
    @inline(__always)
    static func sources(_ o: Int, stride: Int, pad: Int, kernel: Int, size: Int) -> ClosedRange<Int>? {
        // i·stride − pad ≤ o and o < i·stride − pad + kernel.
        let t = o + pad
        let first = t - kernel + 1 <= 0 ? 0 : (t - kernel + stride) / stride
        let last = Swift.min(size - 1, t / stride)
        return t < 0 || first > last ? nil : first...last
    }
}

/// The transposed convolution's output for output rows [begin, end) of batch × output height:
/// each output is its bias plus the products over every covering input pixel, the channels summed
/// 8 lanes at a time, so the result does not depend on how rows are split across threads.
package func transposeConvBias(
    input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    output: UnsafeMutablePointer<Float>, geometry: TransposeConvGeometry, threads: KernelThreads = .single
) {
    let rows = geometry.batch * geometry.outputHeight
    let work = geometry.outputWidth * geometry.outputChannels * Swift.max(1, geometry.inputChannels)
    threads.split(
        rows, minimumPerPart: Swift.max(1, 8192 / Swift.max(1, work)),
        TransposeConvJob(geometry: geometry, input: input, filter: filter, bias: bias, output: output))
}

/// One transposed convolution call; a part computes a range of output rows.
private struct TransposeConvJob: RangeJob {
    let geometry: TransposeConvGeometry
    let input: UnsafePointer<Float>
    let filter: UnsafePointer<Float>
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>

    func run(thread: Int, begin: Int, end: Int) {
        let g = geometry
        let ci = g.inputChannels
        for row in begin..<end {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            var out = output + row * g.outputWidth * g.outputChannels
            let ys = TransposeConvGeometry.sources(
                oy, stride: g.strideHeight, pad: g.padTop, kernel: g.kernelHeight, size: g.inputHeight)
            for ox in 0..<g.outputWidth {
                let xs = TransposeConvGeometry.sources(
                    ox, stride: g.strideWidth, pad: g.padLeft, kernel: g.kernelWidth, size: g.inputWidth)
                for oc in 0..<g.outputChannels {
                    var acc = SIMD8<Float>.zero
                    if let ys, let xs {
                        for iy in ys {
                            let ky = oy + g.padTop - iy * g.strideHeight
                            for ix in xs {
                                let kx = ox + g.padLeft - ix * g.strideWidth
                                let x = input + ((b * g.inputHeight + iy) * g.inputWidth + ix) * ci
                                let w = filter + ((oc * g.kernelHeight + ky) * g.kernelWidth + kx) * ci
                                var c = 0
                                while c + 8 <= ci {
                                    acc += load8(x + c) * load8(w + c)
                                    c += 8
                                }
                                if c < ci { acc += loadPartial(x + c, ci - c) * loadPartial(w + c, ci - c) }
                            }
                        }
                    }
                    out[oc] = bias[oc] + acc.sum()
                }
                out += g.outputChannels
            }
        }
    }
}

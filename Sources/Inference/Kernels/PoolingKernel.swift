import CKernels

/// MAX_POOL_2D: `output` [N, OH, OW, C] = max over each window of `input` [N, H, W, C] (padded taps
/// skipped), clamped. `geometry.outputChannels` must equal `inputChannels`; dilation is ignored.
package func maxPool2D(
    input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, geometry: Conv2DGeometry,
    activation: ClampRange = .none, threads: KernelThreads = .single, isa: KernelISA = .best
) {
    precondition(geometry.outputChannels == geometry.inputChannels, "pooling: channel counts differ")
    let rows = geometry.batch * geometry.outputHeight
    let work = geometry.outputWidth * geometry.outputChannels * geometry.kernelHeight * geometry.kernelWidth
    // Split down to about 2,048 taps a part (see depthwiseConv2D: a whole layer after a split one
    // reads half its input from the other core's cache).
    threads.split(
        rows, minimumPerPart: Swift.max(1, 2048 / Swift.max(1, work)),
        PoolJob(
            geometry: geometry.c,
            io: JobIO(
                input: input, output: output, activation: activation,
                isa: isa.code)))
}

/// One pooling call's pointers; a part computes a range of output rows.
private struct PoolJob: RangeJob {
    let geometry: vt_conv_geometry
    let io: JobIO

    func run(thread: Int, begin: Int, end: Int) {
        var g = geometry
        vt_maxpool(&g, io.input, io.output, io.activation.min, io.activation.max, begin, end, io.isa)
    }
}

/// AVERAGE_POOL_2D: `output` [N, OH, OW, C] = the mean of each window of `input` [N, H, W, C] over
/// its taps inside the input (TFLite's rule: padded taps are not counted), clamped; 0 for a window
/// with no tap inside. `geometry.outputChannels` must equal `inputChannels`; dilation is ignored.
/// Each output is summed tap by tap in row-major window order whatever the split, so any thread
/// count gives the same bits.
package func averagePool2D(
    input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, geometry: Conv2DGeometry,
    activation: ClampRange = .none, threads: KernelThreads = .single
) {
    precondition(geometry.outputChannels == geometry.inputChannels, "pooling: channel counts differ")
    let rows = geometry.batch * geometry.outputHeight
    let work = geometry.outputWidth * geometry.outputChannels * geometry.kernelHeight * geometry.kernelWidth
    threads.split(
        rows, minimumPerPart: Swift.max(1, 2048 / Swift.max(1, work)),
        AveragePoolJob(geometry: geometry, input: input, output: output, activation: activation))
}

/// One AVERAGE_POOL_2D call; a part computes a range of output rows (batch × output height).
private struct AveragePoolJob: RangeJob {
    let geometry: Conv2DGeometry
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let activation: ClampRange

    /// The taps [first, end) of a window starting at `origin` that fall inside `0 ..< size`.
    @inline(__always)
    private func taps(_ origin: Int, _ kernel: Int, _ size: Int) -> Range<Int> {
        let first = Swift.max(0, -origin), end = Swift.min(kernel, size - origin)
        return first..<Swift.max(first, end)
    }

    func run(thread: Int, begin: Int, end: Int) {
        let g = geometry
        let c = g.inputChannels
        let lo = SIMD8<Float>(repeating: activation.min), hi = SIMD8<Float>(repeating: activation.max)
        /// The mean of `taps` summed values (0 for none), clamped, into the first `m` channels at `out`.
        func store(_ sum: SIMD8<Float>, _ m: Int, _ out: UnsafeMutablePointer<Float>, _ taps: Float) {
            let y = lanewiseMin(lanewiseMax(taps > 0 ? sum / taps : .zero, lo), hi)
            if m == 8 { store8(y, out) } else { storePartial(y, out, m) }
        }
        for row in begin..<end {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            let originY = oy * g.strideHeight - g.padTop
            let ky = taps(originY, g.kernelHeight, g.inputHeight)
            let image = input + b * g.inputHeight * g.inputWidth * c
            for ox in 0..<g.outputWidth {
                let originX = ox * g.strideWidth - g.padLeft
                let kx = taps(originX, g.kernelWidth, g.inputWidth)
                let out = output + (row * g.outputWidth + ox) * c
                let count = Float(ky.count * kx.count)
                // 16 channels a pass over the window (a whole 64-byte line of a 16-channel map, read once).
                var ch = 0
                while ch < c {
                    let m0 = Swift.min(8, c - ch), m1 = Swift.max(0, Swift.min(8, c - ch - 8))
                    var sum0 = SIMD8<Float>.zero, sum1 = SIMD8<Float>.zero
                    for y in ky {
                        let line = image + ((originY + y) * g.inputWidth + originX) * c + ch
                        for x in kx {
                            let tap = line + x * c
                            sum0 += m0 == 8 ? load8(tap) : loadPartial(tap, m0)
                            if m1 > 0 { sum1 += m1 == 8 ? load8(tap + 8) : loadPartial(tap + 8, m1) }
                        }
                    }
                    store(sum0, m0, out + ch, count)
                    if m1 > 0 { store(sum1, m1, out + ch + 8, count) }
                    ch += 16
                }
            }
        }
    }
}

import CKernels

/// PRELU with one alpha per channel, broadcast over all other axes: for `input` [pixels, channels],
/// `output[p, c] = x >= 0 ? x : alpha[c] * x`. `output` may be `input`.
package func prelu(input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                   pixels: Int, channels: Int, threads: KernelThreads = .single, isa: KernelISA = .best) {
    threads.split(pixels, minimumPerPart: Swift.max(1, 16384 / Swift.max(1, channels)),
                  ChannelJob(a: input, b: nil, alpha: alpha, output: output, channels: channels,
                             activation: .none, isa: isa.code))
}

/// ADD of two same-shape [pixels, channels] tensors with the ADD's activation, then PRELU with one
/// alpha per channel, in one pass (fuses ADD → PRELU). `output` may alias an input.
package func addPReLU(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, alpha: UnsafePointer<Float>,
                      output: UnsafeMutablePointer<Float>, pixels: Int, channels: Int,
                      activation: ClampRange = .none, threads: KernelThreads = .single, isa: KernelISA = .best) {
    threads.split(pixels, minimumPerPart: Swift.max(1, 16384 / Swift.max(1, channels)),
                  ChannelJob(a: a, b: b, alpha: alpha, output: output, channels: channels,
                             activation: activation, isa: isa.code))
}

/// ADD of two same-shape tensors of `count` elements with a fused clamp. `output` may alias an input.
package func add(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                 count: Int, activation: ClampRange = .none, threads: KernelThreads = .single,
                 isa: KernelISA = .best) {
    threads.split(count, granule: 16, minimumPerPart: 32768,
                  FlatJob(a: a, b: b, output: output, activation: activation, isa: isa.code))
}

/// Clamps `count` elements to `activation` (RELU, RELU6, RELU_N1_TO_1). `output` may be `input`.
package func clamp(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int,
                   activation: ClampRange, threads: KernelThreads = .single, isa: KernelISA = .best) {
    threads.split(count, granule: 16, minimumPerPart: 32768,
                  FlatJob(a: input, b: nil, output: output, activation: activation, isa: isa.code))
}

/// PRELU (`b` nil) or ADD → PRELU over a range of pixels of [pixels, channels] tensors.
private struct ChannelJob: RangeJob {
    let a: UnsafePointer<Float>
    let b: UnsafePointer<Float>?
    let alpha: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let channels: Int
    let activation: ClampRange
    let isa: Int32

    func run(thread: Int, begin: Int, end: Int) {
        if let b {
            vt_add_prelu(a, b, alpha, output, channels, activation.min, activation.max, begin, end, isa)
        } else {
            vt_prelu(a, alpha, output, channels, begin, end, isa)
        }
    }
}

/// Clamp (`b` nil) or ADD with a clamp over a range of elements.
private struct FlatJob: RangeJob {
    let a: UnsafePointer<Float>
    let b: UnsafePointer<Float>?
    let output: UnsafeMutablePointer<Float>
    let activation: ClampRange
    let isa: Int32

    func run(thread: Int, begin: Int, end: Int) {
        if let b {
            vt_add(a, b, output, activation.min, activation.max, begin, end, isa)
        } else {
            vt_clamp(a, output, activation.min, activation.max, begin, end, isa)
        }
    }
}

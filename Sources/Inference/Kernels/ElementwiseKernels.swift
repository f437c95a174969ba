import CKernels

/// PRELU with one alpha per channel, broadcast over all other axes: for `input` [pixels, channels],
/// `output[p, c] = x >= 0 ? x : alpha[c] * x`. `output` may be `input`.
package func prelu(
    input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
    pixels: Int, channels: Int, threads: KernelThreads = .single, isa: KernelISA = .best
) {
    threads.split(
        pixels, minimumPerPart: Swift.max(1, 16384 / Swift.max(1, channels)),
        ChannelJob(input: input, alpha: alpha, output: output, channels: channels, isa: isa.code))
}

/// ADD of two same-shape tensors of `count` elements with a fused clamp. `output` may alias an input.
package func add(
    _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
    count: Int, activation: ClampRange = .none, threads: KernelThreads = .single,
    isa: KernelISA = .best
) {
    threads.split(
        count, granule: 16, minimumPerPart: 32768,
        AddJob(a: a, b: b, output: output, activation: activation, isa: isa.code))
}

/// PRELU over a range of pixels of [pixels, channels] tensors.
private struct ChannelJob: RangeJob {
    let input: UnsafePointer<Float>
    let alpha: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let channels: Int
    let isa: Int32

    func run(thread: Int, begin: Int, end: Int) {
        vt_prelu(input, alpha, output, channels, begin, end, isa)
    }
}

/// ADD with a clamp over a range of elements.
private struct AddJob: RangeJob {
    let a: UnsafePointer<Float>
    let b: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let activation: ClampRange
    let isa: Int32

    func run(thread: Int, begin: Int, end: Int) {
        vt_add(a, b, output, activation.min, activation.max, begin, end, isa)
    }
}

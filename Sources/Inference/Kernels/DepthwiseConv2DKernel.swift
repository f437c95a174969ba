import CKernels

/// DEPTHWISE_CONV_2D: `output` [N, OH, OW, O] from `input` [N, H, W, C], clamped to `activation`.
/// No allocation, no scratch; output rows are split across `threads`.
package func depthwiseConv2D(
    input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
    weights: PackedDepthwiseWeights, activation: ClampRange = .none,
    threads: KernelThreads = .single, isa: KernelISA = .best
) {
    let rows = weights.geometry.batch * weights.geometry.outputHeight
    let work = weights.geometry.outputWidth * weights.geometry.outputChannels
    let job = DepthwiseJob(
        geometry: weights.geometry.c, packed: UnsafePointer(weights.storage.pointer),
        io: JobIO(input: input, output: output, activation: activation, isa: isa.code))
    // Split down to about 1,024 outputs a part: a layer left whole after a split one reads half its
    // input from the other core's cache, which costs more than the hand-over (8x8 maps included).
    threads.split(rows, minimumPerPart: Swift.max(1, 1024 / Swift.max(1, work)), job)
}

/// One DEPTHWISE_CONV_2D call's pointers; a part computes a range of output rows.
private struct DepthwiseJob: RangeJob {
    let geometry: vt_conv_geometry
    let packed: UnsafePointer<Float>
    let io: JobIO

    func run(thread: Int, begin: Int, end: Int) {
        var g = geometry
        vt_dwconv(&g, io.input, packed, io.output, io.activation.min, io.activation.max, begin, end, io.isa)
    }
}

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

import CKernels

/// MAX_POOL_2D: `output` [N, OH, OW, C] = max over each window of `input` [N, H, W, C] (padded taps
/// skipped), clamped. `geometry.outputChannels` must equal `inputChannels`; dilation is ignored.
package func maxPool2D(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, geometry: Conv2DGeometry,
                       activation: ClampRange = .none, threads: KernelThreads = .single, isa: KernelISA = .best) {
    pool(input: input, output: output, geometry: geometry, activation: activation, threads: threads,
         isa: isa, kernel: vt_maxpool)
}

/// AVERAGE_POOL_2D: mean over the in-bounds taps of each window (TFLite's rule), clamped.
package func averagePool2D(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                           geometry: Conv2DGeometry, activation: ClampRange = .none,
                           threads: KernelThreads = .single, isa: KernelISA = .best) {
    pool(input: input, output: output, geometry: geometry, activation: activation, threads: threads,
         isa: isa, kernel: vt_avgpool)
}

/// A C pooling kernel (vt_maxpool or vt_avgpool).
private typealias PoolFunction = @convention(c) (UnsafePointer<vt_conv_geometry>?, UnsafePointer<Float>?,
                                                 UnsafeMutablePointer<Float>?, Float, Float, Int, Int, Int32) -> Void

private func pool(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, geometry: Conv2DGeometry,
                  activation: ClampRange, threads: KernelThreads, isa: KernelISA,
                  kernel: PoolFunction) {
    precondition(geometry.outputChannels == geometry.inputChannels, "pooling: channel counts differ")
    let rows = geometry.batch * geometry.outputHeight
    let work = geometry.outputWidth * geometry.outputChannels * geometry.kernelHeight * geometry.kernelWidth
    // Split down to about 2,048 taps a part (see depthwiseConv2D: a whole layer after a split one
    // reads half its input from the other core's cache).
    threads.split(rows, minimumPerPart: Swift.max(1, 2048 / Swift.max(1, work)),
                  PoolJob(geometry: geometry.c, io: JobIO(input: input, output: output, activation: activation,
                                                          isa: isa.code), kernel: kernel))
}

/// One pooling call's pointers; a part computes a range of output rows.
private struct PoolJob: RangeJob {
    let geometry: vt_conv_geometry
    let io: JobIO
    let kernel: PoolFunction

    func run(thread: Int, begin: Int, end: Int) {
        var g = geometry
        kernel(&g, io.input, io.output, io.activation.min, io.activation.max, begin, end, io.isa)
    }
}

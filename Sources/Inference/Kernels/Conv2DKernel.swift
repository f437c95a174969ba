import CKernels

/// CONV_2D: `output` [N, OH, OW, O] = conv(`input` [N, H, W, C], weights) + bias, then
/// `+ residual` (when given: a tensor of the output's shape, may be `output` itself), clamped to
/// `activation`, then PReLU with per-output-channel slopes `preluAlpha` [O] (when given). The
/// optional parts fuse CONV_2D (activation NONE) → ADD (its activation) → PRELU into one pass.
/// `scratch` holds at least `weights.scratchCount(threads:)` floats (may be nil when that is 0).
/// No allocation; the output pixels (or, for small maps, the output channels) are split across `threads`.
package func conv2D(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                    weights: PackedConv2DWeights, activation: ClampRange = .none,
                    residual: UnsafePointer<Float>? = nil, preluAlpha: UnsafePointer<Float>? = nil,
                    scratch: UnsafeMutablePointer<Float>?, threads: KernelThreads = .single,
                    isa: KernelISA = .best) {
    var cg = weights.geometry.c
    let perThread = vt_conv2d_scratch_count(&cg)
    precondition(perThread == 0 || scratch != nil, "conv2D: scratch buffer missing")
    let g = weights.geometry
    let total = g.batch * g.outputHeight * g.outputWidth
    let columns = g.outputChannels
    var job = Conv2DJob(geometry: cg, input: input, packed: UnsafePointer(weights.storage.pointer), output: output,
                        epilogue: vt_epilogue(lo: activation.min, hi: activation.max, residual: residual,
                                              prelu_alpha: preluAlpha),
                        scratch: scratch, scratchPerPart: perThread, pixels: total, columns: columns,
                        byChannel: false, isa: isa.code)
    if threads.count > 1 && total < 96 && columns >= 64 {
        // Few pixels, many channels (the deep layers): split the output channels instead.
        job.byChannel = true
        threads.split(columns, granule: 32, job)
        return
    }
    threads.split(total, granule: 24, minimumPerPart: 48, job)
}

/// One CONV_2D call's pointers; a part computes a range of output pixels (or of output channels).
private struct Conv2DJob: RangeJob {
    let geometry: vt_conv_geometry
    let input: UnsafePointer<Float>
    let packed: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let epilogue: vt_epilogue
    let scratch: UnsafeMutablePointer<Float>?
    let scratchPerPart, pixels, columns: Int
    var byChannel: Bool
    let isa: Int32

    func run(part: Int, begin: Int, end: Int) {
        var g = geometry
        var ep = epilogue
        let partScratch = scratch.map { $0 + part * scratchPerPart }
        if byChannel {
            vt_conv2d(&g, input, packed, output, &ep, partScratch, 0, pixels, begin, end, isa)
        } else {
            vt_conv2d(&g, input, packed, output, &ep, partScratch, begin, end, 0, columns, isa)
        }
    }
}

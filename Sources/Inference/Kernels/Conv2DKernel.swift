import CKernels
import TFLite

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
    let packed = weights.storage.pointer
    let code = isa.code
    let epilogue = vt_epilogue(lo: activation.min, hi: activation.max, residual: residual, prelu_alpha: preluAlpha)
    let columns = g.outputChannels
    if threads.count > 1 && total < 96 && columns >= 64 {
        // Few pixels, many channels (the deep layers): split the output channels instead.
        threads.split(columns, granule: 32) { part, begin, end in
            var local = cg
            var ep = epilogue
            vt_conv2d(&local, input, packed, output, &ep, scratch.map { $0 + part * perThread }, 0, total,
                      begin, end, code)
        }
        return
    }
    threads.split(total, granule: 24, minimumPerPart: 48) { part, begin, end in
        var local = cg
        var ep = epilogue
        vt_conv2d(&local, input, packed, output, &ep, scratch.map { $0 + part * perThread }, begin, end,
                  0, columns, code)
    }
}

import CKernels
import TFLite

/// CONV_2D: `output` [N, OH, OW, O] = conv(`input` [N, H, W, C], weights) + bias, clamped to `activation`.
/// `scratch` holds at least `weights.scratchCount(threads:)` floats (may be nil when that is 0).
/// No allocation; the output pixels are split across `threads`.
package func conv2D(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                    weights: PackedConv2DWeights, activation: ClampRange = .none,
                    scratch: UnsafeMutablePointer<Float>?, threads: KernelThreads = .single,
                    isa: KernelISA = .best) {
    var cg = weights.geometry.c
    let perThread = vt_conv2d_scratch_count(&cg)
    precondition(perThread == 0 || scratch != nil, "conv2D: scratch buffer missing")
    let g = weights.geometry
    let total = g.batch * g.outputHeight * g.outputWidth
    let packed = weights.storage.pointer
    let code = isa.code
    threads.split(total, granule: 12, minimumPerPart: 24) { part, begin, end in
        var local = cg
        vt_conv2d(&local, input, packed, output, activation.min, activation.max,
                  scratch.map { $0 + part * perThread }, begin, end, code)
    }
}

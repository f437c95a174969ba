import CKernels
import TFLite

/// DEPTHWISE_CONV_2D: `output` [N, OH, OW, O] from `input` [N, H, W, C], clamped to `activation`.
/// No allocation, no scratch; output rows are split across `threads`.
package func depthwiseConv2D(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                             weights: PackedDepthwiseWeights, activation: ClampRange = .none,
                             threads: KernelThreads = .single, isa: KernelISA = .best) {
    let cg = weights.geometry.c
    let rows = weights.geometry.batch * weights.geometry.outputHeight
    let packed = weights.storage.pointer
    let code = isa.code
    let work = weights.geometry.outputWidth * weights.geometry.outputChannels
    threads.split(rows, minimumPerPart: Swift.max(1, 4096 / Swift.max(1, work))) { _, begin, end in
        var local = cg
        vt_dwconv(&local, input, packed, output, activation.min, activation.max, begin, end, code)
    }
}

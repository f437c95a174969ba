import CKernels

/// PRELU with one alpha per channel, broadcast over all other axes: for `input` [pixels, channels],
/// `output[p, c] = x >= 0 ? x : alpha[c] * x`. `output` may be `input`.
package func prelu(input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                   pixels: Int, channels: Int, threads: KernelThreads = .single, isa: KernelISA = .best) {
    let code = isa.code
    threads.split(pixels, minimumPerPart: Swift.max(1, 16384 / Swift.max(1, channels))) { _, begin, end in
        vt_prelu(input, alpha, output, channels, begin, end, code)
    }
}

/// ADD of two same-shape [pixels, channels] tensors with the ADD's activation, then PRELU with one
/// alpha per channel, in one pass (fuses ADD → PRELU). `output` may alias an input.
package func addPReLU(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, alpha: UnsafePointer<Float>,
                      output: UnsafeMutablePointer<Float>, pixels: Int, channels: Int,
                      activation: ClampRange = .none, threads: KernelThreads = .single, isa: KernelISA = .best) {
    let code = isa.code
    threads.split(pixels, minimumPerPart: Swift.max(1, 16384 / Swift.max(1, channels))) { _, begin, end in
        vt_add_prelu(a, b, alpha, output, channels, activation.min, activation.max, begin, end, code)
    }
}

/// ADD of two same-shape tensors of `count` elements with a fused clamp. `output` may alias an input.
package func add(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                 count: Int, activation: ClampRange = .none, threads: KernelThreads = .single,
                 isa: KernelISA = .best) {
    let code = isa.code
    threads.split(count, granule: 16, minimumPerPart: 32768) { _, begin, end in
        vt_add(a, b, output, activation.min, activation.max, begin, end, code)
    }
}

/// Clamps `count` elements to `activation` (RELU, RELU6, RELU_N1_TO_1). `output` may be `input`.
package func clamp(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int,
                   activation: ClampRange, threads: KernelThreads = .single, isa: KernelISA = .best) {
    let code = isa.code
    threads.split(count, granule: 16, minimumPerPart: 32768) { _, begin, end in
        vt_clamp(input, output, activation.min, activation.max, begin, end, code)
    }
}

// The layer norm over a tensor's last axis that converters write as ten operators (Operators/LayerNormFusion.swift),
// one row at a time in one pass: every value rounded as those operators round it, so the result is theirs bit for bit.

/// `y = x·a + (−mean)·a` with `a = rsqrt(variance + epsilon)·gamma` over rows of `channels` values
/// (`gamma` has one per channel), split over threads by rows. `output` must not alias `input`.
func layerNorm(
    input: UnsafePointer<Float>, gamma: UnsafePointer<Float>, epsilon: Float, output: UnsafeMutablePointer<Float>,
    rows: Int, channels: Int, threads: KernelThreads = .single
) {
    threads.split(
        rows, minimumPerPart: Swift.max(1, 4096 / Swift.max(1, channels)),
        LayerNormJob(input: input, gamma: gamma, output: output, channels: channels, epsilon: epsilon))
}

/// `layerNorm` over rows `begin ..< end`.
private struct LayerNormJob: RangeJob {
    let input, gamma: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let channels: Int, epsilon: Float

    func run(thread: Int, begin: Int, end: Int) {
        let n = channels
        let scale = 1 / Float(n) // as MEAN scales its sums
        let add: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float> = { $0 + $1 }
        for row in begin..<end {
            let x = input + row * n, y = output + row * n
            let mean = (0 + foldRow(x, n, initial: 0, add)) * scale
            // SQUARED_DIFFERENCE into the output row, which the last pass overwrites.
            let m = SIMD8<Float>(repeating: mean)
            var j = 0
            while j + 8 <= n {
                let d = load8(x + j) - m
                store8(d * d, y + j)
                j += 8
            }
            if j < n {
                let d = loadPartial(x + j, n - j) - m
                storePartial(d * d, y + j, n - j)
            }
            let variance = (0 + foldRow(y, n, initial: 0, add)) * scale
            let r = SIMD8<Float>(repeating: 1 / (variance + epsilon).squareRoot())
            let shift = SIMD8<Float>(repeating: -mean)
            j = 0
            while j + 8 <= n {
                let a = r * load8(gamma + j)
                store8(load8(x + j) * a + shift * a, y + j)
                j += 8
            }
            if j < n {
                let a = r * loadPartial(gamma + j, n - j)
                storePartial(loadPartial(x + j, n - j) * a + shift * a, y + j, n - j)
            }
        }
    }
}

import Testing

@testable import Inference

/// Deterministic pseudo-random numbers for kernel tests (SplitMix64).
struct TestRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [lo, hi).
    mutating func float(_ lo: Float = -1, _ hi: Float = 1) -> Float {
        lo + (hi - lo) * Float(next() >> 40) / Float(1 << 24)
    }

    mutating func floats(_ count: Int, _ lo: Float = -1, _ hi: Float = 1) -> [Float] {
        (0..<count).map { _ in float(lo, hi) }
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

/// The code paths every kernel test runs: the portable one always, AVX2 and AVX-512 where the CPU has them.
let testedISAs: [KernelISA] = KernelISA.available

/// Activations every kernel test cycles through.
let testedActivations: [ClampRange] = [.none, .relu, .relu6, .reluN1To1]

/// Largest |a - b| / max(1, |b|): the relative error the kernel tests bound (1e-5 over sums of
/// products of values in [-1, 1]; fp32 accumulation order differs between kernel and reference).
func maxRelativeError(_ a: [Float], _ b: [Float]) -> Float {
    precondition(a.count == b.count)
    var worst: Float = 0
    for i in a.indices {
        if a[i].isNaN != b[i].isNaN { return .infinity }
        let e = abs(a[i] - b[i]) / max(1, abs(b[i]))
        worst = max(worst, e)
    }
    return worst
}

func clampRef(_ v: Float, _ a: ClampRange) -> Float { min(max(v, a.min), a.max) }

/// Straightforward NHWC window sum (the convolution references, in tests only): output (n, oy, ox, o)
/// = clamp(bias[o] + Σ over in-bounds taps of `tap(inputPixelOffset, ky, kx, o)`).
func naiveWindowSum(
    _ g: Conv2DGeometry, bias: [Float]?, activation: ClampRange,
    tap: (_ pixel: Int, _ ky: Int, _ kx: Int, _ o: Int) -> Double
) -> [Float] {
    var out = [Float](repeating: 0, count: g.outputCount)
    for n in 0..<g.batch {
        for oy in 0..<g.outputHeight {
            for ox in 0..<g.outputWidth {
                for o in 0..<g.outputChannels {
                    var acc = Double(bias?[o] ?? 0)
                    for ky in 0..<g.kernelHeight {
                        let iy = oy * g.strideHeight - g.padTop + ky * g.dilationHeight
                        guard iy >= 0, iy < g.inputHeight else { continue }
                        for kx in 0..<g.kernelWidth {
                            let ix = ox * g.strideWidth - g.padLeft + kx * g.dilationWidth
                            guard ix >= 0, ix < g.inputWidth else { continue }
                            acc += tap((n * g.inputHeight + iy) * g.inputWidth + ix, ky, kx, o)
                        }
                    }
                    out[((n * g.outputHeight + oy) * g.outputWidth + ox) * g.outputChannels + o] =
                        clampRef(Float(acc), activation)
                }
            }
        }
    }
    return out
}

/// Straightforward NHWC convolution with an OHWI filter.
func naiveConv2D(
    _ g: Conv2DGeometry, input: [Float], filter: [Float], bias: [Float]?,
    activation: ClampRange
) -> [Float] {
    let c = g.inputChannels
    return naiveWindowSum(g, bias: bias, activation: activation) { pixel, ky, kx, o in
        var acc = 0.0
        for ch in 0..<c {
            acc +=
                Double(input[pixel * c + ch])
                * Double(filter[((o * g.kernelHeight + ky) * g.kernelWidth + kx) * c + ch])
        }
        return acc
    }
}

/// Straightforward depthwise convolution: output channel o reads input channel o / multiplier.
func naiveDepthwise(
    _ g: Conv2DGeometry, input: [Float], filter: [Float], bias: [Float]?,
    activation: ClampRange
) -> [Float] {
    let mult = g.outputChannels / g.inputChannels
    return naiveWindowSum(g, bias: bias, activation: activation) { pixel, ky, kx, o in
        Double(input[pixel * g.inputChannels + o / mult])
            * Double(filter[(ky * g.kernelWidth + kx) * g.outputChannels + o])
    }
}

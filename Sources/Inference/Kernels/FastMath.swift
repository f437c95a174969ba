// Vectorised transcendental functions for the elementwise kernels (accurate to a few ulp).

/// e^x for eight lanes: Cody–Waite range reduction and a degree-6 polynomial (Cephes' expf
/// coefficients), 2^n built in the exponent bits. Inputs are clamped to [-87.3, 88], so the
/// result never overflows to infinity; below that range it flushes towards the smallest normal.
@inline(__always)
func vectorExp(_ input: SIMD8<Float>) -> SIMD8<Float> {
    let x = lanewiseMin(lanewiseMax(input, SIMD8(repeating: -87.3)), SIMD8(repeating: 88.0))
    // Round x·log2(e) to an integer n with the 1.5·2^23 trick; the low bits of t then hold n + 127.
    let magic = SIMD8<Float>(repeating: 12_582_912 + 127)
    let t = x * 1.442_695_04 + magic
    let n = t - magic
    var r = x - n * 0.693_359_375
    r = r + n * 2.121_944_4e-4
    var p = SIMD8<Float>(repeating: 1.987_569_15e-4)
    p = p * r + 1.398_199_95e-3
    p = p * r + 8.333_451_9e-3
    p = p * r + 4.166_579_59e-2
    p = p * r + 1.666_666_55e-1
    p = p * r + 5.000_000_12e-1
    let y = p * (r * r) + r + 1
    let bits = unsafeBitCast(t, to: SIMD8<UInt32>.self) &<< 23
    return y * unsafeBitCast(bits, to: SIMD8<Float>.self)
}

/// e^x for one value, with the same algorithm as `vectorExp` (so tails match the vector body).
@inline(__always)
func scalarExp(_ x: Float) -> Float {
    vectorExp(SIMD8(repeating: x))[0]
}

/// 1 / (1 + e^-x) for eight lanes, with -x kept within [-80, 87] so that no step computes or returns a
/// subnormal number (tens of cycles a lane on x86; a segmentation mask's confident pixels, on either
/// side): above 80, 1 + e^-80 is already exactly 1; below -87 the result is at most 1.7e-38 instead of a
/// smaller positive number.
@inline(__always)
func vectorLogistic(_ x: SIMD8<Float>) -> SIMD8<Float> {
    1 / (1 + vectorExp(lanewiseMin(lanewiseMax(-x, SIMD8(repeating: -80)), SIMD8(repeating: 87))))
}

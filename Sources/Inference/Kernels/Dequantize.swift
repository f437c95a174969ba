// DEQUANTIZE of constant tensors: IEEE half → float, and affine int8/uint8 → float.

import VisionErrors

/// Widens one IEEE 754 binary16 value (bits) to Float, exactly (subnormals, infinities, NaN).
func floatFromHalf(_ h: UInt16) -> Float {
    let sign = UInt32(h & 0x8000) << 16
    let exponent = Int(h >> 10) & 0x1F
    let mantissa = UInt32(h & 0x3FF)
    if exponent == 0 {
        // Zero or subnormal: mantissa · 2^-24.
        let value = Float(mantissa) * 0x1p-24
        return sign == 0 ? value : -value
    }
    if exponent == 0x1F {
        return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
    }
    return Float(bitPattern: sign | UInt32(exponent + 112) << 23 | (mantissa << 13))
}

/// Dequantises integer values with per-tensor or per-channel (along `quantization.axis` of `shape`) scales.
func dequantize<T: FixedWidthInteger>(_ values: [T], shape: [Int], quantization q: Quantization)
    throws(VisionTasksError)
    -> [Float]
{
    try require(!q.scales.isEmpty, "quantized tensor has no scale")
    // A scale that is not a finite number makes its weights NaN or infinite, which the kernels' clamps and maxima
    // would turn into plausible numbers: the model is refused, as a NaN float weight is.
    if let bad = q.scales.firstIndex(where: { !$0.isFinite }) {
        throw .invalidModel(
            "quantization scale \(bad) is \(q.scales[bad]), not a finite number: its weights are corrupt")
    }
    try require(
        q.zeroPoints.isEmpty || q.zeroPoints.count == q.scales.count,
        "quantization has \(q.scales.count) scales and \(q.zeroPoints.count) zero points")
    // A zero point is a value of the element type (TFLite's rule), so `value - zero point` cannot overflow.
    let range = Int(T.min)...Int(T.max)
    try require(
        T.bitWidth < Int.bitWidth && q.zeroPoints.allSatisfy { range.contains($0) },
        "zero points \(q.zeroPoints.prefix(4)) are not \(T.self) values")
    if q.scales.count == 1 {
        let s = q.scales[0], z = q.zeroPoints.first ?? 0
        return values.map { Float(Int($0) - z) * s }
    }
    try require(
        q.axis >= 0 && q.axis < shape.count && shape[q.axis] == q.scales.count,
        "\(q.scales.count) scales along axis \(q.axis) of shape \(shape)")
    let inner = shape[(q.axis + 1)...].reduce(1, *)
    let channels = q.scales.count
    return values.enumerated().map { i, v in
        let ch = (i / inner) % channels
        return Float(Int(v) - (q.zeroPoints.isEmpty ? 0 : q.zeroPoints[ch])) * q.scales[ch]
    }
}

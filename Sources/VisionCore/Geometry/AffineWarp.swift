import Foundation

// MediaPipe's InverseMatrixCalculator + WarpAffineCalculator on the CPU (OpenCV's warpAffine with
// bilinear interpolation and a zero border): how a model-space mask goes back over the image.

/// The inverse of a row-major 4×4 affine matrix that maps the plane (x, y) and scales z (the form
/// `ImageToTensor` returns): nil when it is singular or not of that form.
public func inverseAffineMatrix(_ m: [Float]) -> [Float]? {
    guard m.count == 16, m[2] == 0, m[6] == 0, m[8] == 0, m[9] == 0, m[11] == 0,
        m[12] == 0, m[13] == 0, m[14] == 0, m[15] == 1
    else { return nil }
    let a = Double(m[0]), b = Double(m[1]), c = Double(m[3]), d = Double(m[4]), e = Double(m[5]), f = Double(m[7])
    let det = a * e - b * d
    guard det != 0, det.isFinite, m[10] != 0 else { return nil }
    let ia = e / det, ib = -b / det, id = -d / det, ie = a / det
    return [
        Float(ia), Float(ib), 0, Float(-(ia * c + ib * f)),
        Float(id), Float(ie), 0, Float(-(id * c + ie * f)),
        0, 0, 1 / m[10], 0,
        0, 0, 0, 1,
    ]
}

/// Warps a single-channel float image (`source`, `sourceWidth`×`sourceHeight`, row-major) to an
/// `outputWidth`×`outputHeight` image through `matrix`, a row-major 4×4 matrix mapping normalized
/// output coordinates to normalized source coordinates, as MediaPipe's WarpAffineCalculator does on
/// the CPU: the matrix scaled to pixels (no half-pixel shift), then OpenCV's `warpAffine` with an
/// inverse map, bilinear weights on a 1/32-pixel grid and zero outside the source.
public func warpAffineBilinear(
    _ source: UnsafeBufferPointer<Float>, sourceWidth: Int, sourceHeight: Int,
    matrix t: [Float], outputWidth: Int, outputHeight: Int
) -> [Float] {
    precondition(source.count == sourceWidth * sourceHeight && t.count == 16, "warpAffineBilinear: sizes do not fit")
    guard outputWidth > 0, outputHeight > 0 else { return [] }
    // transform_absolute = scale_src · T · normalize_dst, in single precision.
    let sw = Float(sourceWidth), sh = Float(sourceHeight)
    let nw = 1 / Float(outputWidth), nh = 1 / Float(outputHeight)
    let m = [
        Double(sw * t[0] * nw), Double(sw * t[1] * nh), Double(sw * t[3]),
        Double(sh * t[4] * nw), Double(sh * t[5] * nh), Double(sh * t[7]),
    ]
    let abScale = 1024.0, interBits = 5, tabSize = 32
    let roundDelta = 16
    /// OpenCV's saturate_cast<int>(double): nearest, ties to even, clamped.
    func cvRound(_ v: Double) -> Int {
        guard v.isFinite else { return v > 0 ? Int(Int32.max) : Int(Int32.min) }
        return Int(max(Double(Int32.min), min(Double(Int32.max), v.rounded(.toNearestOrEven))))
    }
    var tab = [Float](repeating: 0, count: tabSize)
    for i in 0..<tabSize { tab[i] = Float(i) * (1 / Float(tabSize)) }
    let aDelta = (0..<outputWidth).map { cvRound(m[0] * Double($0) * abScale) }
    let bDelta = (0..<outputWidth).map { cvRound(m[3] * Double($0) * abScale) }
    var out = [Float](repeating: 0, count: outputWidth * outputHeight)
    let (w, h) = (sourceWidth, sourceHeight)
    out.withUnsafeMutableBufferPointer { out in
        aDelta.withUnsafeBufferPointer { aDelta in
            bDelta.withUnsafeBufferPointer { bDelta in
                tab.withUnsafeBufferPointer { tab in
                    for y in 0..<outputHeight {
                        let x0 = cvRound((m[1] * Double(y) + m[2]) * abScale) + roundDelta
                        let y0 = cvRound((m[4] * Double(y) + m[5]) * abScale) + roundDelta
                        let row = y * outputWidth
                        for x in 0..<outputWidth {
                            let sxFixed = (x0 + aDelta[x]) >> (10 - interBits)
                            let syFixed = (y0 + bDelta[x]) >> (10 - interBits)
                            let sx = sxFixed >> interBits, sy = syFixed >> interBits
                            if sx >= w || sx + 1 < 0 || sy >= h || sy + 1 < 0 { continue }
                            let fx = tab[sxFixed & (tabSize - 1)], fy = tab[syFixed & (tabSize - 1)]
                            let w0 = (1 - fy) * (1 - fx), w1 = (1 - fy) * fx, w2 = fy * (1 - fx), w3 = fy * fx
                            let v00, v01, v10, v11: Float
                            if sx >= 0 && sx + 1 < w && sy >= 0 && sy + 1 < h {
                                let i = sy * w + sx
                                (v00, v01, v10, v11) = (source[i], source[i + 1], source[i + w], source[i + w + 1])
                            } else {
                                // At the edge: neighbours outside the source are zero.
                                func tap(_ px: Int, _ py: Int) -> Float {
                                    px >= 0 && px < w && py >= 0 && py < h ? source[py * w + px] : 0
                                }
                                (v00, v01, v10, v11) = (
                                    tap(sx, sy), tap(sx + 1, sy), tap(sx, sy + 1), tap(sx + 1, sy + 1)
                                )
                            }
                            out[row + x] = v00 * w0 + v01 * w1 + v10 * w2 + v11 * w3
                        }
                    }
                }
            }
        }
    }
    return out
}

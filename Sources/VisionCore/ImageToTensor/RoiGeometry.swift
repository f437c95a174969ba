import Foundation

extension RotatedRect {
    /// Grows the rectangle to the aspect ratio of a `tensorWidth` x `tensorHeight` tensor, keeping
    /// its centre, and returns the padding that adds to the tensor (MediaPipe's `PadRoi`).
    public mutating func padToAspectRatio(tensorWidth: Int, tensorHeight: Int) -> LetterboxPadding {
        let tensorAspect = Float(tensorHeight) / Float(tensorWidth)
        let roiAspect = height / width
        if tensorAspect > roiAspect {
            let vertical = (1 - roiAspect / tensorAspect) / 2
            height = width * tensorAspect
            return LetterboxPadding(left: 0, top: vertical, right: 0, bottom: vertical)
        } else {
            let horizontal = (1 - tensorAspect / roiAspect) / 2
            width = height / tensorAspect
            return LetterboxPadding(left: horizontal, top: 0, right: horizontal, bottom: 0)
        }
    }

    /// MediaPipe's row-major 4x4 matrix taking a point normalised to this rectangle (0...1 along
    /// its own axes) to the image's normalised coordinates (`GetRotatedSubRectToRectTransformMatrix`).
    public func subRectToImageMatrix(imageWidth: Int, imageHeight: Int) -> [Float] {
        let a = width, b = height
        let c = cos(rotation), d = sin(rotation)
        let e = centerX, f = centerY
        let g = 1 / Float(imageWidth), h = 1 / Float(imageHeight)
        return [
            a * c * g, -b * d * g, 0, (-0.5 * a * c + 0.5 * b * d + e) * g,
            a * d * h, b * c * h, 0, (-0.5 * b * c - 0.5 * a * d + f) * h,
            0, 0, a * g, 0,
            0, 0, 0, 1,
        ]
    }

    /// The four corners as OpenCV 5's `boxPoints` computes them in single precision (bottom-left,
    /// top-left, top-right, bottom-right for an unrotated rectangle; each corner from the centre
    /// directly, which is what opencv-python 5 returns bit for bit).
    func openCVCorners() -> [(x: Float, y: Float)] {
        // cv::RotatedRect takes degrees: rotation * 180.f / M_PI, the division in double.
        let degrees = Float(Double(rotation * 180) / Double.pi)
        let angle = Double(degrees) * Double.pi / 180
        let b = Float(cos(angle)) * 0.5
        let a = Float(sin(angle)) * 0.5
        return [
            (centerX - a * height - b * width, centerY + b * height - a * width),
            (centerX + a * height - b * width, centerY - b * height - a * width),
            (centerX + a * height + b * width, centerY - b * height + a * width),
            (centerX - a * height + b * width, centerY + b * height + a * width),
        ]
    }
}

/// The 3x3 homography (row-major, last entry 1) taking each `from` point to the `to` point,
/// solved in double precision (from single-precision products) by Gaussian elimination with partial pivoting, as OpenCV's
/// `getPerspectiveTransform`. Returns nil when the points are degenerate.
func perspectiveTransform(from: [(x: Float, y: Float)], to: [(x: Float, y: Float)]) -> [Double]? {
    var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
    for i in 0..<4 {
        let (x, y) = from[i], (u, v) = to[i]
        // The products are single precision, as OpenCV forms them from its float points.
        let (dx, dy) = (Double(x), Double(y))
        a[i] = [dx, dy, 1, 0, 0, 0, Double(-(x * u)), Double(-(y * u)), Double(u)]
        a[i + 4] = [0, 0, 0, dx, dy, 1, Double(-(x * v)), Double(-(y * v)), Double(v)]
    }
    // Elimination with the pivot's negated reciprocal, back substitution dividing by the pivot,
    // in the order of OpenCV's LU solver (a reciprocal there instead changes the last bit, and
    // with it the rounding of source positions that fall exactly between two 1/32 steps).
    for column in 0..<8 {
        var pivot = column
        for row in column + 1..<8 where abs(a[row][column]) > abs(a[pivot][column]) {
            pivot = row
        }
        guard abs(a[pivot][column]) > 1e-300 else { return nil }
        if pivot != column { a.swapAt(pivot, column) }
        let d = -1 / a[column][column]
        for row in column + 1..<8 {
            let alpha = a[row][column] * d
            for k in column + 1..<9 {
                a[row][k] += alpha * a[column][k]
            }
        }
    }
    var solution = [Double](repeating: 0, count: 8)
    for row in stride(from: 7, through: 0, by: -1) {
        var sum = a[row][8]
        for k in row + 1..<8 {
            sum -= a[row][k] * solution[k]
        }
        solution[row] = sum / a[row][row]
    }
    return solution + [1]
}

/// The inverse of a row-major 3x3 matrix by cofactors, in double precision; nil when singular.
func invert3x3(_ m: [Double]) -> [Double]? {
    let c00 = m[4] * m[8] - m[5] * m[7]
    let c01 = m[5] * m[6] - m[3] * m[8]
    let c02 = m[3] * m[7] - m[4] * m[6]
    let det = m[0] * c00 + m[1] * c01 + m[2] * c02
    guard det != 0, det.isFinite else { return nil }
    let s = 1 / det
    return [
        c00 * s, (m[2] * m[7] - m[1] * m[8]) * s, (m[1] * m[5] - m[2] * m[4]) * s,
        c01 * s, (m[0] * m[8] - m[2] * m[6]) * s, (m[2] * m[3] - m[0] * m[5]) * s,
        c02 * s, (m[1] * m[6] - m[0] * m[7]) * s, (m[0] * m[4] - m[1] * m[3]) * s,
    ]
}

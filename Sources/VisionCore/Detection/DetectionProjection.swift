import Foundation
import VisionErrors

/// A 2-D affine map of normalized points, `x' = m00·x + m01·y + m02`, `y' = m10·x + m11·y + m12`:
/// the top rows of the 4×4 matrix MediaPipe's `ImageToTensorCalculator` emits, which take a point
/// of the model's input tensor (fractions of its size) to the same point of the image.
public struct NormalizedProjection: Sendable, Equatable {
    /// Row 0: x scale / rotation, y shear / rotation, translation.
    public var m00: Float, m01: Float, m02: Float
    /// Row 1.
    public var m10: Float, m11: Float, m12: Float

    /// Creates a projection from its six coefficients.
    public init(m00: Float, m01: Float, m02: Float, m10: Float, m11: Float, m12: Float) {
        (self.m00, self.m01, self.m02, self.m10, self.m11, self.m12) = (m00, m01, m02, m10, m11, m12)
    }

    /// The projection in MediaPipe's 4×4 row-major matrix (as `ImageToTensorTransform.matrix` gives
    /// it). Throws `invalidArgument` unless it has 16 finite values.
    public init(matrix: [Float]) throws {
        guard matrix.count == 16, matrix.allSatisfy(\.isFinite) else {
            throw VisionTasksError.invalidArgument("a projection matrix needs 16 finite values; got \(matrix)")
        }
        self.init(m00: matrix[0], m01: matrix[1], m02: matrix[3], m10: matrix[4], m11: matrix[5], m12: matrix[7])
    }

    /// Applies the map to a point.
    @inlinable
    public func apply(_ p: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(p.x * m00 + p.y * m01 + m02, p.x * m10 + p.y * m11 + m12)
    }
}

/// Projects a detection through `projection` as MediaPipe's `DetectionProjectionCalculator` does:
/// keypoints mapped; the box becomes the axis-aligned box around its four mapped corners.
public func projectDetection(_ detection: RelativeDetection, _ projection: NormalizedProjection) -> RelativeDetection {
    var out = detection
    for k in out.keypoints.indices {
        out.keypoints[k] = projection.apply(out.keypoints[k])
    }
    let x0 = detection.xMin, y0 = detection.yMin
    let x1 = x0 + detection.width, y1 = y0 + detection.height
    let corners = [
        projection.apply(SIMD2(x0, y0)), projection.apply(SIMD2(x1, y0)),
        projection.apply(SIMD2(x1, y1)), projection.apply(SIMD2(x0, y1)),
    ]
    var low = SIMD2<Float>(repeating: .greatestFiniteMagnitude)
    var high = SIMD2<Float>(repeating: -.greatestFiniteMagnitude)
    for p in corners {
        low = SIMD2(min(low.x, p.x), min(low.y, p.y))
        high = SIMD2(max(high.x, p.x), max(high.y, p.y))
    }
    out.xMin = low.x
    out.yMin = low.y
    out.width = high.x - low.x
    out.height = high.y - low.y
    return out
}

extension RelativeDetection {
    /// The box in whole pixels of an image of the given size, as MediaPipe's
    /// `DetectionTransformationCalculator` makes it: each of left, top, width and height scaled by the
    /// image size, truncated toward zero, then clamped to [0, image size].
    public func pixelBox(imageWidth: Int, imageHeight: Int) -> CGRect {
        CGRect(
            x: truncatedClamped(xMin * Float(imageWidth), upperBound: imageWidth),
            y: truncatedClamped(yMin * Float(imageHeight), upperBound: imageHeight),
            width: truncatedClamped(width * Float(imageWidth), upperBound: imageWidth),
            height: truncatedClamped(height * Float(imageHeight), upperBound: imageHeight))
    }
}

/// `min(Int(value), upperBound)` floored at 0, with NaN giving 0 and infinities clamped (no trap).
private func truncatedClamped(_ value: Float, upperBound: Int) -> Int {
    if value.isNaN { return 0 }
    let bounded = min(max(value, -1), Float(upperBound))
    return max(0, min(Int(bounded), upperBound))
}

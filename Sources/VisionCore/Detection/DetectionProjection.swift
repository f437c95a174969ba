import Foundation
import TFLite

/// A 2-D affine map of normalized points, `x' = m00·x + m01·y + m02`, `y' = m10·x + m11·y + m12`:
/// the top two rows of the 4×4 matrix MediaPipe's `ImageToTensorCalculator` emits, which take a point
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

    /// The map from a tensor filled with the rotated rectangle `(centerX, centerY, width, height,
    /// rotation)` of an image (pixels, radians) back to the image's normalized coordinates, computed as
    /// MediaPipe's `GetRotatedSubRectToRectTransformMatrix` does.
    public init(centerX: Float, centerY: Float, width: Float, height: Float, rotation: Float,
                imageWidth: Int, imageHeight: Int, flipHorizontally: Bool = false) {
        let a = width, b = height
        let flip: Float = flipHorizontally ? -1 : 1
        let c = cosf(rotation), d = sinf(rotation)
        let e = centerX, f = centerY
        let g = 1 / Float(imageWidth), h = 1 / Float(imageHeight)
        m00 = a * c * flip * g
        m01 = -b * d * g
        m02 = (-0.5 * a * c * flip + 0.5 * b * d + e) * g
        m10 = a * d * flip * h
        m11 = b * c * h
        m12 = (-0.5 * b * c - 0.5 * a * d * flip + f) * h
    }

    /// The projection for a whole image letterboxed (aspect ratio kept, zero borders) into a
    /// `tensorWidth`×`tensorHeight` tensor, as MediaPipe's `PadRoi` widens the image's rectangle.
    /// Throws `invalidArgument` for an empty image or tensor.
    public static func letterbox(imageWidth: Int, imageHeight: Int,
                                 tensorWidth: Int, tensorHeight: Int) throws -> NormalizedProjection {
        guard imageWidth > 0, imageHeight > 0, tensorWidth > 0, tensorHeight > 0 else {
            throw VisionTasksError.invalidArgument(
                "letterbox needs positive sizes; got image \(imageWidth)×\(imageHeight), tensor \(tensorWidth)×\(tensorHeight)")
        }
        var width = Float(imageWidth), height = Float(imageHeight)
        let tensorAspect = Float(tensorHeight) / Float(tensorWidth)
        let roiAspect = height / width
        if tensorAspect > roiAspect {
            height = width * tensorAspect
        } else {
            width = height / tensorAspect
        }
        return NormalizedProjection(centerX: 0.5 * Float(imageWidth), centerY: 0.5 * Float(imageHeight),
                                    width: width, height: height, rotation: 0,
                                    imageWidth: imageWidth, imageHeight: imageHeight)
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
    let corners = [projection.apply(SIMD2(x0, y0)), projection.apply(SIMD2(x1, y0)),
                   projection.apply(SIMD2(x1, y1)), projection.apply(SIMD2(x0, y1))]
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

/// A box in whole pixels.
public struct PixelBox: Sendable, Equatable {
    /// Left edge in pixels.
    public var originX: Int
    /// Top edge in pixels.
    public var originY: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a pixel box.
    public init(originX: Int, originY: Int, width: Int, height: Int) {
        (self.originX, self.originY, self.width, self.height) = (originX, originY, width, height)
    }

    /// The pixel box of a relative box in an image of the given size, as MediaPipe's
    /// `DetectionTransformationCalculator` makes it: each of left, top, width and height scaled by the
    /// image size, truncated toward zero, then clamped to [0, image size].
    public init(_ detection: RelativeDetection, imageWidth: Int, imageHeight: Int) {
        originX = truncatedClamped(detection.xMin * Float(imageWidth), upperBound: imageWidth)
        originY = truncatedClamped(detection.yMin * Float(imageHeight), upperBound: imageHeight)
        width = truncatedClamped(detection.width * Float(imageWidth), upperBound: imageWidth)
        height = truncatedClamped(detection.height * Float(imageHeight), upperBound: imageHeight)
    }
}

/// `min(Int(value), upperBound)` floored at 0, with NaN giving 0 and infinities clamped (no trap).
private func truncatedClamped(_ value: Float, upperBound: Int) -> Int {
    if value.isNaN { return 0 }
    let bounded = min(max(value, -1), Float(upperBound))
    return max(0, min(Int(bounded), upperBound))
}

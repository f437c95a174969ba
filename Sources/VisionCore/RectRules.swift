import Foundation

// MediaPipe's DetectionsToRectsCalculator and RectTransformationCalculator: how a detection (or a
// set of landmarks) becomes the rotated region of interest the next model looks at.

/// Wraps an angle in radians into [-π, π), computed in double precision as MediaPipe does.
public func normalizeRadians(_ angle: Float) -> Float {
    let a = Double(angle)
    return Float(a - 2 * Double.pi * (((a + Double.pi) / (2 * Double.pi)).rounded(.down)))
}

/// The unrotated rect around a relative bounding box (MediaPipe's `RectFromBox`).
public func rectFromBox(xMin: Float, yMin: Float, width: Float, height: Float) -> NormalizedRect {
    NormalizedRect(xCenter: xMin + width / 2, yCenter: yMin + height / 2, width: width, height: height)
}

/// The rotation that turns the vector from `start` to `end` (normalized image points) to
/// `targetAngle` radians, measured in pixels of an image `imageWidth`×`imageHeight`
/// (MediaPipe's `DetectionsToRectsCalculator::ComputeRotation`).
public func rotation(
    from start: SIMD2<Float>, to end: SIMD2<Float>, targetAngle: Float,
    imageWidth: Int, imageHeight: Int
) -> Float {
    let x0 = start.x * Float(imageWidth), y0 = start.y * Float(imageHeight)
    let x1 = end.x * Float(imageWidth), y1 = end.y * Float(imageHeight)
    return normalizeRadians(targetAngle - atan2f(-(y1 - y0), x1 - x0))
}

/// The least and greatest x and y of a set of points. The maxima start at `maximaStart`: by default
/// the smallest positive float, as MediaPipe's landmark calculators (`LandmarksToDetectionCalculator`,
/// `HandLandmarksToRectCalculator`) start them.
public func bounds(
    of points: [SIMD3<Float>], maximaStart: Float = .leastNormalMagnitude
) -> (xMin: Float, yMin: Float, xMax: Float, yMax: Float) {
    var xMin = Float.greatestFiniteMagnitude, yMin = Float.greatestFiniteMagnitude
    var xMax = maximaStart, yMax = maximaStart
    for p in points {
        xMin = min(xMin, p.x)
        xMax = max(xMax, p.x)
        yMin = min(yMin, p.y)
        yMax = max(yMax, p.y)
    }
    return (xMin, yMin, xMax, yMax)
}

/// The relative bounding box of a set of normalized points, as MediaPipe's
/// `LandmarksToDetectionCalculator` computes it (`bounds(of:)`).
public func boundingBox(of points: [SIMD3<Float>]) -> (xMin: Float, yMin: Float, width: Float, height: Float) {
    let b = bounds(of: points)
    return (b.xMin, b.yMin, b.xMax - b.xMin, b.yMax - b.yMin)
}

/// The rotated rect around landmarks: their bounding box, rotated so that the vector from landmark
/// `rotationStart` to landmark `rotationEnd` lies at `targetAngle` (MediaPipe's landmarks →
/// detection → rect path used for tracking). Returns nil when an index is out of range.
public func rectFromLandmarks(
    _ landmarks: [SIMD3<Float>], rotationStart: Int, rotationEnd: Int,
    targetAngle: Float, imageWidth: Int, imageHeight: Int
) -> NormalizedRect? {
    guard landmarks.indices.contains(rotationStart), landmarks.indices.contains(rotationEnd) else { return nil }
    let box = boundingBox(of: landmarks)
    var rect = rectFromBox(xMin: box.xMin, yMin: box.yMin, width: box.width, height: box.height)
    let s = landmarks[rotationStart], e = landmarks[rotationEnd]
    rect.rotation = rotation(
        from: SIMD2(s.x, s.y), to: SIMD2(e.x, e.y), targetAngle: targetAngle,
        imageWidth: imageWidth, imageHeight: imageHeight)
    return rect
}

/// MediaPipe's `RectTransformationCalculator` on a normalized rect: shift along the rect's own axes,
/// optionally square it on its long or short side (in pixels), then scale.
public struct RectTransformation: Sendable, Equatable {
    /// Scale of the side that lies along the rect's x axis.
    public var scaleX: Float
    /// Scale of the side that lies along the rect's y axis.
    public var scaleY: Float
    /// Shift along the rect's x axis, a fraction of its width.
    public var shiftX: Float
    /// Shift along the rect's y axis, a fraction of its height.
    public var shiftY: Float
    /// Make the rect a square with the side of its longer side (in pixels) before scaling.
    public var squareLong: Bool
    /// Make the rect a square with the side of its shorter side (in pixels) before scaling.
    public var squareShort: Bool

    /// Creates a transformation; the defaults leave a rect unchanged.
    public init(
        scaleX: Float = 1, scaleY: Float = 1, shiftX: Float = 0, shiftY: Float = 0,
        squareLong: Bool = false, squareShort: Bool = false
    ) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.shiftX = shiftX
        self.shiftY = shiftY
        self.squareLong = squareLong
        self.squareShort = squareShort
    }

    /// Applies the transformation to `rect` in an image of `imageWidth`×`imageHeight` pixels.
    public func apply(to rect: NormalizedRect, imageWidth: Int, imageHeight: Int) -> NormalizedRect {
        var out = rect
        var width = rect.width, height = rect.height
        let w = Float(imageWidth), h = Float(imageHeight)
        if rect.rotation == 0 {
            out.xCenter += width * shiftX
            out.yCenter += height * shiftY
        } else {
            let c = cosf(rect.rotation), s = sinf(rect.rotation)
            out.xCenter += (w * width * shiftX * c - h * height * shiftY * s) / w
            out.yCenter += (w * width * shiftX * s + h * height * shiftY * c) / h
        }
        if squareLong {
            let side = max(width * w, height * h)
            width = side / w
            height = side / h
        } else if squareShort {
            let side = min(width * w, height * h)
            width = side / w
            height = side / h
        }
        out.width = width * scaleX
        out.height = height * scaleY
        return out
    }
}

/// The rotated rect of a detection: its box, rotated so the vector from keypoint `rotationStart`
/// to keypoint `rotationEnd` lies at `targetAngle` (MediaPipe's `DetectionsToRectsCalculator` with
/// rotation keypoints). Returns nil when a keypoint index is out of range.
///
/// The rect's width (along its own rotated x axis) is the box's extent along the image's x axis.
/// MediaPipe measures the box in the stored pixels; when they are a quarter turn from the upright
/// image the detection is in (`storedAxesSwapped`), the rect takes the box's height in pixels as
/// its width and its width as its height, so that it is the rect MediaPipe crops.
public func rectFromDetection(
    _ detection: RelativeDetection, rotationStart: Int, rotationEnd: Int,
    targetAngle: Float, imageWidth: Int, imageHeight: Int,
    storedAxesSwapped: Bool = false
) -> NormalizedRect? {
    let k = detection.keypoints
    guard k.indices.contains(rotationStart), k.indices.contains(rotationEnd) else { return nil }
    var rect = rectFromBox(xMin: detection.xMin, yMin: detection.yMin, width: detection.width, height: detection.height)
    if storedAxesSwapped {
        let aspect = Float(imageHeight) / Float(imageWidth)
        (rect.width, rect.height) = (detection.height * aspect, detection.width / aspect)
    }
    rect.rotation = rotation(
        from: k[rotationStart], to: k[rotationEnd], targetAngle: targetAngle,
        imageWidth: imageWidth, imageHeight: imageHeight)
    return rect
}

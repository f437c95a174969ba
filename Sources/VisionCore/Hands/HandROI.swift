import Foundation

// The hand's region of interest, the rotated square the landmark model looks at: from a palm
// detection (DetectionsToRects + RectTransformation in MediaPipe's hand detector graph) or from the
// previous frame's landmarks (HandLandmarksToRectCalculator + RectTransformation in the hand
// landmarks detector graph).

/// The number of landmarks of a hand.
public let handLandmarkCount = 21

/// The hand ROI grown from a palm detection in normalized image coordinates: the palm box, rotated
/// so that wrist → middle-finger MCP points at MediaPipe's target angle, then shifted, squared and
/// scaled. Returns nil when the detection lacks the two keypoints. `storedAxesSwapped`: the image's
/// stored pixels are a quarter turn from upright (see `rectFromDetection`).
public func handRect(
    fromPalm palm: RelativeDetection, imageWidth: Int, imageHeight: Int,
    storedAxesSwapped: Bool = false
) -> NormalizedRect? {
    guard
        let rect = rectFromDetection(
            palm, rotationStart: PalmDetection.rotationStartKeypoint,
            rotationEnd: PalmDetection.rotationEndKeypoint,
            targetAngle: PalmDetection.rotationTargetAngle,
            imageWidth: imageWidth, imageHeight: imageHeight,
            storedAxesSwapped: storedAxesSwapped)
    else { return nil }
    return PalmDetection.palmToHandTransformation.apply(to: rect, imageWidth: imageWidth, imageHeight: imageHeight)
}

/// How MediaPipe turns a hand's landmarks into the next frame's ROI.
public enum HandLandmarksROI {
    /// The landmarks MediaPipe keeps for the rect: wrist, the thumb's first joints and the MCP and
    /// PIP joints of the four fingers.
    public static let partialIndices = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18]
    /// The landmarks' rect is squared on its long side and doubled, shifted a tenth of its height
    /// towards the wrist.
    public static let transformation = RectTransformation(scaleX: 2.0, scaleY: 2.0, shiftY: -0.1, squareLong: true)
}

/// The rotated rect enclosing a hand's landmarks (MediaPipe's `HandLandmarksToRectCalculator`):
/// rotation from the wrist to the mean of the index, middle and ring PIP joints (target π/2), the
/// box of the partial landmarks measured in that rotated frame. Nil unless there are 21 landmarks.
public func handLandmarksRect(_ landmarks: [SIMD3<Float>], imageWidth: Int, imageHeight: Int) -> NormalizedRect? {
    guard landmarks.count == handLandmarkCount else { return nil }
    let points = HandLandmarksROI.partialIndices.map { landmarks[$0] }
    let w = Float(imageWidth), h = Float(imageHeight)
    // Within the partial list: wrist 0, index PIP 4, middle PIP 6, ring PIP 8.
    let x0 = points[0].x * w, y0 = points[0].y * h
    var x1 = (points[4].x + points[8].x) / 2
    var y1 = (points[4].y + points[8].y) / 2
    x1 = (x1 + points[6].x) / 2 * w
    y1 = (y1 + points[6].y) / 2 * h
    let targetAngle = Float.pi * 0.5
    let angle = normalizeRadians(targetAngle - atan2f(-(y1 - y0), x1 - x0))
    let reverse = normalizeRadians(-angle)

    let box = bounds(of: points)
    let centerX = (box.xMax + box.xMin) / 2, centerY = (box.yMax + box.yMin) / 2

    // The same box measured along the axes rotated by the angle, in pixels.
    let cr = cosf(reverse), sr = sinf(reverse)
    let rotated = bounds(
        of: points.map { p in
            let ox = (p.x - centerX) * w, oy = (p.y - centerY) * h
            return SIMD3(ox * cr - oy * sr, ox * sr + oy * cr, 0)
        })
    let projectedX = (rotated.xMax + rotated.xMin) / 2, projectedY = (rotated.yMax + rotated.yMin) / 2
    let c = cosf(angle), s = sinf(angle)
    let cx = projectedX * c - projectedY * s + w * centerX
    let cy = projectedX * s + projectedY * c + h * centerY
    return NormalizedRect(
        xCenter: cx / w, yCenter: cy / h, width: (rotated.xMax - rotated.xMin) / w,
        height: (rotated.yMax - rotated.yMin) / h,
        rotation: angle)
}

/// The ROI for the next frame from this frame's hand landmarks: `handLandmarksRect` grown by
/// `HandLandmarksROI.transformation`. Nil unless there are 21 landmarks.
public func handRect(fromLandmarks landmarks: [SIMD3<Float>], imageWidth: Int, imageHeight: Int) -> NormalizedRect? {
    guard let rect = handLandmarksRect(landmarks, imageWidth: imageWidth, imageHeight: imageHeight) else { return nil }
    return HandLandmarksROI.transformation.apply(to: rect, imageWidth: imageWidth, imageHeight: imageHeight)
}

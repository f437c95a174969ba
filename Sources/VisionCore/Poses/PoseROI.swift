import Foundation

// The person's region of interest, the rotated square the pose landmark model looks at: from a pose
// detection's two alignment keypoints (AlignmentPointsRectsCalculator + RectTransformation in the
// pose detector graph) or from the previous frame's two auxiliary landmarks (LandmarksToDetection +
// the same two steps in the pose landmarks detector graph).

/// The square (in pixels) centred on `center` whose side is twice the distance from `center` to
/// `scalePoint`, rotated so that the vector between them lies at `PoseDetection.rotationTargetAngle`
/// (MediaPipe's `AlignmentPointsRectsCalculator`); points are normalized image coordinates.
public func alignmentPointsRect(center: SIMD2<Float>, scalePoint: SIMD2<Float>, imageWidth: Int, imageHeight: Int)
    -> NormalizedRect
{
    let w = Float(imageWidth), h = Float(imageHeight)
    let xCenter = center.x * w, yCenter = center.y * h
    let xScale = scalePoint.x * w, yScale = scalePoint.y * h
    let dx = xScale - xCenter, dy = yScale - yCenter
    let boxSize = (dx * dx + dy * dy).squareRoot() * 2
    return NormalizedRect(
        xCenter: xCenter / w, yCenter: yCenter / h, width: boxSize / w, height: boxSize / h,
        rotation: rotation(
            from: center, to: scalePoint, targetAngle: PoseDetection.rotationTargetAngle,
            imageWidth: imageWidth, imageHeight: imageHeight))
}

/// The landmark model's ROI for a pose detection: its alignment rect grown by
/// `PoseDetection.rectTransformation`. Nil when the detection lacks the two keypoints.
public func poseRect(fromDetection detection: RelativeDetection, imageWidth: Int, imageHeight: Int) -> NormalizedRect? {
    let k = detection.keypoints
    guard k.count > max(PoseDetection.centerKeypoint, PoseDetection.scaleKeypoint) else { return nil }
    let rect = alignmentPointsRect(
        center: k[PoseDetection.centerKeypoint], scalePoint: k[PoseDetection.scaleKeypoint],
        imageWidth: imageWidth, imageHeight: imageHeight)
    return PoseDetection.rectTransformation.apply(to: rect, imageWidth: imageWidth, imageHeight: imageHeight)
}

/// The next frame's ROI from this frame's two auxiliary landmarks (centre, then scale point), as the
/// detection's keypoints give it. Nil unless there are two.
public func poseRect(fromAuxiliaryLandmarks points: [SIMD3<Float>], imageWidth: Int, imageHeight: Int)
    -> NormalizedRect?
{
    guard points.count == PoseLandmarksModel.auxiliaryLandmarkCount else { return nil }
    let rect = alignmentPointsRect(
        center: SIMD2(points[0].x, points[0].y), scalePoint: SIMD2(points[1].x, points[1].y),
        imageWidth: imageWidth, imageHeight: imageHeight)
    return PoseDetection.rectTransformation.apply(to: rect, imageWidth: imageWidth, imageHeight: imageHeight)
}

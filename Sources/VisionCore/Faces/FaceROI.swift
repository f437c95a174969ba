// MediaPipe's face landmarker graph (face_landmarker_graph.cc, face_landmarks_detector_graph.cc) as
// settings of the generic steps, named as HandLandmarksROI names the hand's: the face rect from a
// detection (with FaceDetection's settings), the next frame's rect from the landmarks, and the
// smoothing of a single tracked face.

/// How MediaPipe turns a face's landmarks into the next frame's rect.
public enum FaceLandmarksROI {
    /// Landmark that starts the rotation vector (right eye's outer corner).
    public static let rotationStartLandmark = 33
    /// Landmark that ends the rotation vector (left eye's outer corner).
    public static let rotationEndLandmark = 263
    /// The landmarks' box is squared on its long side and scaled 1.5×.
    public static let transformation = RectTransformation(scaleX: 1.5, scaleY: 1.5, squareLong: true)
    /// The One Euro filter MediaPipe smooths a single tracked face's landmarks with.
    public static let smoothing = (minCutoff: 0.05, beta: 80.0, derivateCutoff: 1.0)
}

/// A detection's face rect: its box turned so the eyes are level, scaled by 1.5 (MediaPipe's
/// face detector graph's expanded face rect). Nil when the detection lacks the eye keypoints.
/// `storedAxesSwapped`: the image's stored pixels are a quarter turn from upright (see `rectFromDetection`).
public func faceRect(
    fromDetection detection: RelativeDetection, imageWidth: Int, imageHeight: Int,
    storedAxesSwapped: Bool = false
) -> NormalizedRect? {
    rectFromDetection(
        detection, rotationStart: FaceDetection.rotationStartKeypoint,
        rotationEnd: FaceDetection.rotationEndKeypoint, targetAngle: FaceDetection.rotationTargetAngle,
        imageWidth: imageWidth, imageHeight: imageHeight, storedAxesSwapped: storedAxesSwapped
    )
    .map { FaceDetection.faceToRectTransformation.apply(to: $0, imageWidth: imageWidth, imageHeight: imageHeight) }
}

/// The next frame's rect from a face's landmarks: their bounding box turned so the eye corners are
/// level, squared on its long side and scaled by 1.5. Nil when the landmarks lack the eye corners.
public func faceRect(fromLandmarks landmarks: [SIMD3<Float>], imageWidth: Int, imageHeight: Int) -> NormalizedRect? {
    rectFromLandmarks(
        landmarks, rotationStart: FaceLandmarksROI.rotationStartLandmark,
        rotationEnd: FaceLandmarksROI.rotationEndLandmark, targetAngle: 0,
        imageWidth: imageWidth, imageHeight: imageHeight
    )
    .map { FaceLandmarksROI.transformation.apply(to: $0, imageWidth: imageWidth, imageHeight: imageHeight) }
}

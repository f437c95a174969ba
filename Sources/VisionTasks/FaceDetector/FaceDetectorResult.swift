/// What a face detector found in one image or frame.
public struct FaceDetectorResult: Codable, Sendable, Equatable {
    /// The faces, each with its score, its pixel box in the upright image and six normalized
    /// keypoints (right eye, left eye, nose tip, mouth, right ear tragion, left ear tragion).
    public let detections: [Detection]
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result.
    public init(detections: [Detection], timestampInMilliseconds: Int) {
        self.detections = detections
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}

/// What a face detector found in one image or frame.
public struct FaceDetectorResult: Codable, Sendable, Equatable {
    /// The faces, each with its score, its pixel box in the upright image and six normalized
    /// keypoints (right eye, left eye, nose tip, mouth, right ear tragion, left ear tragion).
    public let detections: [Detection]
    /// Each face's tracking id, parallel to `detections` (video and live stream; nil in image mode,
    /// and then absent from the JSON). See `FaceDetector` for how ids are kept and the faces ordered.
    public let trackingIds: [Int]?
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result.
    public init(detections: [Detection], trackingIds: [Int]? = nil, timestampInMilliseconds: Int) {
        self.detections = detections
        self.trackingIds = trackingIds
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}

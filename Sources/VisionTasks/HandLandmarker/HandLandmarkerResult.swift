/// What a hand landmarker found in one image or frame: per hand, its 21 landmarks in two spaces
/// and its handedness.
public struct HandLandmarkerResult: Codable, Sendable, Equatable {
    /// Per hand, 21 landmarks normalized to the upright image (z: depth relative to the wrist,
    /// at the scale of x).
    public let landmarks: [[NormalizedLandmark]]
    /// Per hand, the same 21 landmarks in metres, origin at the hand's centre.
    public let worldLandmarks: [[Landmark]]
    /// Per hand, "Left" or "Right" with its score (MediaPipe's labels; see `HandLandmarker`).
    public let handedness: [[ResultCategory]]
    /// Per hand, its tracking id, parallel to `landmarks` (video and live stream; nil in image mode,
    /// and then absent from the JSON). See `HandLandmarker` for how ids are kept and the hands ordered.
    public let trackingIds: [Int]?
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]], handedness: [[ResultCategory]],
        trackingIds: [Int]? = nil, timestampInMilliseconds: Int
    ) {
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.handedness = handedness
        self.trackingIds = trackingIds
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}

extension HandObservation {
    /// The landmarks as the public type.
    var normalizedLandmarks: [NormalizedLandmark] { landmarks.map { NormalizedLandmark(x: $0.x, y: $0.y, z: $0.z) } }
    /// The world landmarks as the public type.
    var publicWorldLandmarks: [Landmark] { worldLandmarks.map { Landmark(x: $0.x, y: $0.y, z: $0.z) } }
    /// The handedness as the public type.
    var handednessCategories: [ResultCategory] {
        [
            ResultCategory(
                index: handedness.index, score: handedness.score,
                categoryName: handedness.label, displayName: handedness.displayName)
        ]
    }
}

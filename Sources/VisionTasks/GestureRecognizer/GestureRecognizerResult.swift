/// What a gesture recognizer found in one image or frame: per hand, its gesture, handedness and
/// landmarks in two spaces.
public struct GestureRecognizerResult: Codable, Sendable, Equatable {
    /// The recognized gestures (index -1, as MediaPipe gives it; display name empty), one list per
    /// hand that got one, in hand order. As in MediaPipe, a hand whose classifier results were all
    /// filtered away (by `ClassifierOptions`) has no entry, so `gestures[i]` describes `handedness[i]`
    /// only when every hand got a gesture (`gestures.count == handedness.count`).
    public let gestures: [[ResultCategory]]
    /// Per hand, "Left" or "Right" with its score (MediaPipe's labels).
    public let handedness: [[ResultCategory]]
    /// Per hand, 21 landmarks normalized to the upright image.
    public let landmarks: [[NormalizedLandmark]]
    /// Per hand, the same 21 landmarks in metres, origin at the hand's centre.
    public let worldLandmarks: [[Landmark]]
    /// Per hand, its tracking id, parallel to `landmarks` (video and live stream; nil in image mode,
    /// and then absent from the JSON). See `HandLandmarker` for how ids are kept and the hands ordered.
    public let trackingIds: [Int]?
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        gestures: [[ResultCategory]], handedness: [[ResultCategory]], landmarks: [[NormalizedLandmark]],
        worldLandmarks: [[Landmark]], trackingIds: [Int]? = nil, timestampInMilliseconds: Int
    ) {
        self.trackingIds = trackingIds
        self.gestures = gestures
        self.handedness = handedness
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}

extension HandTrackingOptions {
    /// The options the Hand Landmarker and the Gesture Recognizer share, declared once: the
    /// initializers' defaults and every front end read them.
    public enum Declared {
        /// `numHands` and the hand detection, presence and tracking thresholds.
        public static let hands = LandmarkerDeclarations<HandTrackingOptions>(
            "hand", "hands", detectionHelp: "Palms scoring below this are not hands.", \.numHands,
            \.minHandDetectionConfidence, \.minHandPresenceConfidence, \.minTrackingConfidence)
    }
}

extension HandLandmarkerOptions {
    /// The Hand Landmarker as the CLI, the server and the docs describe it.
    public static let taskDescription = TaskDescription(
        name: "hand-landmarker", title: "Hand Landmarker",
        summary: "Find 21 hand landmarks (image and world coordinates) and the handedness of each hand.",
        modelHelp: "the hand landmarker bundle, hand_landmarker.task.",
        preferredModels: ["hand_landmarker.task"],
        options: Declared.hands.options,
        outputs: ["landmarks", "worldLandmarks", "handedness", "trackingIds"], foundNoun: "hands",
        connections: HandLandmarksConnections.sets)
}

extension HandLandmarksConnections {
    /// Every set by name, under `hand`, as the Hand Landmarker and the Gesture Recognizer declare them.
    static let sets = ConnectionSets(
        group: "hand",
        sets: [
            "hand": hand, "palm": palm, "thumb": thumb, "indexFinger": indexFinger, "middleFinger": middleFinger,
            "ringFinger": ringFinger, "pinky": pinky,
        ])
}

extension LiveStreamHandler: HandLandmarkerLiveStreamDelegate where Output == HandLandmarkerResult {
    /// Hands the landmarker's result to the handler.
    public func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        deliver(result, timestampInMilliseconds, error)
    }
}

// MediaPipe for iOS's connection accessors (class properties in MPPHandLandmarker.h), so iOS drawing code ports.
extension HandLandmarker {
    /// The palm (`HandLandmarksConnections.palm`).
    public static var handPalmConnections: [Connection] { HandLandmarksConnections.palm }
    /// The thumb (`HandLandmarksConnections.thumb`).
    public static var handThumbConnections: [Connection] { HandLandmarksConnections.thumb }
    /// The index finger (`HandLandmarksConnections.indexFinger`).
    public static var handIndexFingerConnections: [Connection] { HandLandmarksConnections.indexFinger }
    /// The middle finger (`HandLandmarksConnections.middleFinger`).
    public static var handMiddleFingerConnections: [Connection] { HandLandmarksConnections.middleFinger }
    /// The ring finger (`HandLandmarksConnections.ringFinger`).
    public static var handRingFingerConnections: [Connection] { HandLandmarksConnections.ringFinger }
    /// The pinky (`HandLandmarksConnections.pinky`).
    public static var handPinkyConnections: [Connection] { HandLandmarksConnections.pinky }
    /// The whole hand (`HandLandmarksConnections.hand`).
    public static var handConnections: [Connection] { HandLandmarksConnections.hand }
}

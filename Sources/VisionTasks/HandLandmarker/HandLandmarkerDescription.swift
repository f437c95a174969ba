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
        outputs: ["landmarks", "worldLandmarks", "handedness", "trackingIds"], foundNoun: "hands")
}

extension HandTrackingOptions {
    /// The options the Hand Landmarker and the Gesture Recognizer share, declared once: the
    /// initializers' defaults and every front end read them.
    public enum Declared {
        /// `numHands`.
        public static let numHands = DeclaredOption<HandTrackingOptions, Int>(
            "num-hands", property: "numHands", label: "Hands", help: "The most hands to find.", default: 1, minimum: 1,
            get: { $0.numHands }, set: { $0.numHands = $1 })
        /// `minHandDetectionConfidence`.
        public static let minHandDetectionConfidence = DeclaredOption<HandTrackingOptions, Float>(
            "min-hand-detection-confidence", property: "minHandDetectionConfidence", label: "Hand detection confidence",
            help: "Palms scoring below this are not hands.", default: 0.5, minimum: 0, maximum: 1,
            get: { $0.minHandDetectionConfidence }, set: { $0.minHandDetectionConfidence = $1 })
        /// `minHandPresenceConfidence`.
        public static let minHandPresenceConfidence = DeclaredOption<HandTrackingOptions, Float>(
            "min-hand-presence-confidence", property: "minHandPresenceConfidence", label: "Hand presence confidence",
            help: "Hands whose presence score is not above this are dropped.", default: 0.5, minimum: 0, maximum: 1,
            get: { $0.minHandPresenceConfidence }, set: { $0.minHandPresenceConfidence = $1 })
        /// `minTrackingConfidence`.
        public static let minTrackingConfidence = DeclaredOption<HandTrackingOptions, Float>(
            "min-tracking-confidence", property: "minTrackingConfidence", label: "Tracking confidence",
            help: "Overlap (IoU) above which a new detection is a tracked hand (video and live stream).",
            default: 0.5, minimum: 0, maximum: 1,
            get: { $0.minTrackingConfidence }, set: { $0.minTrackingConfidence = $1 })

        /// The four, in a settings panel's order.
        static let all = [numHands.option, minHandDetectionConfidence.option, minHandPresenceConfidence.option,
                          minTrackingConfidence.option]
    }
}

extension HandLandmarkerOptions {
    /// The Hand Landmarker as the CLI, the server and the docs describe it.
    public static let taskDescription = TaskDescription(
        name: "hand-landmarker", title: "Hand Landmarker",
        summary: "Find 21 hand landmarks (image and world coordinates) and the handedness of each hand.",
        modelHelp: "the hand landmarker bundle, hand_landmarker.task.",
        preferredModels: ["hand_landmarker.task"],
        options: Declared.all,
        outputs: ["landmarks", "worldLandmarks", "handedness", "trackingIds"], foundNoun: "hands")
}

extension HandLandmarkerOptions: DescribedOptions {}

extension HandLandmarker: DescribedTask {
    package static func defaultOptions(baseOptions: BaseOptions, runningMode: RunningMode) -> HandLandmarkerOptions {
        HandLandmarkerOptions(baseOptions: baseOptions, runningMode: runningMode)
    }
    package static func setLiveStreamHandler(_ handler: LiveStreamHandler<HandLandmarkerResult>?, of options: HandLandmarkerOptions) {
        options.handLandmarkerLiveStreamDelegate = handler
    }
    package static func foundCount(in result: HandLandmarkerResult) -> Int { result.landmarks.count }
}

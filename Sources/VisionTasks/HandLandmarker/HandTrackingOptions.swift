/// The options the Hand Landmarker and the Gesture Recognizer share: what the hand landmarker graph
/// needs, under the names of MediaPipe for iOS.
protocol HandTrackingOptions: AnyObject {
    /// The model and how it runs.
    var baseOptions: BaseOptions { get }
    /// How the task is fed.
    var runningMode: RunningMode { get }
    /// The most hands to find.
    var numHands: Int { get }
    /// Palms scoring below this are not hands.
    var minHandDetectionConfidence: Float { get }
    /// Hands whose presence score is not above this are dropped.
    var minHandPresenceConfidence: Float { get }
    /// The IoU above which a new hand is a tracked one.
    var minTrackingConfidence: Float { get }
}

extension HandLandmarkerOptions: HandTrackingOptions {}
extension GestureRecognizerOptions: HandTrackingOptions {}

extension HandTrackingOptions {
    /// Checks the options as MediaPipe does (`numHands` ≥ 1, confidences in [0, 1]; `invalidOption`
    /// naming the option) and gathers them for the hand landmarker graph.
    func handLandmarkerSettings() throws -> HandLandmarkerGraph.Settings {
        try OptionChecks.positive(numHands, "numHands")
        try OptionChecks.unitInterval(minHandDetectionConfidence, "minHandDetectionConfidence")
        try OptionChecks.unitInterval(minHandPresenceConfidence, "minHandPresenceConfidence")
        try OptionChecks.unitInterval(minTrackingConfidence, "minTrackingConfidence")
        return HandLandmarkerGraph.Settings(
            numHands: numHands, minHandDetectionConfidence: minHandDetectionConfidence,
            minHandPresenceConfidence: minHandPresenceConfidence, minTrackingConfidence: minTrackingConfidence,
            tracks: runningMode != .image, numThreads: baseOptions.numThreads)
    }
}

/// The options the Hand Landmarker and the Gesture Recognizer share (`HandLandmarkerOptions`,
/// `GestureRecognizerOptions`): what the hand landmarker graph needs, under the names of MediaPipe
/// for iOS.
public class HandTrackingOptions: VisionTaskOptions {
    /// The most hands to find (at least 1, default 1).
    public var numHands: Int = Declared.hands.count.defaultValue
    /// Palms scoring below this are not hands (0...1, default 0.5).
    public var minHandDetectionConfidence: Float = Declared.hands.minDetectionConfidence.defaultValue
    /// Hands whose presence score is not above this are dropped (0...1, default 0.5).
    public var minHandPresenceConfidence: Float = Declared.hands.minPresenceConfidence.defaultValue
    /// In video and live-stream mode, a newly detected hand whose ROI overlaps a tracked hand's by
    /// more than this IoU is the same hand (0...1, default 0.5).
    public var minTrackingConfidence: Float = Declared.hands.minTrackingConfidence.defaultValue

    /// Gathers the options for the hand landmarker graph (the task checked their ranges).
    package func handLandmarkerSettings() -> LandmarkerSettings {
        Declared.hands.settings(of: self)
    }
}

import TFLite
import VisionCore

/// One hand as the gesture recognizer graph saw it, before it becomes a result.
package struct GestureObservation {
    /// The hand as the hand landmarker graph found it.
    package var hand: HandObservation
    /// Its gesture, or nil when every classifier's results were filtered away.
    package var gesture: Classification?
}

/// MediaPipe's gesture recognizer graph over a gesture recognizer `.task` bundle: the hand
/// landmarker graph (tracking hands in video and live-stream mode), then the gesture classifier
/// graph on every hand it found.
///
/// Not thread-safe: it holds the hands' tracking state; callers serialize use (the task runner does).
package final class GestureRecognizerGraph: TaskGraph {
    /// The nested bundle holding the hand landmarker.
    package static let handLandmarkerEntry = "hand_landmarker.task"
    /// The nested bundle holding the gesture embedder and classifiers.
    package static let gestureRecognizerEntry = "hand_gesture_recognizer.task"

    private let hands: HandLandmarkerGraph
    private let gestures: GestureClassifierGraph

    /// Loads the hand landmarker and the gesture classifiers from the nested bundles of `bundle`
    /// (`name` names it in errors), the hands with `settings` and each classifier with its options.
    /// Throws `invalidBundle` naming a missing bundle or model, and the models' load errors.
    package init(
        bundle: ModelBundle, name: String, settings: LandmarkerSettings, classifiers: GestureClassifierGraph.Options
    ) throws {
        try bundle.requireEntries(
            [Self.handLandmarkerEntry, Self.gestureRecognizerEntry], kind: "gesture recognizer", name: name)
        hands = try HandLandmarkerGraph(
            bundle: try bundle.bundle(named: Self.handLandmarkerEntry),
            name: "\(name): \(Self.handLandmarkerEntry)", settings: settings)
        gestures = try GestureClassifierGraph(
            bundle: try bundle.bundle(named: Self.gestureRecognizerEntry),
            name: "\(name): \(Self.gestureRecognizerEntry)",
            numThreads: settings.numThreads, options: classifiers)
    }

    /// Forgets the tracked hands, so the next frame starts a new stream with palm detection.
    package func resetTracking() {
        hands.resetTracking()
    }

    /// The hands in one upright image or frame, in MediaPipe's order, each with its gesture.
    package func process(_ frame: FrameContext) throws -> [GestureObservation] {
        try hands.process(frame).map { GestureObservation(hand: $0, gesture: try gestures.recognize($0, in: frame)) }
    }
}

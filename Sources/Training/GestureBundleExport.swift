import Foundation
import TFLite
import VisionErrors
import VisionTasks

/// Writes a trained head as `custom_gesture_classifier.tflite` and packs it with a base gesture recognizer
/// bundle's models into a new `gesture_recognizer.task`, laid out as MediaPipe Model Maker lays it out: the
/// outer bundle holds `hand_landmarker.task` and `hand_gesture_recognizer.task`, the inner one the embedder,
/// the canned classifier and the custom classifier, every entry stored and 4-byte aligned.
package enum GestureBundleExport {
    /// Model Maker's score threshold in the metadata; `customGesturesClassifierOptions.scoreThreshold` overrides it.
    static let scoreThreshold: Float = 0.5

    /// The `.task` bytes: `base` (named `baseName` in errors) with its custom classifier, if any, replaced by `head`.
    static func task(base: Data, baseName: String, head: ClassifierHead, labels: [String]) throws -> Data {
        guard let inputCount = head.blocks.first?.inputs else {
            throw VisionTasksError.invalidArgument("the trained head has no layers")
        }
        let classifier = try ClassifierModelWriter.write(
            inputCount: inputCount, layers: head.layers(), labels: labels,
            scoreThreshold: scoreThreshold, description: .customGestureClassifier)
        return try task(base: base, baseName: baseName, classifier: classifier)
    }

    /// The `.task` bytes: `base` with `classifier` (a custom_gesture_classifier.tflite) as its custom classifier.
    package static func task(base: Data, baseName: String, classifier: Data) throws -> Data {
        let outer = try ModelBundle(data: base, name: baseName)
        try outer.requireEntries(
            [GestureRecognizerGraph.handLandmarkerEntry, GestureRecognizerGraph.gestureRecognizerEntry],
            kind: "gesture recognizer", name: baseName)
        let innerName = "\(baseName): \(GestureRecognizerGraph.gestureRecognizerEntry)"
        let inner = try outer.bundle(named: GestureRecognizerGraph.gestureRecognizerEntry)
        try inner.requireEntries(
            [GestureEmbedder.entry, GestureClassifierGraph.cannedEntry], kind: "hand gesture recognizer",
            name: innerName)
        let gestures = try ModelBundleWriter.bundle([
            (GestureEmbedder.entry, try inner.data(named: GestureEmbedder.entry)),
            (GestureClassifierGraph.cannedEntry, try inner.data(named: GestureClassifierGraph.cannedEntry)),
            (GestureClassifierGraph.customEntry, classifier),
        ])
        return try ModelBundleWriter.bundle([
            (
                GestureRecognizerGraph.handLandmarkerEntry,
                try outer.data(named: GestureRecognizerGraph.handLandmarkerEntry)
            ),
            (GestureRecognizerGraph.gestureRecognizerEntry, gestures),
        ])
    }
}

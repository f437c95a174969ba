import Foundation
import Inference
import TFLite
import VisionCore
import VisionErrors

/// MediaPipe's single-hand gesture recognizer graph over a `hand_gesture_recognizer.task` bundle:
/// landmarks, handedness and world landmarks prepared as MediaPipe prepares them → gesture embedder →
/// the custom classifier (when the bundle has one) and the canned classifier, each filtered by its
/// classifier options → combined as MediaPipe combines them.
///
/// Not thread-safe: it owns the interpreters; callers serialize use.
package final class GestureClassifierGraph {
    /// The canned classifier's entry in the bundle.
    package static let cannedEntry = "canned_gesture_classifier.tflite"
    /// The optional custom classifier's entry in the bundle.
    package static let customEntry = "custom_gesture_classifier.tflite"
    /// The canned gestures in the canned classifier's output order, for a classifier whose metadata
    /// carries no labels (as in the published `gesture_recognizer.task`).
    package static let cannedLabels = [
        "None", "Closed_Fist", "Open_Palm", "Pointing_Up", "Thumb_Down",
        "Thumb_Up", "Victory", "ILoveYou",
    ]

    private struct Classifier {
        let interpreter: Interpreter
        let filter: ClassificationFilter
    }

    private let embedder: GestureEmbedder
    /// Custom first, then canned: MediaPipe's priority order.
    private let classifiers: [Classifier]

    /// How the canned and the custom classifier's scores become gestures (nil: every gesture, the
    /// model's threshold): `cannedGesturesClassifierOptions`, `customGesturesClassifierOptions`.
    package typealias Options = (canned: ClassifierOptions?, custom: ClassifierOptions?)

    /// Loads the embedder and classifiers (`name` names the bundle in errors). Throws
    /// `invalidBundle` when the embedder or canned classifier is missing, `unsupportedModel` when a
    /// model has unexpected shapes, and `invalidOption` for contradictory classifier options.
    package init(bundle: ModelBundle, name: String, numThreads: Int, options: Options) throws {
        try bundle.requireEntries(
            [GestureEmbedder.entry, Self.cannedEntry], kind: "hand gesture recognizer", name: name)
        embedder = try GestureEmbedder(bundle: bundle, name: name, numThreads: numThreads)
        let embeddingSize = embedder.embeddingSize
        var classifiers: [Classifier] = []
        if bundle.contains(Self.customEntry) {
            classifiers.append(
                try Self.classifier(
                    try bundle.model(named: Self.customEntry), entry: Self.customEntry, bundleName: name,
                    numThreads: numThreads, embeddingSize: embeddingSize,
                    options: options.custom ?? ClassifierOptions(),
                    option: "customGesturesClassifierOptions", defaultLabels: nil))
        }
        classifiers.append(
            try Self.classifier(
                try bundle.model(named: Self.cannedEntry), entry: Self.cannedEntry, bundleName: name,
                numThreads: numThreads, embeddingSize: embeddingSize,
                options: options.canned ?? ClassifierOptions(),
                option: "cannedGesturesClassifierOptions", defaultLabels: Self.cannedLabels))
        self.classifiers = classifiers
    }

    private static func classifier(
        _ model: TFLiteModel, entry: String, bundleName: String, numThreads: Int,
        embeddingSize: Int, options: ClassifierOptions, option: String,
        defaultLabels: [String]?
    ) throws -> Classifier {
        let interpreter = try Interpreter(model: model, numThreads: numThreads)
        guard interpreter.inputs.count == 1, interpreter.inputs[0].elementCount == embeddingSize,
            interpreter.outputs.count == 1
        else {
            throw VisionTasksError.unsupportedModel(
                "\(bundleName): \(entry) needs one input of \(embeddingSize) values (the embedding) and one output; got \(interpreter.inputs.map(\.shape)) → \(interpreter.outputs.map(\.shape))"
            )
        }
        let filter = try options.filter(
            model: model, entry: "\(bundleName): \(entry)",
            classCount: interpreter.outputs[0].elementCount,
            defaultLabels: defaultLabels, option: option)
        return Classifier(interpreter: interpreter, filter: filter)
    }

    /// The gesture of one hand found in `frame`, or nil when every classifier's results were filtered away.
    package func recognize(_ hand: HandObservation, in frame: FrameContext) throws -> Classification? {
        try embedder.embed(hand, in: frame)
        var lists: [[Classification]] = []
        for classifier in classifiers {
            try embedder.withEmbedding { embedding in
                try classifier.interpreter.withInputBuffer(0) { input in
                    for i in 0..<min(input.count, embedding.count) { input[i] = embedding[i] }
                }
            }
            classifier.interpreter.invoke()
            lists.append(try classifier.interpreter.withOutputBuffer(0) { classifier.filter.classify($0) })
        }
        return combineGesturePredictions(lists)
    }
}

import Foundation
import Inference
import TFLite
import VisionCore
import VisionErrors

/// The gesture embedder of a `hand_gesture_recognizer.task` bundle, fed as MediaPipe feeds it: the
/// hand's landmarks and world landmarks normalised (`gestureLandmarksMatrix`) and the probability that
/// it is a right hand. Recognition and training (module Training) embed hands through this one type, so
/// a classifier is trained on the numbers it will see.
///
/// Not thread-safe: it owns its interpreter; callers serialize use.
package final class GestureEmbedder {
    /// The embedder's entry in the bundle.
    package static let entry = "gesture_embedder.tflite"

    private let interpreter: Interpreter
    /// Values in one embedding (128 for MediaPipe's embedder).
    package let embeddingSize: Int

    /// Loads the embedder of `bundle` (`name` names the bundle in errors). Throws `invalidBundle` when it is
    /// missing and `unsupportedModel` unless it takes landmarks (63), handedness (1) and world landmarks (63).
    package init(bundle: ModelBundle, name: String, numThreads: Int) throws {
        try bundle.requireEntries([Self.entry], kind: "hand gesture recognizer", name: name)
        interpreter = try Interpreter(model: try bundle.model(named: Self.entry), numThreads: numThreads)
        let points = handLandmarkCount * 3
        guard interpreter.inputs.map(\.elementCount) == [points, 1, points], interpreter.outputs.count == 1 else {
            throw VisionTasksError.unsupportedModel(
                "\(name): \(Self.entry) needs inputs of \(points), 1 and \(points) values (landmarks, handedness, world landmarks) and one output; got \(interpreter.inputs.map(\.shape)) → \(interpreter.outputs.map(\.shape))"
            )
        }
        embeddingSize = interpreter.outputs[0].elementCount
    }

    /// Embeds one hand: `landmarks` normalised to an image of `imageSize` (z relative to its width),
    /// `worldLandmarks` in metres, `rightHandScore` the probability of a right hand. Read the result with
    /// `withEmbedding`.
    package func embed(
        landmarks: [SIMD3<Float>], imageSize: (width: Int, height: Int),
        worldLandmarks: [SIMD3<Float>], rightHandScore: Float
    ) throws {
        let image = gestureLandmarksMatrix(landmarks, imageSize: imageSize)
        let world = gestureLandmarksMatrix(worldLandmarks, imageSize: nil)
        try interpreter.withInputBuffer(0) { copy(image, into: $0) }
        try interpreter.withInputBuffer(1) { $0[0] = rightHandScore }
        try interpreter.withInputBuffer(2) { copy(world, into: $0) }
        interpreter.invoke()
    }

    /// Embeds a hand found in `frame`, as recognition does. The hand's landmarks are in the upright
    /// image. MediaPipe, given the stored pixels and the frame's rotation, turns their x and y upright
    /// before the embedder but leaves z relative to the stored pixels' width, so z is rescaled to that
    /// width (`FrameContext.zToStoredWidth`).
    package func embed(_ hand: HandObservation, in frame: FrameContext) throws {
        try embed(
            landmarks: hand.landmarks.map { SIMD3($0.x, $0.y, $0.z * frame.zToStoredWidth) },
            imageSize: (frame.width, frame.height), worldLandmarks: hand.worldLandmarks,
            rightHandScore: rightHandScore(hand.handedness))
    }

    /// Calls `body` with the last embedding.
    package func withEmbedding<T>(_ body: (UnsafeBufferPointer<Float>) throws -> T) throws -> T {
        try interpreter.withOutputBuffer(0, body)
    }

    private func copy(_ values: [Float], into buffer: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<min(values.count, buffer.count) { buffer[i] = values[i] }
    }
}

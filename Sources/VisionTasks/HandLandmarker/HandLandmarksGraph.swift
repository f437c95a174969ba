import Foundation
import Inference
import TFLite
import VisionCore
import VisionErrors

/// One hand as the landmark model saw it, in MediaPipe's terms, before it becomes a result.
package struct HandObservation: Sendable {
    /// 21 landmarks in normalized coordinates of the upright image (z scaled like x).
    package var landmarks: [SIMD3<Float>]
    /// 21 world landmarks in metres, origin at the hand's centre, rotated like the image.
    package var worldLandmarks: [SIMD3<Float>]
    /// The handedness entry ("Left" or "Right" and its score).
    package var handedness: Classification
    /// The ROI this hand gives the next frame.
    package var nextRect: NormalizedRect
}

/// MediaPipe's single-hand landmarks detector graph: the ROI cropped and stretched to 224×224 →
/// hand landmark model → 21 landmarks projected back through the ROI, world landmarks rotated by
/// it, presence thresholded, handedness, and the next frame's ROI from the landmarks.
///
/// Not thread-safe: it owns the interpreter; callers serialize use.
package final class HandLandmarksGraph {
    /// The landmark model's entry in `hand_landmarker.task`.
    package static let bundleEntry = "hand_landmarks_detector.tflite"

    private let interpreter: Interpreter
    private let tensorOptions: ImageToTensorOptions
    private let minPresenceConfidence: Float

    /// Loads the landmark model. Throws `unsupportedModel` unless it has one 1×224×224×3 input and
    /// the four outputs MediaPipe reads in order: landmarks [1, 63], presence [1, 1],
    /// handedness [1, 1], world landmarks [1, 63].
    package init(model: TFLiteModel, name: String, numThreads: Int, minPresenceConfidence: Float) throws {
        interpreter = try Interpreter(model: model, numThreads: numThreads)
        let side = HandLandmarksModel.inputSize
        guard interpreter.inputs.count == 1, interpreter.inputs[0].shape == [1, side, side, 3] else {
            throw VisionTasksError.unsupportedModel(
                "\(name): the hand landmark model needs one 1×\(side)×\(side)×3 image input; got \(interpreter.inputs.map(\.shape))")
        }
        let counts = interpreter.outputs.map(\.elementCount)
        let points = handLandmarkCount * 3
        guard counts == [points, 1, 1, points] else {
            throw VisionTasksError.unsupportedModel(
                "\(name): the hand landmark model needs outputs of \(points), 1, 1 and \(points) values (landmarks, presence, handedness, world landmarks); got \(interpreter.outputs.map(\.shape))")
        }
        tensorOptions = try ImageToTensorOptions(outputWidth: side, outputHeight: side, keepAspectRatio: false,
                                                 outputRange: try modelInputRange(model, name: name), borderMode: .replicate)
        self.minPresenceConfidence = minPresenceConfidence
    }

    /// Runs the landmark model on `rect` of the upright image; nil when the hand is not present
    /// (presence score not above `minHandPresenceConfidence`) or the rect is MediaPipe's empty sentinel.
    package func observe(_ image: MPImage, in rect: NormalizedRect) throws -> HandObservation? {
        if rect.width == 0 && rect.height == 0 { return nil }
        let transform = try interpreter.withInputBuffer(0) { input in
            try ImageToTensor.convert(image, roi: rect, options: tensorOptions, into: input)
        }
        try interpreter.invoke()
        let presence = try interpreter.withOutputBuffer(1) { $0[0] }
        guard handIsPresent(score: presence, minPresenceConfidence: minPresenceConfidence) else { return nil }
        let side = HandLandmarksModel.inputSize
        let local = try interpreter.withOutputBuffer(0) { values in
            decodeLandmarks(values, count: handLandmarkCount, inputWidth: side, inputHeight: side,
                            normalizeZ: HandLandmarksModel.normalizeZ)
        }
        guard let local else {
            throw VisionTasksError.processingFailed("hand landmark model gave an output of the wrong size")
        }
        let padding = transform.letterboxPadding
        let unpadded = local.map { p in
            let q = padding.removing(fromX: p.x, y: p.y)
            return SIMD3(q.x, q.y, p.z)
        }
        let landmarks = projectLandmarks(unpadded, fromNormalizedRect: rect)
        let world = try interpreter.withOutputBuffer(3) { values in
            (0..<handLandmarkCount).map { SIMD3(values[3 * $0], values[3 * $0 + 1], values[3 * $0 + 2]) }
        }
        let handednessScore = try interpreter.withOutputBuffer(2) { $0[0] }
        guard let next = handRect(fromLandmarks: landmarks, imageWidth: image.width, imageHeight: image.height) else {
            throw VisionTasksError.processingFailed("could not derive the next hand ROI from the landmarks")
        }
        return HandObservation(landmarks: landmarks, worldLandmarks: rotateWorldLandmarks(world, by: rect.rotation),
                               handedness: handedness(fromScore: handednessScore), nextRect: next)
    }
}

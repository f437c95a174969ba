import Foundation
import Inference
import TFLite
import VisionCore

/// MediaPipe's hand detector graph on one image: letterbox to 192×192 → palm model → SSD decoding
/// against the palm anchors → weighted non-max suppression → projection back to the upright image →
/// one hand ROI per palm (rotated by wrist → middle MCP, grown 2.6×), best first, at most `numHands`.
///
/// Not thread-safe: it owns the interpreter; callers serialize use.
package final class PalmDetectionGraph {
    /// The palm model's entry in `hand_landmarker.task`.
    package static let bundleEntry = "hand_detector.tflite"

    private let interpreter: Interpreter
    private let anchors: [SSDAnchor]
    private let decoding: SSDDecodingOptions
    private let tensorOptions: ImageToTensorOptions
    private let numHands: Int

    /// Loads the palm model. Throws `unsupportedModel` unless it has one 1×192×192×3 input and
    /// outputs [1, 2016, 18] (boxes, first) and [1, 2016, 1] (scores), as MediaPipe expects.
    package init(model: TFLiteModel, name: String, numThreads: Int, minDetectionConfidence: Float, numHands: Int) throws {
        interpreter = try Interpreter(model: model, numThreads: numThreads)
        let side = PalmDetection.inputSize
        guard interpreter.inputs.count == 1, interpreter.inputs[0].shape == [1, side, side, 3] else {
            throw VisionTasksError.unsupportedModel(
                "\(name): the palm detector needs one 1×\(side)×\(side)×3 image input; got \(interpreter.inputs.map(\.shape))")
        }
        let shapes = interpreter.outputs.map(\.shape)
        guard shapes.count == 2, shapes[0] == [1, PalmDetection.numBoxes, 18], shapes[1] == [1, PalmDetection.numBoxes, 1] else {
            throw VisionTasksError.unsupportedModel(
                "\(name): the palm detector needs outputs [1, 2016, 18] (boxes) and [1, 2016, 1] (scores); got \(shapes)")
        }
        tensorOptions = try ImageToTensorOptions(outputWidth: side, outputHeight: side, keepAspectRatio: true,
                                                 outputRange: try modelInputRange(model, name: name), borderMode: .zero)
        anchors = try generateSSDAnchors(.palm)
        decoding = .palm(minScoreThreshold: minDetectionConfidence)
        self.numHands = numHands
    }

    /// The hand ROIs of the palms found in the whole upright image, best palm first, at most `numHands`.
    package func handRects(_ image: MPImage) throws -> [NormalizedRect] {
        let transform = try interpreter.withInputBuffer(0) { input in
            try ImageToTensor.convert(image, options: tensorOptions, into: input)
        }
        try interpreter.invoke()
        let decoded = try interpreter.withOutputBuffer(0) { boxes in
            try interpreter.withOutputBuffer(1) { scores in
                try decodeSSDDetections(rawBoxes: boxes, rawScores: scores, anchors: anchors, options: decoding)
            }
        }
        let projection = try NormalizedProjection(matrix: transform.matrix)
        let nms = weightedNonMaxSuppression(decoded, minSuppressionThreshold: PalmDetection.minSuppressionThreshold)

        let palms = nms
            .map { projectDetection($0, projection) }
        return palms.lazy
            .compactMap { handRect(fromPalm: $0, imageWidth: image.width, imageHeight: image.height,
                                   storedAxesSwapped: image.orientation.swapsWidthAndHeight) }
            .prefix(numHands)
            .map { $0 }
    }
}

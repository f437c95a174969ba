import Inference
import TFLite
import VisionCore
import VisionErrors

/// MediaPipe's single-shot detector steps on one upright image, shared by the face and palm
/// detectors: letterbox to the model's square input → model → SSD decoding against the anchors →
/// weighted non-max suppression → projection back to the image (fractions of its size).
///
/// Not thread-safe: it owns the interpreter; callers serialize use (the task runner does).
package final class SSDDetector {
    private let interpreter: Interpreter
    private let tensorOptions: ImageToTensorOptions
    private let anchors: [NormalizedRect]
    private let decoding: SSDDecodingOptions
    private let minSuppressionThreshold: Float
    private let boxesOutput: Int
    private let scoresOutput: Int

    /// Loads the model of the detector `description` describes (`name` names the file in errors).
    /// Throws `unsupportedModel` unless it has one 1×H×W×3 image input of the anchors' input size and
    /// the box ([1, numBoxes, numCoords]) and score ([1, numBoxes, 1]) outputs its decoding describes.
    package init(model: TFLiteModel, name: String, numThreads: Int, description: SSDDetectorDescription) throws {
        interpreter = try Interpreter(model: model, numThreads: numThreads)
        let what = description.what, decoding = description.decoding
        let (width, height) = (description.anchors.inputWidth, description.anchors.inputHeight)
        guard interpreter.inputs.count == 1, interpreter.inputs[0].shape == [1, height, width, 3] else {
            throw VisionTasksError.unsupportedModel(
                "\(name): \(what) needs one 1×\(height)×\(width)×3 image input; got \(interpreter.inputs.map(\.shape))")
        }
        let shapes = interpreter.outputs.map(\.shape)
        let boxesShape = [1, decoding.numBoxes, decoding.numCoords], scoresShape = [1, decoding.numBoxes, 1]
        guard let boxes = shapes.firstIndex(of: boxesShape), let scores = shapes.firstIndex(of: scoresShape) else {
            throw VisionTasksError.unsupportedModel(
                "\(name): \(what) needs outputs of shape \(boxesShape) (boxes) and \(scoresShape) (scores); got \(shapes)"
            )
        }
        boxesOutput = boxes
        scoresOutput = scores
        tensorOptions = try ImageToTensorOptions(
            outputWidth: width, outputHeight: height, keepAspectRatio: true,
            outputRange: try modelInputRange(model, name: name), borderMode: .zero)
        anchors = try generateSSDAnchors(description.anchors)
        self.decoding = decoding
        minSuppressionThreshold = description.minSuppressionThreshold
    }

    /// The detections in the frame's whole upright image, best first; boxes and keypoints are fractions of its size.
    package func detect(_ frame: FrameContext) throws -> [RelativeDetection] {
        let transform = try interpreter.withInputBuffer(0) { input in
            try ImageToTensor.convert(
                frame.image, options: tensorOptions, into: input,
                splitRows: interpreter.tensorRows)
        }
        interpreter.invoke()
        let decoded = try interpreter.withOutputBuffer(boxesOutput) { boxes in
            try interpreter.withOutputBuffer(scoresOutput) { scores in
                try decodeSSDDetections(rawBoxes: boxes, rawScores: scores, anchors: anchors, options: decoding)
            }
        }
        let projection = try NormalizedProjection(matrix: transform.matrix)
        return weightedNonMaxSuppression(decoded, minSuppressionThreshold: minSuppressionThreshold)
            .map { projectDetection($0, projection) }
    }
}

import Foundation
import TFLite
import VisionCore

/// MediaPipe's face detection graph on one image: letterbox to the model's 128×128 input →
/// BlazeFace → SSD decoding against the short-range anchors → weighted non-max suppression →
/// projection back to the upright image. Results stay in relative coordinates, so the face
/// landmarker can use them as the detector's output before pixel rounding.
///
/// Not thread-safe: it owns the interpreter and its buffers; callers serialize use (the task runner does).
package final class FaceDetectionGraph {
    /// The entry holding the detector inside a `.task` bundle (as in `face_landmarker.task`).
    package static let bundleEntry = "face_detector.tflite"

    private let detector: SSDDetector

    /// Loads the detector from `.tflite` bytes or a `.task` bundle's bytes (`name` for messages), inflating
    /// at most `maxDecompressedBytes` from a bundle.
    package convenience init(modelData: Data, name: String, numThreads: Int,
                             maxDecompressedBytes: Int = ModelBundle.defaultMaxDecompressedBytes,
                             minDetectionConfidence: Float, minSuppressionThreshold: Float) throws {
        try self.init(model: try ModelBundle.taskModel(modelData, name: name, entry: Self.bundleEntry,
                                                       maxDecompressedBytes: maxDecompressedBytes), name: name,
                      numThreads: numThreads, minDetectionConfidence: minDetectionConfidence,
                      minSuppressionThreshold: minSuppressionThreshold)
    }

    /// Loads the detector. Throws `unsupportedModel` when the model is not a short-range BlazeFace
    /// (128×128×3 input, 896×16 box and 896×1 score outputs) or lacks its input normalization metadata.
    package init(model: TFLiteModel, name: String, numThreads: Int,
                 minDetectionConfidence: Float, minSuppressionThreshold: Float) throws {
        detector = try SSDDetector(model: model, name: name,
                                   what: "a face detector (BlazeFace short range)", numThreads: numThreads,
                                   inputSide: FaceDetection.inputSize, anchors: .faceShortRange,
                                   decoding: .faceShortRange(minScoreThreshold: minDetectionConfidence),
                                   minSuppressionThreshold: minSuppressionThreshold)
    }

    /// Detects faces in the whole upright image; boxes and keypoints are fractions of its size.
    package func detect(_ image: MPImage) throws -> [RelativeDetection] {
        try detector.detect(image)
    }
}

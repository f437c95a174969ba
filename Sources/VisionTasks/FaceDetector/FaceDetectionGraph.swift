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
    /// Throws `unsupportedModel` when the model is not a short-range BlazeFace (128×128×3 input,
    /// 896×16 box and 896×1 score outputs) or lacks its input normalization metadata.
    package init(modelData: Data, name: String, numThreads: Int,
                 maxDecompressedBytes: Int = ModelBundle.defaultMaxDecompressedBytes, minDetectionConfidence: Float, minSuppressionThreshold: Float) throws {
        detector = try SSDDetector(model: try Self.loadModel(modelData, name: name, maxDecompressedBytes: maxDecompressedBytes), name: name,
                                   what: "a face detector (BlazeFace short range)", numThreads: numThreads,
                                   inputSide: 128, anchors: .faceShortRange,
                                   decoding: .faceShortRange(minScoreThreshold: minDetectionConfidence),
                                   minSuppressionThreshold: minSuppressionThreshold)
    }

    /// Detects faces in the whole upright image; boxes and keypoints are fractions of its size.
    package func detect(_ image: MPImage) throws -> [RelativeDetection] {
        try detector.detect(image)
    }

    /// The detector model from a `.tflite` file (file identifier "TFL3"), or else from the
    /// `face_detector.tflite` entry of a `.task` zip.
    private static func loadModel(_ data: Data, name: String, maxDecompressedBytes: Int) throws -> TFLiteModel {
        let identifier = data.dropFirst(4).prefix(4)
        if identifier.elementsEqual("TFL3".utf8) {
            return try TFLiteModel(data: data, name: name, maxDecompressedBytes: maxDecompressedBytes)
        }
        // MediaPipe's .task files start with a zip local header, sometimes after a few padding bytes.
        let head = Array(data.prefix(64))
        let zipSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        guard head.count >= 4, (0...(head.count - 4)).contains(where: { head[$0..<$0 + 4].elementsEqual(zipSignature) }) else {
            throw VisionTasksError.invalidModel(
                "\(name) is neither a TFLite model (no TFL3 file identifier) nor a .task bundle (no zip header)")
        }
        return try ModelBundle(data: data, name: name, maxDecompressedBytes: maxDecompressedBytes).model(named: bundleEntry)
    }
}

import TFLite
import VisionCore

/// MediaPipe's hand detector graph on one frame: letterbox to 192×192 → palm model → SSD decoding
/// against the palm anchors → weighted non-max suppression → projection back to the upright image
/// (as `SSDDetectorDescription.palm` configures them) → one hand ROI per palm (rotated by wrist →
/// middle MCP, grown 2.6×), best first.
///
/// Not thread-safe: it owns the interpreter; callers serialize use.
package final class PalmDetectionGraph {
    /// The palm model's entry in `hand_landmarker.task`.
    package static let bundleEntry = "hand_detector.tflite"

    private let detector: SSDDetector

    /// Loads the palm detector `description` describes (`name` names the model in errors). Throws
    /// `unsupportedModel` unless the model has one 1×192×192×3 input and outputs [1, 2016, 18]
    /// (boxes) and [1, 2016, 1] (scores), as MediaPipe expects.
    package init(model: TFLiteModel, name: String, numThreads: Int, description: SSDDetectorDescription) throws {
        detector = try SSDDetector(model: model, name: name, numThreads: numThreads, description: description)
    }

    /// The hand ROIs of the palms found in the frame's whole upright image, best palm first.
    package func handRects(_ frame: FrameContext) throws -> [NormalizedRect] {
        try detector.detect(frame).compactMap {
            handRect(
                fromPalm: $0, imageWidth: frame.width, imageHeight: frame.height,
                storedAxesSwapped: frame.storedAxesSwapped)
        }
    }
}

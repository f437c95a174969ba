import TFLite
import VisionCore

/// MediaPipe's face detector graph on one frame: letterbox to the model's input → face detector
/// model → SSD decoding against its anchors → weighted non-max suppression → projection back to the
/// upright image, as its `SSDDetectorDescription` configures them (BlazeFace short range today).
/// The Face Detector reports its detections; the Face Landmarker asks for the face rects they give.
///
/// Not thread-safe: it owns the interpreter and its buffers; callers serialize use (the task runner does).
package final class FaceDetectionGraph: TaskGraph {
    /// The entry holding the detector inside a `.task` bundle (as in `face_landmarker.task`).
    package static let bundleEntry = "face_detector.tflite"

    private let detector: SSDDetector

    /// Loads the detector `description` describes (`name` names the model in errors). Throws
    /// `unsupportedModel` when the model's input or outputs are not the description's (for BlazeFace
    /// short range: a 128×128×3 input, 896×16 box and 896×1 score outputs) or it lacks its input
    /// normalization metadata.
    package init(model: TFLiteModel, name: String, numThreads: Int, description: SSDDetectorDescription) throws {
        detector = try SSDDetector(model: model, name: name, numThreads: numThreads, description: description)
    }

    /// The faces detected in the frame's whole upright image, best first; boxes and keypoints are
    /// fractions of its size.
    package func process(_ frame: FrameContext) throws -> [RelativeDetection] {
        try detector.detect(frame)
    }

    /// The Face Detector tracks nothing: every frame is detected afresh.
    package func resetTracking() {}

    /// The landmark model's rects of the faces found in the frame's whole upright image, best face first.
    package func faceRects(_ frame: FrameContext) throws -> [NormalizedRect] {
        try detector.detect(frame).compactMap {
            faceRect(fromDetection: $0, imageWidth: frame.width, imageHeight: frame.height, storedAxesSwapped: frame.storedAxesSwapped)
        }
    }
}

import TFLite
import VisionCore

/// One face the Face Detector found, before it becomes a result.
package struct DetectedFace {
    /// The detection, box and keypoints as fractions of the upright image.
    package var detection: RelativeDetection
    /// The face's tracking id (video and live stream; nil in image mode).
    package var trackingId: Int?
}

/// MediaPipe's face detector graph on one frame: letterbox to the model's input → face detector
/// model → SSD decoding against its anchors → weighted non-max suppression → projection back to the
/// upright image, as its `SSDDetectorDescription` configures them (BlazeFace short range today).
/// The Face Detector reports its detections, with tracking ids in video and live stream (`ids`);
/// the Face Landmarker asks for the face rects they give.
///
/// Not thread-safe: it owns the interpreter and its buffers; callers serialize use (the task runner does).
package final class FaceDetectionGraph: TaskGraph {
    /// The entry holding the detector inside a `.task` bundle (as in `face_landmarker.task`).
    package static let bundleEntry = "face_detector.tflite"

    private let detector: SSDDetector
    /// The tracking ids of `process`'s faces (video and live stream).
    private var ids: DetectionIds?

    /// Loads the detector `description` describes (`name` names the model in errors); `ids` gives the
    /// faces `process` finds their tracking ids (video and live stream). Throws `unsupportedModel`
    /// when the model's input or outputs are not the description's (for BlazeFace short range: a
    /// 128×128×3 input, 896×16 box and 896×1 score outputs) or it lacks its input normalization metadata.
    package init(model: TFLiteModel, name: String, numThreads: Int, description: SSDDetectorDescription,
                 ids: DetectionIds? = nil) throws {
        detector = try SSDDetector(model: model, name: name, numThreads: numThreads, description: description)
        self.ids = ids
    }

    /// The faces detected in the frame's whole upright image; boxes and keypoints are fractions of its
    /// size. Best first in image mode; by tracking id in video and live stream (every frame is
    /// detected afresh; ids go to the faces overlapping the previous frame's).
    package func process(_ frame: FrameContext) throws -> [DetectedFace] {
        let detections = try detector.detect(frame)
        guard var ids else { return detections.map { DetectedFace(detection: $0, trackingId: nil) } }
        let found = ids.ids(for: detections.map {
            NormalizedRect(xCenter: $0.xMin + $0.width / 2, yCenter: $0.yMin + $0.height / 2, width: $0.width, height: $0.height)
        })
        self.ids = ids
        return zip(detections, found).sorted { $0.1 < $1.1 }.map { DetectedFace(detection: $0, trackingId: $1) }
    }

    /// Forgets the previous frame's faces, so the next frame's take new ids from 0.
    package func resetTracking() {
        ids?.reset()
    }

    /// The landmark model's rects of the faces found in the frame's whole upright image, best face first.
    package func faceRects(_ frame: FrameContext) throws -> [NormalizedRect] {
        try detector.detect(frame).compactMap {
            faceRect(fromDetection: $0, imageWidth: frame.width, imageHeight: frame.height, storedAxesSwapped: frame.storedAxesSwapped)
        }
    }
}

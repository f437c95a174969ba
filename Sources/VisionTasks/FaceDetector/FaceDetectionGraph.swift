import TFLite
import VisionCore
import VisionErrors

/// One face the Face Detector found, before it becomes a result.
package struct DetectedFace {
    /// The detection, box and keypoints as fractions of the upright image.
    package var detection: RelativeDetection
    /// The face's tracking id (video and live stream; nil in image mode).
    package var trackingId: Int?
}

/// MediaPipe's face detector graph on one frame: letterbox to the model's input → face detector
/// model → SSD decoding against its anchors → weighted non-max suppression → projection back to the
/// upright image, as the `SSDDetectorDescription` of the model configures them: BlazeFace short
/// range or full range, told apart by the model's input. The Face Detector reports its detections,
/// with tracking ids in video and live stream (`ids`); the Face Landmarker asks for the face rects they give.
///
/// Not thread-safe: it owns the interpreter and its buffers; callers serialize use (the task runner does).
package final class FaceDetectionGraph: TaskGraph {
    /// The entry holding the detector inside a `.task` bundle (as in `face_landmarker.task`).
    package static let bundleEntry = "face_detector.tflite"

    private let detector: SSDDetector
    /// The tracking ids of `process`'s faces (video and live stream).
    private var ids: DetectionIds?

    /// Loads a face detector model (`name` names it in errors), BlazeFace short range (a 128×128×3
    /// input, 896×16 box and 896×1 score outputs) or full range (192×192×3, 2304×16 and 2304×1),
    /// keeping faces scoring at least `minScoreThreshold` and merging those overlapping by more than
    /// `minSuppressionThreshold`; `ids` gives the faces `process` finds their tracking ids (video and
    /// live stream). Throws `unsupportedModel` for any other input or outputs, or a model without its
    /// input normalization metadata.
    package init(
        model: TFLiteModel, name: String, numThreads: Int,
        minScoreThreshold: Float, minSuppressionThreshold: Float, ids: DetectionIds? = nil
    ) throws {
        let inputShapes =
            model.subgraphs.first.map { graph in
                graph.inputs.map { graph.tensors.indices.contains($0) ? graph.tensors[$0].shape : [] }
            } ?? []
        guard inputShapes.count == 1,
            let description = SSDDetectorDescription.face(
                inputShape: inputShapes[0], minScoreThreshold: minScoreThreshold,
                minSuppressionThreshold: minSuppressionThreshold)
        else {
            throw VisionTasksError.unsupportedModel(
                "\(name): a face detector needs one image input, 1×\(BlazeFaceShortRange.inputSize)×\(BlazeFaceShortRange.inputSize)×3 "
                    + "(BlazeFace short range) or 1×\(BlazeFaceFullRange.inputSize)×\(BlazeFaceFullRange.inputSize)×3 (full range); got \(inputShapes)"
            )
        }
        detector = try SSDDetector(model: model, name: name, numThreads: numThreads, description: description)
        self.ids = ids
    }

    /// The faces detected in the frame's whole upright image; boxes and keypoints are fractions of its
    /// size. Best first in image mode; by tracking id in video and live stream (every frame is
    /// detected afresh; ids go to the faces overlapping the previous frame's).
    package func process(_ frame: FrameContext) throws -> [DetectedFace] {
        let detections = try detector.detect(frame)
        guard var ids else { return detections.map { DetectedFace(detection: $0, trackingId: nil) } }
        let found = ids.ids(
            for: detections.map {
                NormalizedRect(
                    xCenter: $0.xMin + $0.width / 2, yCenter: $0.yMin + $0.height / 2, width: $0.width,
                    height: $0.height)
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
            faceRect(
                fromDetection: $0, imageWidth: frame.width, imageHeight: frame.height,
                storedAxesSwapped: frame.storedAxesSwapped)
        }
    }
}

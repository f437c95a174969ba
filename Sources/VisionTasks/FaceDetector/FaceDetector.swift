import Foundation
import VisionCore

/// Detects faces as MediaPipe's Face Detector does (BlazeFace short range), with the API of
/// MediaPipe for iOS: `detect(image:)`, `detect(videoFrame:timestampInMilliseconds:)` and
/// `detectAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode.
/// Boxes are in pixels of the upright image (`MPImage.width` × `height`), keypoints normalized to it.
public final class FaceDetector: DetectingVisionTask {
    /// The machinery running the task's frames (``VisionTask``).
    public let _taskCore: TaskCore<FaceDetector, FaceDetectorResult>

    /// Creates a detector in image mode with default options from a model file.
    public convenience init(modelPath: String) throws {
        try self.init(options: FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Creates a detector. Throws `invalidOption` for a confidence or threshold outside [0, 1], a
    /// live-stream mode without delegate or a delegate in another mode, and the model's load errors.
    public init(options: FaceDetectorOptions) throws {
        try FaceDetectorOptions.taskDescription.validate(options)
        let base = options.baseOptions
        _taskCore = try TaskCore(
            taskName: "FaceDetector", verb: "detect", runningMode: options.runningMode,
            delegateOption: "faceDetectorLiveStreamDelegate",
            delegate: options.faceDetectorLiveStreamDelegate,
            deliver: { $0.faceDetector($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) },
            loadGraph: {
                try FaceDetectionGraph(modelData: try base.loadModelAsset(), name: base.modelAssetName,
                                       numThreads: base.numThreads, maxDecompressedBytes: base.maxDecompressedBundleBytes,
                                       minDetectionConfidence: options.minDetectionConfidence,
                                       minSuppressionThreshold: options.minSuppressionThreshold)
            },
            process: { try Self.result($0, $1, $2) })
        _taskCore.attach(self)
    }
}

extension FaceDetector {
    /// The detector's result for one frame: the graph's detections with boxes in pixels.
    private static func result(_ graph: FaceDetectionGraph, _ image: MPImage, _ timestamp: Int) throws -> FaceDetectorResult {
        let detections = try graph.detect(image).map { d in
            Detection(
                categories: [ResultCategory(index: d.classIndex, score: d.score, categoryName: nil, displayName: nil)],
                boundingBox: d.pixelBox(imageWidth: image.width, imageHeight: image.height),
                keypoints: d.keypoints.map { NormalizedKeypoint(location: CGPoint(x: Double($0.x), y: Double($0.y))) })
        }
        return FaceDetectorResult(detections: detections, timestampInMilliseconds: timestamp)
    }
}

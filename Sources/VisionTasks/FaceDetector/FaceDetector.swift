import Foundation
import TFLite
import VisionCore

/// Detects faces as MediaPipe's Face Detector does, with BlazeFace short range (the Tasks' model) or
/// full range (the legacy solution's, for faces far from the camera; told apart by its input), with the API of
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
                let model = try ModelBundle.taskModel(try base.loadModelAsset(), name: base.modelAssetName,
                                                      entry: FaceDetectionGraph.bundleEntry,
                                                      maxDecompressedBytes: base.maxDecompressedBundleBytes)
                return try FaceDetectionGraph(model: model, name: base.modelAssetName, numThreads: base.numThreads,
                                              minScoreThreshold: options.minDetectionConfidence,
                                              minSuppressionThreshold: options.minSuppressionThreshold)
            },
            result: { Self.result($0, in: $1) })
        _taskCore.attach(self)
    }
}

extension FaceDetector {
    /// The detector's result for one frame: the graph's detections with boxes in pixels.
    private static func result(_ detections: [RelativeDetection], in frame: FrameContext) -> FaceDetectorResult {
        let detections = detections.map { d in
            Detection(
                categories: [ResultCategory(index: d.classIndex, score: d.score, categoryName: nil, displayName: nil)],
                boundingBox: d.pixelBox(imageWidth: frame.width, imageHeight: frame.height),
                keypoints: d.keypoints.map { NormalizedKeypoint(location: CGPoint(x: Double($0.x), y: Double($0.y))) })
        }
        return FaceDetectorResult(detections: detections, timestampInMilliseconds: frame.timestampInMilliseconds)
    }
}

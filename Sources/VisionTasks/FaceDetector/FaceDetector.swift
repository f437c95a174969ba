import Foundation
import VisionCore

/// Detects faces as MediaPipe's Face Detector does (BlazeFace short range), with the API of
/// MediaPipe for iOS: `detect(image:)`, `detect(videoFrame:timestampInMilliseconds:)` and
/// `detectAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode.
/// Boxes are in pixels of the upright image (`MPImage.width` × `height`), keypoints normalized to it.
public final class FaceDetector: Sendable {
    private let core: TaskCore<FaceDetector, FaceDetectorResult>

    /// Creates a detector in image mode with default options from a model file.
    public convenience init(modelPath: String) throws {
        try self.init(options: FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Creates a detector. Throws `invalidOption` for a confidence or threshold outside [0, 1], a
    /// live-stream mode without delegate or a delegate in another mode, and the model's load errors.
    public init(options: FaceDetectorOptions) throws {
        try OptionChecks.unitInterval(options.minDetectionConfidence, "minDetectionConfidence")
        try OptionChecks.unitInterval(options.minSuppressionThreshold, "minSuppressionThreshold")
        let base = options.baseOptions
        core = try TaskCore(
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
        core.attach(self)
    }

    /// Detects faces in a still image (image mode).
    public func detect(image: MPImage) throws -> FaceDetectorResult {
        try core.runner.processImage(image)
    }

    /// Detects faces in a video frame (video mode; timestamps must strictly increase).
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> FaceDetectorResult {
        try core.runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped (`droppedFrameCount`), and when the delegate is
    /// slower than the frames, older results waiting for it are dropped (`droppedResultCount`).
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try core.runner.processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Detects faces in a still image without blocking the caller (image mode): the async variant of
    /// `detect(image:)`. Cancelled before it starts, it throws `CancellationError`.
    public func detect(image: MPImage) async throws -> FaceDetectorResult {
        try await core.runner.processImage(image)
    }

    /// Detects faces in a video frame without blocking the caller (video mode; timestamps must strictly
    /// increase in the order of the calls). Cancelled before it starts, it throws `CancellationError`.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> FaceDetectorResult {
        try await core.runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Starts a new video or live stream (video and live-stream mode; `runningModeMismatch` in image
    /// mode): waits until the live-stream frames sent so far are delivered, then clears the tracking
    /// state and the last timestamp, so timestamps may start again. Not from the delegate's callback.
    public func reset() throws {
        try core.runner.reset()
    }

    /// Blocks until every live-stream frame sent so far has been processed and delivered
    /// (VisionTasks' addition, for orderly shutdown and tests).
    public func waitUntilIdle() {
        core.runner.waitUntilIdle()
    }

    /// Live-stream frames dropped so far because a newer frame came while they waited to be processed.
    public var droppedFrameCount: Int { core.runner.droppedFrameCount }

    /// Live-stream results dropped so far because the delegate was slow: at most four finished
    /// results wait for it, and a newer one drops the oldest waiting. Memory stays bounded.
    public var droppedResultCount: Int { core.runner.droppedResultCount }
}

extension FaceDetector {
    /// The detector's result for one frame: the graph's detections with boxes in pixels.
    private static func result(_ graph: FaceDetectionGraph, _ image: MPImage, _ timestamp: Int) throws -> FaceDetectorResult {
        let detections = try graph.detect(image).map { d in
            let box = PixelBox(d, imageWidth: image.width, imageHeight: image.height)
            return Detection(
                categories: [ResultCategory(index: d.classIndex, score: d.score, categoryName: nil, displayName: nil)],
                boundingBox: CGRect(x: box.originX, y: box.originY, width: box.width, height: box.height),
                keypoints: d.keypoints.map { NormalizedKeypoint(location: CGPoint(x: Double($0.x), y: Double($0.y))) })
        }
        return FaceDetectorResult(detections: detections, timestampInMilliseconds: timestamp)
    }
}

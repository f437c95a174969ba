import Foundation
import TFLite
import VisionCore

/// Detects faces as MediaPipe's Face Detector does, with BlazeFace short range (the Tasks' model) or
/// full range (the legacy solution's, for faces far from the camera; told apart by its input), with the API of
/// MediaPipe for iOS: `detect(image:)`, `detect(videoFrame:timestampInMilliseconds:)` and
/// `detectAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode.
/// Boxes are in pixels of the upright image (`MPImage.width` × `height`), keypoints normalized to it.
///
/// Tracking ids (video and live stream): every frame is detected afresh, and a face whose box
/// overlaps a box of the previous frame by an IoU above `minSuppressionThreshold` (the overlap that
/// makes two detections one face) keeps that face's id, largest overlaps first; any other face
/// takes the next unused id, counting from 0 (`reset()` starts over). There is no re-identification
/// by appearance: a face lost for a frame comes back with a new id. Detections are ordered by id in
/// video and live stream (the order the faces appeared in), best first in image mode.
public final class FaceDetector: DetectingVisionTask, CoreBackedTask {
    /// The machinery running the task's frames.
    package let taskCore: TaskCore<FaceDetector, FaceDetectorResult>

    /// Creates a detector.
    /// - Parameter options: The model, running mode, thresholds and (in live-stream mode only) the delegate.
    /// - Throws: `VisionTasksError.invalidOption` for a confidence or threshold outside [0, 1], a live-stream
    ///   mode without delegate or a delegate in another mode, or bad base options (a `.GPU` delegate,
    ///   `numThreads` outside 1...64, no model); and the model's load errors as `init(modelPath:)` lists them.
    public init(options: FaceDetectorOptions) throws {
        let base = options.baseOptions
        // A face overlapping one of the previous frame's by more than the suppression threshold (the
        // overlap that makes two detections one face) is that face.
        let ids = options.runningMode == .image ? nil : DetectionIds(minOverlap: options.minSuppressionThreshold)
        taskCore = try TaskCore(
            options,
            loadGraph: {
                let model = try ModelBundle.taskModel(
                    try base.loadModelAsset(), name: base.modelAssetName,
                    entry: FaceDetectionGraph.bundleEntry,
                    maxDecompressedBytes: base.maxDecompressedBundleBytes)
                return try FaceDetectionGraph(
                    model: model, name: base.modelAssetName, numThreads: base.numThreads,
                    minScoreThreshold: options.minDetectionConfidence,
                    minSuppressionThreshold: options.minSuppressionThreshold,
                    ids: ids)
            },
            result: Self.result)
        taskCore.attach(self)
    }

    /// What it returns for one frame (`VisionTask`).
    public typealias TaskResult = FaceDetectorResult
}

/// How the CLI and the server drive the task (`DescribedTask`): its live-stream delegate and what a
/// result counts.
extension FaceDetector: DescribedTask {
    package static let liveStream = LiveStreamDelegation(
        \FaceDetectorOptions.faceDetectorLiveStreamDelegate, handler: { $0 }
    ) {
        $0.faceDetector($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4)
    }
    package static func foundCount(in result: FaceDetectorResult) -> Int { result.detections.count }
}

extension FaceDetector {
    /// The detector's result for one frame: the graph's detections with boxes in pixels, and their
    /// tracking ids when `tracks` (video and live stream).
    private static func result(_ faces: [DetectedFace], in frame: FrameContext, tracks: Bool) -> FaceDetectorResult {
        let detections = faces.map(\.detection).map { d in
            Detection(
                categories: [ResultCategory(index: d.classIndex, score: d.score, categoryName: nil, displayName: nil)],
                boundingBox: d.pixelBox(imageWidth: frame.width, imageHeight: frame.height),
                keypoints: d.keypoints.map { NormalizedKeypoint(location: CGPoint(x: Double($0.x), y: Double($0.y))) })
        }
        return FaceDetectorResult(
            detections: detections, trackingIds: tracks ? faces.compactMap(\.trackingId) : nil,
            timestampInMilliseconds: frame.timestampInMilliseconds)
    }
}

import Foundation
import VisionCore

/// Finds face landmarks, blendshapes and facial transformation matrices as MediaPipe's Face
/// Landmarker does, with the API of MediaPipe for iOS: `detect(image:)`,
/// `detect(videoFrame:timestampInMilliseconds:)` and `detectAsync(image:timestampInMilliseconds:)`,
/// each allowed only in its running mode. Landmarks are normalized to the upright image.
public final class FaceLandmarker: Sendable {
    private let runner: TaskRunner<MPImage, FaceLandmarkerResult>

    /// Creates a landmarker in image mode with default options from a `face_landmarker.task` file.
    public convenience init(modelPath: String) throws {
        try self.init(options: FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Creates a landmarker. Throws `invalidOption` for `numFaces` below 1, a confidence outside
    /// [0, 1], a live-stream mode without delegate or a delegate in another mode; `invalidBundle`
    /// for a model that is not a face landmarker bundle or lacks one of its files.
    public init(options: FaceLandmarkerOptions) throws {
        try OptionChecks.positive(options.numFaces, "numFaces")
        try OptionChecks.unitInterval(options.minFaceDetectionConfidence, "minFaceDetectionConfidence")
        try OptionChecks.unitInterval(options.minFacePresenceConfidence, "minFacePresenceConfidence")
        try OptionChecks.unitInterval(options.minTrackingConfidence, "minTrackingConfidence")
        let delegate = options.faceLandmarkerLiveStreamDelegate
        try OptionChecks.delegate(present: delegate != nil, runningMode: options.runningMode,
                                  "faceLandmarkerLiveStreamDelegate")
        let base = options.baseOptions
        let graph = LockedFaceLandmarkerGraph(try FaceLandmarkerGraph(
            bundleData: try base.loadModelAsset(),
            name: base.modelAssetBuffer != nil ? "modelAssetBuffer" : base.modelAssetPath,
            numThreads: base.numThreads, options: options))
        let owner = WeakFaceLandmarker()
        var deliver: TaskRunner<MPImage, FaceLandmarkerResult>.Deliver?
        if let delegate {
            deliver = { [weak delegate] result, timestamp in
                guard let delegate, let landmarker = owner.landmarker else { return }
                switch result {
                case .success(let value):
                    delegate.faceLandmarker(landmarker, didFinishDetection: value, timestampInMilliseconds: timestamp, error: nil)
                case .failure(let error):
                    delegate.faceLandmarker(landmarker, didFinishDetection: nil, timestampInMilliseconds: timestamp, error: error)
                }
            }
        }
        runner = TaskRunner(taskName: "FaceLandmarker", verb: "detect", runningMode: options.runningMode,
                            process: { image, timestamp in try graph.process(image, timestamp) }, deliver: deliver)
        owner.landmarker = self
    }

    /// Finds the faces of a still image (image mode).
    public func detect(image: MPImage) throws -> FaceLandmarkerResult {
        try runner.processImage(image)
    }

    /// Finds the faces of a video frame (video mode; timestamps must strictly increase). Faces are
    /// tracked from frame to frame.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> FaceLandmarkerResult {
        try runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try runner.processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Blocks until every live-stream frame sent so far has been processed and delivered
    /// (VisionTasks' addition, for orderly shutdown and tests).
    public func waitUntilIdle() {
        runner.waitUntilIdle()
    }
}

/// The graph behind the runner, which calls `process` for one frame at a time.
private final class LockedFaceLandmarkerGraph: @unchecked Sendable {
    private let graph: FaceLandmarkerGraph

    init(_ graph: FaceLandmarkerGraph) { self.graph = graph }

    func process(_ image: MPImage, _ timestamp: Int) throws -> FaceLandmarkerResult {
        try graph.process(image, timestampInMilliseconds: timestamp)
    }
}

/// Lets the delivery closure, made before the landmarker exists, reach it without keeping it alive.
private final class WeakFaceLandmarker: @unchecked Sendable {
    private let lock = NSLock()
    private weak var value: FaceLandmarker?
    var landmarker: FaceLandmarker? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

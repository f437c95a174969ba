import VisionCore

/// Finds face landmarks, blendshapes and facial transformation matrices as MediaPipe's Face
/// Landmarker does, with the API of MediaPipe for iOS: `detect(image:)`,
/// `detect(videoFrame:timestampInMilliseconds:)` and `detectAsync(image:timestampInMilliseconds:)`,
/// each allowed only in its running mode. Landmarks are normalized to the upright image.
public final class FaceLandmarker: Sendable {
    private let core: TaskCore<FaceLandmarker, FaceLandmarkerResult>

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
        let base = options.baseOptions
        core = try TaskCore(
            taskName: "FaceLandmarker", verb: "detect", runningMode: options.runningMode,
            delegateOption: "faceLandmarkerLiveStreamDelegate",
            delegate: options.faceLandmarkerLiveStreamDelegate,
            deliver: { $0.faceLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) },
            loadGraph: {
                try FaceLandmarkerGraph(bundleData: try base.loadModelAsset(), name: base.modelAssetName,
                                        numThreads: base.numThreads, options: options)
            },
            process: { graph, image, timestamp in try graph.process(image, timestampInMilliseconds: timestamp) },
            resetTracking: { $0.resetTracking() })
        core.attach(self)
    }

    /// Finds the faces of a still image (image mode).
    public func detect(image: MPImage) throws -> FaceLandmarkerResult {
        try core.runner.processImage(image)
    }

    /// Finds the faces of a video frame (video mode; timestamps must strictly increase). Faces are
    /// tracked from frame to frame.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> FaceLandmarkerResult {
        try core.runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped (`droppedFrameCount`), and when the delegate is
    /// slower than the frames, older results waiting for it are dropped (`droppedResultCount`).
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try core.runner.processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Finds face landmarks in a still image without blocking the caller (image mode): the async variant of
    /// `detect(image:)`. Cancelled before it starts, it throws `CancellationError`.
    public func detect(image: MPImage) async throws -> FaceLandmarkerResult {
        try await core.runner.processImage(image)
    }

    /// Finds face landmarks in a video frame without blocking the caller (video mode; timestamps must strictly
    /// increase in the order of the calls). Cancelled before it starts, it throws `CancellationError`.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> FaceLandmarkerResult {
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

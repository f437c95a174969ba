import VisionCore

/// Finds hands and their 21 landmarks as MediaPipe's Hand Landmarker does, with the API of MediaPipe
/// for iOS: `detect(image:)`, `detect(videoFrame:timestampInMilliseconds:)` and
/// `detectAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode. In video and
/// live-stream mode hands are tracked from frame to frame. Handedness labels are MediaPipe's,
/// which its documentation says assume a mirrored (front-camera) picture.
public final class HandLandmarker: Sendable {
    private let core: TaskCore<HandLandmarker, HandLandmarkerResult>

    /// Creates a landmarker in image mode with default options from a `hand_landmarker.task` file.
    public convenience init(modelPath: String) throws {
        try self.init(options: HandLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Creates a landmarker. Throws `invalidOption` for `numHands` below 1, a confidence outside
    /// [0, 1], a live-stream mode without delegate or a delegate in another mode; `invalidBundle`
    /// for a file that is not a hand landmarker bundle; and the models' load errors.
    public init(options: HandLandmarkerOptions) throws {
        let settings = try options.handLandmarkerSettings()
        core = try TaskCore(
            taskName: "HandLandmarker", verb: "detect", runningMode: options.runningMode,
            delegateOption: "handLandmarkerLiveStreamDelegate",
            delegate: options.handLandmarkerLiveStreamDelegate,
            deliver: { $0.handLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) },
            loadGraph: { () throws -> HandLandmarkerGraph in
                let bundle = try options.baseOptions.loadTaskBundle(task: "HandLandmarker")
                return try HandLandmarkerGraph(bundle: bundle, name: bundle.name, settings: settings)
            },
            process: { try Self.result($0, $1, $2) },
            resetTracking: { $0.resetTracking() })
        core.attach(self)
    }

    /// Finds hands in a still image (image mode).
    public func detect(image: MPImage) throws -> HandLandmarkerResult {
        try core.runner.processImage(image)
    }

    /// Finds hands in a video frame (video mode; timestamps must strictly increase).
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> HandLandmarkerResult {
        try core.runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped (`droppedFrameCount`), and when the delegate is
    /// slower than the frames, older results waiting for it are dropped (`droppedResultCount`).
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try core.runner.processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Finds hands in a still image without blocking the caller (image mode): the async variant of
    /// `detect(image:)`. Cancelled before it starts, it throws `CancellationError`.
    public func detect(image: MPImage) async throws -> HandLandmarkerResult {
        try await core.runner.processImage(image)
    }

    /// Finds hands in a video frame without blocking the caller (video mode; timestamps must strictly
    /// increase in the order of the calls). Cancelled before it starts, it throws `CancellationError`.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> HandLandmarkerResult {
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

extension HandLandmarker {
    /// The landmarker's result for one frame: the graph's hands as public types.
    private static func result(_ graph: HandLandmarkerGraph, _ image: MPImage, _ timestamp: Int) throws -> HandLandmarkerResult {
        let hands = try graph.process(image)
        return HandLandmarkerResult(landmarks: hands.map(\.normalizedLandmarks),
                                    worldLandmarks: hands.map(\.publicWorldLandmarks),
                                    handedness: hands.map(\.handednessCategories),
                                    timestampInMilliseconds: timestamp)
    }
}

import VisionCore

/// What the four tasks (`FaceDetector`, `FaceLandmarker`, `HandLandmarker`, `GestureRecognizer`)
/// share besides their running-mode methods: restarting a stream, waiting for the live stream, and
/// the live stream's dropped-frame and dropped-result counts. Only VisionTasks' tasks adopt it.
public protocol VisionTask: AnyObject, Sendable {
    /// The task's result for one frame (`FaceDetectorResult`, ...).
    associatedtype TaskResult: Sendable
    /// The machinery running the task's frames (VisionTasks' own; it has no public members).
    var _taskCore: TaskCore<Self, TaskResult> { get }
}

extension VisionTask {
    /// Starts a new video or live stream (video and live-stream mode; `runningModeMismatch` in image
    /// mode): waits until the live-stream frames sent so far are delivered, then clears the tracking
    /// state and the last timestamp, so timestamps may start again. Not from the delegate's callback.
    public func reset() throws {
        try _taskCore.runner.reset()
    }

    /// Blocks until every live-stream frame sent so far has been processed and delivered
    /// (VisionTasks' addition, for orderly shutdown and tests).
    public func waitUntilIdle() {
        _taskCore.runner.waitUntilIdle()
    }

    /// Live-stream frames dropped so far because a newer frame came while they waited to be processed.
    public var droppedFrameCount: Int { _taskCore.runner.droppedFrameCount }

    /// Live-stream results dropped so far because the delegate was slow: at most four finished
    /// results wait for it, and a newer one drops the oldest waiting. Memory stays bounded.
    public var droppedResultCount: Int { _taskCore.runner.droppedResultCount }

    /// Runs the task on a still image (image mode): what `detect(image:)` and `recognize(image:)` do.
    package func processImage(_ image: MPImage) throws -> TaskResult {
        try _taskCore.runner.processImage(image)
    }

    /// Runs the task on a video frame (video mode): `detect(videoFrame:timestampInMilliseconds:)`.
    package func processVideoFrame(_ image: MPImage, timestampInMilliseconds: Int) throws -> TaskResult {
        try _taskCore.runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame (live-stream mode): `detectAsync(image:timestampInMilliseconds:)`.
    package func processAsync(_ image: MPImage, timestampInMilliseconds: Int) throws {
        try _taskCore.runner.processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The async variant of `processImage`.
    package func processImage(_ image: MPImage) async throws -> TaskResult {
        try await _taskCore.runner.processImage(image)
    }

    /// The async variant of `processVideoFrame`.
    package func processVideoFrame(_ image: MPImage, timestampInMilliseconds: Int) async throws -> TaskResult {
        try await _taskCore.runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// A task whose running-mode methods are named `detect` (`FaceDetector`, `FaceLandmarker`,
/// `HandLandmarker`; `GestureRecognizer` names them `recognize`). Only VisionTasks' tasks adopt it.
public protocol DetectingVisionTask: VisionTask {}

extension DetectingVisionTask {
    /// Runs the task on a still image (image mode) and returns what it found there.
    public func detect(image: MPImage) throws -> TaskResult {
        try processImage(image)
    }

    /// Runs the task on a video frame (video mode; timestamps must strictly increase). In the
    /// landmarkers, faces and hands are tracked from frame to frame.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> TaskResult {
        try processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped (`droppedFrameCount`), and when the delegate is
    /// slower than the frames, older results waiting for it are dropped (`droppedResultCount`).
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Runs the task on a still image without blocking the caller (image mode): the async variant
    /// of `detect(image:)`. Cancelled before it starts, it throws `CancellationError`.
    public func detect(image: MPImage) async throws -> TaskResult {
        try await processImage(image)
    }

    /// Runs the task on a video frame without blocking the caller (video mode; timestamps must
    /// strictly increase in the order of the calls). Cancelled before it starts, it throws
    /// `CancellationError`.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> TaskResult {
        try await processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }
}

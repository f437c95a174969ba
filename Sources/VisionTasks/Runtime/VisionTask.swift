import VisionCore

/// What the six tasks (`FaceDetector`, `FaceLandmarker`, `HandLandmarker`, `GestureRecognizer`,
/// `PoseLandmarker`, `ImageSegmenter`) share besides their running-mode methods: creation from their
/// options or a model path, restarting a stream, waiting for the live stream, and the live stream's
/// dropped-frame and dropped-result counts. Only VisionTasks' tasks adopt it.
public protocol VisionTask: AnyObject, Sendable {
    /// The task's result for one frame (`FaceDetectorResult`, ...).
    associatedtype TaskResult: Sendable
    /// The task's options class (`FaceDetectorOptions`, ...).
    associatedtype Options: VisionTaskOptions

    /// Creates the task; each task's initializer lists what it throws for a bad model or option.
    init(options: Options) throws

    /// Starts a new video or live stream (video and live-stream mode; `runningModeMismatch` in image
    /// mode): waits until the live-stream frames sent before the call are delivered (from any task's delegate callback:
    /// processed, their results delivered after it; frames sent meanwhile are not waited for), then clears the tracking state and the last timestamp, so timestamps may
    /// start again.
    /// - Throws: `VisionTasksError.runningModeMismatch` when the task was created in image mode.
    func reset() throws

    /// Blocks until every live-stream frame sent before the call has been processed and delivered (from any task's
    /// delegate callback: processed, so two delegates may each wait for the other's task); frames sent meanwhile are
    /// not waited for. VisionTasks' addition, for orderly shutdown and tests.
    func waitUntilIdle()

    /// Live-stream frames dropped so far because a newer frame came while they waited to be processed.
    var droppedFrameCount: Int { get }

    /// Live-stream results dropped so far because the delegate was slow: at most four finished
    /// results wait for it, and a newer one drops the oldest waiting. Memory stays bounded.
    var droppedResultCount: Int { get }
}

extension VisionTask {
    /// Creates the task in image mode with every option at its default and the model at `modelPath`
    /// (the file each options class names: `face_landmarker.task`, `blaze_face_short_range.tflite`, ...).
    /// - Parameter modelPath: The path of the task's model file or `.task` bundle.
    /// - Throws: `VisionTasksError.fileNotFound` or `.fileUnreadable` for the file (`.invalidOption` for an
    ///   empty path); `.invalidBundle` for a bundle that is not the task's or lacks one of its files;
    ///   `.invalidModel` or `.unsupportedModel` for a model that is malformed or that the engine cannot run.
    public init(modelPath: String) throws {
        try self.init(options: Options(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }
}

/// A task whose running-mode methods are named `detect` (`FaceDetector`, `FaceLandmarker`,
/// `HandLandmarker`; `GestureRecognizer` names them `recognize`, `ImageSegmenter` `segment`). Only
/// VisionTasks' tasks adopt it.
public protocol DetectingVisionTask: VisionTask {
    /// Runs the task on a still image (image mode) and returns what it found there.
    /// - Parameter image: The image; its `orientation` says how to turn it upright (mirrored ones are refused).
    /// - Returns: What the task found, with timestamp 0.
    /// - Throws: `VisionTasksError.runningModeMismatch` when the task was not created in image mode;
    ///   `.invalidImage` for a mirrored orientation.
    func detect(image: MPImage) throws -> TaskResult

    /// Runs the task on a video frame (video mode; timestamps must strictly increase). In the
    /// landmarkers, faces and hands are tracked from frame to frame.
    /// - Parameters:
    ///   - image: The frame; its `orientation` says how to turn it upright (mirrored ones are refused).
    ///   - timestampInMilliseconds: The frame's time, greater than every earlier frame's since the start or `reset()`.
    /// - Returns: What the task found in the frame, with its timestamp.
    /// - Throws: `VisionTasksError.runningModeMismatch` when the task was not created in video mode;
    ///   `.invalidTimestamp` when the timestamp is not above the last one or outside
    ///   `FrameContext.timestampRange`; `.invalidImage` for a mirrored orientation.
    func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> TaskResult

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped (`droppedFrameCount`), and when the delegate is
    /// slower than the frames, older results waiting for it are dropped (`droppedResultCount`).
    /// - Parameters:
    ///   - image: The frame; its `orientation` says how to turn it upright (mirrored ones are refused).
    ///   - timestampInMilliseconds: The frame's time, greater than every earlier frame's since the start or `reset()`.
    /// - Throws: `VisionTasksError.runningModeMismatch` when the task was not created in live-stream mode;
    ///   `.invalidTimestamp` when the timestamp is not above the last one or outside
    ///   `FrameContext.timestampRange`; `.invalidImage` for a mirrored orientation (its timestamp stays free). An
    ///   error met while processing the frame goes to the delegate with its timestamp.
    func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws

    /// Runs the task on a still image without blocking the caller (image mode): the async variant
    /// of `detect(image:)`. Cancelled before it starts, it throws `CancellationError`.
    /// - Parameter image: The image; its `orientation` says how to turn it upright (mirrored ones are refused).
    /// - Returns: What the task found, with timestamp 0.
    /// - Throws: As `detect(image:)` does, or `CancellationError`.
    func detect(image: MPImage) async throws -> TaskResult

    /// Runs the task on a video frame without blocking the caller (video mode; timestamps must
    /// strictly increase in the order of the calls). Cancelled before it starts, it throws
    /// `CancellationError`.
    /// - Parameters:
    ///   - image: The frame; its `orientation` says how to turn it upright (mirrored ones are refused).
    ///   - timestampInMilliseconds: The frame's time, greater than every earlier frame's since the start or `reset()`.
    /// - Returns: What the task found in the frame, with its timestamp.
    /// - Throws: As `detect(videoFrame:timestampInMilliseconds:)` does, or `CancellationError` (a frame
    ///   cancelled while it waited keeps its timestamp used).
    func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> TaskResult
}

/// A task run by a `TaskCore`: the six tasks adopt it, and it gives them `VisionTask`'s and
/// `DetectingVisionTask`'s members, and package-wide the running-mode methods under neutral names
/// (`processImage`, ...) that the CLI and the server call, so no caller forwards `recognize` to `detect`.
package protocol CoreBackedTask: VisionTask {
    /// The machinery running the task's frames.
    var taskCore: TaskCore<Self, TaskResult> { get }
    /// The verb of its running-mode methods, as errors name them: "detect" for a `DetectingVisionTask`,
    /// "recognize" for `recognize(image:)`, ...
    static var verb: String { get }
}

extension CoreBackedTask where Self: DetectingVisionTask {
    /// A detecting task's methods are `detect(image:)`, `detect(videoFrame:timestampInMilliseconds:)`, ...
    package static var verb: String { "detect" }
}

extension CoreBackedTask {
    public func reset() throws {
        try taskCore.runner.reset()
    }

    public func waitUntilIdle() {
        taskCore.runner.waitUntilIdle()
    }

    public var droppedFrameCount: Int { taskCore.runner.droppedFrameCount }

    public var droppedResultCount: Int { taskCore.runner.droppedResultCount }

    /// Runs the task on a still image (image mode): what `detect(image:)` and `recognize(image:)` do.
    package func processImage(_ image: MPImage) throws -> TaskResult {
        try taskCore.runner.processImage(image)
    }

    /// Runs the task on a video frame (video mode): `detect(videoFrame:timestampInMilliseconds:)`.
    package func processVideoFrame(_ image: MPImage, timestampInMilliseconds: Int) throws -> TaskResult {
        try taskCore.runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame (live-stream mode): `detectAsync(image:timestampInMilliseconds:)`.
    package func processAsync(_ image: MPImage, timestampInMilliseconds: Int) throws {
        try taskCore.runner.processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The async variant of `processImage`.
    package func processImage(_ image: MPImage) async throws -> TaskResult {
        try await taskCore.runner.processImage(image)
    }

    /// The async variant of `processVideoFrame`.
    package func processVideoFrame(_ image: MPImage, timestampInMilliseconds: Int) async throws -> TaskResult {
        try await taskCore.runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    // `DetectingVisionTask`'s methods, for the tasks that adopt it (only as its witnesses: a
    // `GestureRecognizer` has no public `detect`).

    public func detect(image: MPImage) throws -> TaskResult {
        try processImage(image)
    }

    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> TaskResult {
        try processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    public func detect(image: MPImage) async throws -> TaskResult {
        try await processImage(image)
    }

    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> TaskResult {
        try await processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }
}

import VisionCore

/// Recognizes hand gestures as MediaPipe's Gesture Recognizer does, with the API of MediaPipe for
/// iOS: `recognize(image:)`, `recognize(videoFrame:timestampInMilliseconds:)` and
/// `recognizeAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode. It runs
/// the Hand Landmarker (tracking hands in video and live-stream mode), then the gesture embedder
/// and the canned (and, when the bundle has one, custom) gesture classifier on every hand.
public final class GestureRecognizer: VisionTask, CoreBackedTask {
    /// The machinery running the task's frames.
    package let taskCore: TaskCore<GestureRecognizer, GestureRecognizerResult>

    /// Creates a recognizer.
    /// - Parameter options: The model, running mode, thresholds, classifier options and (in live-stream mode
    ///   only) the delegate.
    /// - Throws: `VisionTasksError.invalidOption` for `numHands` below 1, a confidence outside [0, 1],
    ///   classifier options MediaPipe rejects (`maxResults` 0, both an allowlist and a denylist), a
    ///   live-stream mode without delegate or a delegate in another mode, or bad base options (a `.GPU`
    ///   delegate, `numThreads` outside 1...64, no model); and the model's load errors as
    ///   `init(modelPath:)` lists them.
    public init(options: GestureRecognizerOptions) throws {
        taskCore = try TaskCore(
            bundled: options,
            loadGraph: {
                try GestureRecognizerGraph(
                    bundle: $0, name: $0.name, settings: options.handLandmarkerSettings(),
                    classifiers: (options.cannedGesturesClassifierOptions, options.customGesturesClassifierOptions))
            },
            result: Self.result)
        taskCore.attach(self)
    }

    /// What it returns for one frame (`VisionTask`).
    public typealias TaskResult = GestureRecognizerResult
    /// Its running-mode methods are `recognize(image:)`, `recognizeAsync(image:timestampInMilliseconds:)`, ...
    package static let verb = "recognize"

    /// Recognizes gestures in a still image (image mode).
    /// - Parameter image: The image; its `orientation` says how to turn it upright (mirrored ones are refused).
    /// - Returns: The hands and their gestures, with timestamp 0.
    /// - Throws: `VisionTasksError.runningModeMismatch` when the recognizer was not created in image mode;
    ///   `.invalidImage` for a mirrored orientation.
    public func recognize(image: MPImage) throws -> GestureRecognizerResult {
        try processImage(image)
    }

    /// Recognizes gestures in a video frame (video mode; timestamps must strictly increase).
    /// - Parameters:
    ///   - image: The frame; its `orientation` says how to turn it upright (mirrored ones are refused).
    ///   - timestampInMilliseconds: The frame's time, greater than every earlier frame's since the start or `reset()`.
    /// - Returns: The hands and their gestures in the frame, with its timestamp.
    /// - Throws: `VisionTasksError.runningModeMismatch` when the recognizer was not created in video mode;
    ///   `.invalidTimestamp` when the timestamp is not above the last one or outside
    ///   `FrameContext.timestampRange`; `.invalidImage` for a mirrored orientation.
    public func recognize(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> GestureRecognizerResult {
        try processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped (`droppedFrameCount`), and when the delegate is
    /// slower than the frames, older results waiting for it are dropped (`droppedResultCount`).
    /// - Parameters:
    ///   - image: The frame; its `orientation` says how to turn it upright (mirrored ones are refused).
    ///   - timestampInMilliseconds: The frame's time, greater than every earlier frame's since the start or `reset()`.
    /// - Throws: `VisionTasksError.runningModeMismatch` when the recognizer was not created in live-stream
    ///   mode; `.invalidTimestamp` when the timestamp is not above the last one or outside
    ///   `FrameContext.timestampRange`; `.invalidImage` for a mirrored orientation (its timestamp stays free). An
    ///   error met while processing the frame goes to the delegate with its timestamp.
    public func recognizeAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Recognizes gestures in a still image without blocking the caller (image mode): the async variant of
    /// `recognize(image:)`. Cancelled before it starts, it throws `CancellationError`.
    /// - Parameter image: The image; its `orientation` says how to turn it upright (mirrored ones are refused).
    /// - Returns: The hands and their gestures, with timestamp 0.
    /// - Throws: As `recognize(image:)` does, or `CancellationError`.
    public func recognize(image: MPImage) async throws -> GestureRecognizerResult {
        try await processImage(image)
    }

    /// Recognizes gestures in a video frame without blocking the caller (video mode; timestamps must strictly
    /// increase in the order of the calls). Cancelled before it starts, it throws `CancellationError`.
    /// - Parameters:
    ///   - image: The frame; its `orientation` says how to turn it upright (mirrored ones are refused).
    ///   - timestampInMilliseconds: The frame's time, greater than every earlier frame's since the start or `reset()`.
    /// - Returns: The hands and their gestures in the frame, with its timestamp.
    /// - Throws: As `recognize(videoFrame:timestampInMilliseconds:)` does, or `CancellationError` (a frame
    ///   cancelled while it waited keeps its timestamp used).
    public func recognize(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws
        -> GestureRecognizerResult
    {
        try await processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }
}

extension GestureRecognizer {
    /// The result of one frame's hands and their gestures (nil: every classifier result filtered away), as
    /// MediaPipe 1.2.2 assembles it: its CombinedPredictionCalculator sends no packet for such a
    /// hand and the EndLoop collecting the gestures skips it, so `gestures` lists only the hands that
    /// got one (in hand order) while the hand lists keep every hand; when no hand got one, no
    /// gesture packet is sent and the whole result is empty. `tracks` (video and live stream): the
    /// hands' tracking ids go with them.
    static func result(_ observations: [GestureObservation], in frame: FrameContext, tracks: Bool)
        -> GestureRecognizerResult
    {
        let timestamp = frame.timestampInMilliseconds
        let gestureLists = observations.compactMap(\.gesture).map {
            [ResultCategory(index: -1, score: $0.score, categoryName: $0.label, displayName: "")]
        }
        guard !gestureLists.isEmpty else {
            return GestureRecognizerResult(
                gestures: [], handedness: [], landmarks: [], worldLandmarks: [],
                trackingIds: tracks ? [] : nil, timestampInMilliseconds: timestamp)
        }
        return GestureRecognizerResult(
            gestures: gestureLists, handedness: observations.map(\.hand.handednessCategories),
            landmarks: observations.map(\.hand.normalizedLandmarks),
            worldLandmarks: observations.map(\.hand.publicWorldLandmarks),
            trackingIds: tracks ? observations.compactMap(\.hand.trackingId) : nil,
            timestampInMilliseconds: timestamp)
    }
}

/// How the CLI and the server drive the task (`DescribedTask`): its live-stream delegate and what a
/// result counts.
extension GestureRecognizer: DescribedTask {
    package static let liveStream = LiveStreamDelegation(
        \GestureRecognizerOptions.gestureRecognizerLiveStreamDelegate, handler: { $0 }
    ) {
        $0.gestureRecognizer($1, didFinishGestureRecognition: $2, timestampInMilliseconds: $3, error: $4)
    }
    package static func foundCount(in result: GestureRecognizerResult) -> Int { result.landmarks.count }
}

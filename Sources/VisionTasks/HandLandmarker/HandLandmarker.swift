import VisionCore

/// Finds hands and their 21 landmarks as MediaPipe's Hand Landmarker does, with the API of MediaPipe
/// for iOS: `detect(image:)`, `detect(videoFrame:timestampInMilliseconds:)` and
/// `detectAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode. In video and
/// live-stream mode hands are tracked from frame to frame. Handedness labels are MediaPipe's,
/// which its documentation says assume a mirrored (front-camera) picture.
public final class HandLandmarker: DetectingVisionTask {
    /// The machinery running the task's frames (``VisionTask``).
    public let _taskCore: TaskCore<HandLandmarker, HandLandmarkerResult>

    /// Creates a landmarker in image mode with default options from a `hand_landmarker.task` file.
    public convenience init(modelPath: String) throws {
        try self.init(options: HandLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Creates a landmarker. Throws `invalidOption` for `numHands` below 1, a confidence outside
    /// [0, 1], a live-stream mode without delegate or a delegate in another mode; `invalidBundle`
    /// for a file that is not a hand landmarker bundle; and the models' load errors.
    public init(options: HandLandmarkerOptions) throws {
        try HandLandmarkerOptions.taskDescription.validate(options)
        let settings = options.handLandmarkerSettings()
        _taskCore = try TaskCore(
            taskName: "HandLandmarker", verb: "detect", runningMode: options.runningMode,
            delegateOption: "handLandmarkerLiveStreamDelegate",
            delegate: options.handLandmarkerLiveStreamDelegate,
            deliver: { $0.handLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) },
            loadGraph: { () throws -> HandLandmarkerGraph in
                let bundle = try options.baseOptions.loadTaskBundle(task: "HandLandmarker")
                return try HandLandmarkerGraph(bundle: bundle, name: bundle.name, settings: settings)
            },
            result: { Self.result($0, in: $1) })
        _taskCore.attach(self)
    }
}

extension HandLandmarker {
    /// The landmarker's result for one frame: the graph's hands as public types.
    private static func result(_ hands: [HandObservation], in frame: FrameContext) -> HandLandmarkerResult {
        HandLandmarkerResult(landmarks: hands.map(\.normalizedLandmarks),
                             worldLandmarks: hands.map(\.publicWorldLandmarks),
                             handedness: hands.map(\.handednessCategories),
                             timestampInMilliseconds: frame.timestampInMilliseconds)
    }
}

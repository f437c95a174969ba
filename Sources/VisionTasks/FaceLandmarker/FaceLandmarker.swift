import VisionCore

/// Finds face landmarks, blendshapes and facial transformation matrices as MediaPipe's Face
/// Landmarker does, with the API of MediaPipe for iOS: `detect(image:)`,
/// `detect(videoFrame:timestampInMilliseconds:)` and `detectAsync(image:timestampInMilliseconds:)`,
/// each allowed only in its running mode. Landmarks are normalized to the upright image.
public final class FaceLandmarker: DetectingVisionTask {
    /// The machinery running the task's frames (``VisionTask``).
    public let _taskCore: TaskCore<FaceLandmarker, FaceLandmarkerResult>

    /// Creates a landmarker in image mode with default options from a `face_landmarker.task` file.
    public convenience init(modelPath: String) throws {
        try self.init(options: FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Creates a landmarker. Throws `invalidOption` for `numFaces` below 1, a confidence outside
    /// [0, 1], a live-stream mode without delegate or a delegate in another mode; `invalidBundle`
    /// for a model that is not a face landmarker bundle or lacks one of its files.
    public init(options: FaceLandmarkerOptions) throws {
        try FaceLandmarkerOptions.taskDescription.validate(options)
        let base = options.baseOptions
        _taskCore = try TaskCore(
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
        _taskCore.attach(self)
    }
}

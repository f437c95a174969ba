import TFLite
import VisionCore
import VisionErrors

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
        let settings = FaceLandmarkerGraph.Settings(options)
        _taskCore = try TaskCore(
            taskName: "FaceLandmarker", verb: "detect", runningMode: options.runningMode,
            delegateOption: "faceLandmarkerLiveStreamDelegate",
            delegate: options.faceLandmarkerLiveStreamDelegate,
            deliver: { $0.faceLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) },
            loadGraph: {
                let bundle = try options.baseOptions.loadTaskBundle(task: "FaceLandmarker")
                return try FaceLandmarkerGraph(bundle: bundle, name: bundle.name, settings: settings,
                                               faceDetector: try Self.faceDetectorModel(options))
            },
            result: { Self.result($0, in: $1) })
        _taskCore.attach(self)
    }
}

extension FaceLandmarker {
    /// The face detector replacing the bundle's, with the name errors give it, when the options name
    /// one: a `.tflite` file or a bundle's `face_detector.tflite`, read under `baseOptions`' limits.
    /// Throws `invalidOption` for an empty path, and the file's read and load errors.
    private static func faceDetectorModel(_ options: FaceLandmarkerOptions) throws -> (model: TFLiteModel, name: String)? {
        guard let path = options.faceDetectorModelAssetPath else { return nil }
        guard !path.isEmpty else {
            throw VisionTasksError.invalidOption(name: "faceDetectorModelAssetPath", reason: "is empty")
        }
        var base = options.baseOptions
        (base.modelAssetPath, base.modelAssetBuffer) = (path, nil)
        return (try ModelBundle.taskModel(try base.loadModelAsset(), name: path, entry: FaceDetectionGraph.bundleEntry,
                                          maxDecompressedBytes: base.maxDecompressedBundleBytes), path)
    }

    /// The landmarker's result for one frame: the graph's faces as public types. A face whose
    /// geometry gives no matrix has none, so the matrices may be fewer than the faces.
    private static func result(_ faces: [FaceObservation], in frame: FrameContext) -> FaceLandmarkerResult {
        FaceLandmarkerResult(
            faceLandmarks: faces.map { $0.landmarks.map { NormalizedLandmark(x: $0.x, y: $0.y, z: $0.z) } },
            faceBlendshapes: faces.compactMap(\.blendshapes),
            facialTransformationMatrixes: faces.compactMap(\.transformationMatrix),
            timestampInMilliseconds: frame.timestampInMilliseconds)
    }
}

extension FaceLandmarkerGraph.Settings {
    /// The graph's settings from the task's options (checked by the task's init).
    init(_ options: FaceLandmarkerOptions) {
        self.init(numFaces: options.numFaces, minFaceDetectionConfidence: options.minFaceDetectionConfidence,
                  minFacePresenceConfidence: options.minFacePresenceConfidence,
                  minTrackingConfidence: options.minTrackingConfidence,
                  outputFaceBlendshapes: options.outputFaceBlendshapes,
                  outputFacialTransformationMatrixes: options.outputFacialTransformationMatrixes,
                  tracks: options.runningMode != .image, numThreads: options.baseOptions.numThreads)
    }
}

import TFLite
import VisionCore
import VisionErrors

/// Finds face landmarks, blendshapes and facial transformation matrices as MediaPipe's Face
/// Landmarker does, with the API of MediaPipe for iOS: `detect(image:)`,
/// `detect(videoFrame:timestampInMilliseconds:)` and `detectAsync(image:timestampInMilliseconds:)`,
/// each allowed only in its running mode. Landmarks are normalized to the upright image.
///
/// Tracking ids (video and live stream): each face keeps its id while it is tracked from frame to
/// frame (a new detection overlapping a tracked face by more than `minTrackingConfidence` continues
/// it); a face that appears, or reappears after being lost, takes the next unused id, counting from
/// 0 (`reset()` starts over). There is no re-identification by appearance. Faces are ordered by id in
/// video and live stream (the order they appeared in, so it does not flip between frames), in the
/// detector's order in image mode.
public final class FaceLandmarker: DetectingVisionTask, CoreBackedTask {
    /// The machinery running the task's frames.
    package let taskCore: TaskCore<FaceLandmarker, FaceLandmarkerResult>

    /// Creates a landmarker.
    /// - Parameter options: The model, running mode, thresholds and (in live-stream mode only) the delegate.
    /// - Throws: `VisionTasksError.invalidOption` for `numFaces` below 1, a confidence outside [0, 1], a
    ///   live-stream mode without delegate or a delegate in another mode, or bad base options (a `.GPU`
    ///   delegate, `numThreads` outside 1...64, no model); and the model's load errors as
    ///   `init(modelPath:)` lists them. A `faceDetectorModelAssetPath` that is empty throws `.invalidOption`;
    ///   one that does not load throws as a Face Detector's `init(modelPath:)` does.
    public init(options: FaceLandmarkerOptions) throws {
        let settings = FaceLandmarkerGraph.Settings(options)
        taskCore = try TaskCore(
            bundled: options,
            loadGraph: {
                try FaceLandmarkerGraph(
                    bundle: $0, name: $0.name, settings: settings, faceDetector: try Self.faceDetectorModel(options))
            },
            result: { Self.result($0, in: $1, tracks: $2, settings: settings) })
        taskCore.attach(self)
    }

    /// What it returns for one frame (`VisionTask`).
    public typealias TaskResult = FaceLandmarkerResult
}

extension FaceLandmarker {
    /// The face detector replacing the bundle's, with the name errors give it, when the options name
    /// one: a `.tflite` file or a bundle's `face_detector.tflite`, read under `baseOptions`' limits.
    /// Throws `invalidOption` for an empty path, and the file's read and load errors.
    private static func faceDetectorModel(_ options: FaceLandmarkerOptions) throws -> (
        model: TFLiteModel, name: String
    )? {
        guard let path = options.faceDetectorModelAssetPath else { return nil }
        guard !path.isEmpty else {
            throw VisionTasksError.invalidOption(name: "faceDetectorModelAssetPath", reason: "is empty")
        }
        var base = options.baseOptions
        (base.modelAssetPath, base.modelAssetBuffer) = (path, nil)
        return (
            try ModelBundle.taskModel(
                try base.loadModelAsset(), name: path, entry: FaceDetectionGraph.bundleEntry,
                maxDecompressedBytes: base.maxDecompressedBundleBytes), path
        )
    }

    /// The landmarker's result for one frame: the graph's faces as public types, with the matrices and
    /// head poses the graph's `settings` ask for. A face whose geometry gives no matrix has neither, so they may
    /// be fewer than the faces. `tracks` (video and live stream): the faces' tracking ids go with them.
    private static func result(
        _ faces: [FaceObservation], in frame: FrameContext, tracks: Bool, settings: FaceLandmarkerGraph.Settings
    ) -> FaceLandmarkerResult {
        FaceLandmarkerResult(
            faceLandmarks: faces.map { $0.landmarks.map { NormalizedLandmark(x: $0.x, y: $0.y, z: $0.z) } },
            faceBlendshapes: faces.compactMap(\.blendshapes),
            facialTransformationMatrixes: settings.outputFacialTransformationMatrixes
                ? faces.compactMap(\.transformationMatrix) : [],
            headPoses: settings.outputHeadPoses
                ? faces.compactMap { $0.transformationMatrix.flatMap(HeadPose.init) } : nil,
            trackingIds: tracks ? faces.compactMap(\.trackingId) : nil,
            timestampInMilliseconds: frame.timestampInMilliseconds)
    }
}

extension FaceLandmarkerGraph.Settings {
    /// The graph's settings from the task's options (checked by the task's init).
    init(_ options: FaceLandmarkerOptions) {
        self.init(
            faces: FaceLandmarkerOptions.Declared.faces.settings(of: options),
            outputFaceBlendshapes: options.outputFaceBlendshapes,
            outputFacialTransformationMatrixes: options.outputFacialTransformationMatrixes,
            outputHeadPoses: options.outputHeadPoses)
    }
}

/// How the CLI and the server drive the task (`DescribedTask`): its live-stream delegate and what a
/// result counts.
extension FaceLandmarker: DescribedTask {
    package static let liveStream = LiveStreamDelegation(
        \FaceLandmarkerOptions.faceLandmarkerLiveStreamDelegate, handler: { $0 }
    ) {
        $0.faceLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4)
    }
    package static func foundCount(in result: FaceLandmarkerResult) -> Int { result.faceLandmarks.count }
}

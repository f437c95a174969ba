import VisionCore

/// Finds people and their 33 body landmarks as MediaPipe's Pose Landmarker does, with the API of
/// MediaPipe for iOS: `detect(image:)`, `detect(videoFrame:timestampInMilliseconds:)` and
/// `detectAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode. In video and
/// live-stream mode people are tracked from frame to frame and, as in MediaPipe, a single person
/// (`numPoses` 1) is smoothed; `smoothAllPoses` smooths every person by id.
///
/// Tracking ids (video and live stream): each person keeps an id while tracked from frame to frame
/// (a new detection overlapping a tracked person by more than `minTrackingConfidence` continues it);
/// a person who appears, or reappears after being lost, takes the next unused id, counting from 0
/// (`reset()` starts over). There is no re-identification by appearance. People are ordered by id in
/// video and live stream, in the detector's order in image mode.
public final class PoseLandmarker: DetectingVisionTask, CoreBackedTask {
    /// The machinery running the task's frames.
    package let taskCore: TaskCore<PoseLandmarker, PoseLandmarkerResult>

    /// Creates a landmarker in image mode with default options from a `pose_landmarker_full.task` file.
    public convenience init(modelPath: String) throws {
        try self.init(options: PoseLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Creates a landmarker. Throws `invalidOption` for `numPoses` below 1, a confidence outside
    /// [0, 1], a live-stream mode without delegate or a delegate in another mode; `invalidBundle`
    /// for a file that is not a pose landmarker bundle; and the models' load errors.
    public init(options: PoseLandmarkerOptions) throws {
        let settings = PoseLandmarkerGraph.Settings(options)
        let outputs = (
            tracks: settings.tracks, masks: settings.outputSegmentationMasks, angles: options.outputJointAngles
        )
        taskCore = try TaskCore(
            options, verb: "detect", liveStream: Self.liveStream,
            loadGraph: {
                let bundle = try options.baseOptions.loadTaskBundle(task: "PoseLandmarker")
                return try PoseLandmarkerGraph(bundle: bundle, name: bundle.name, settings: settings)
            },
            result: { try Self.result($0, in: $1, outputs: outputs) })
        taskCore.attach(self)
    }

    /// What it returns for one frame (`VisionTask`).
    public typealias TaskResult = PoseLandmarkerResult
}

extension PoseLandmarker {
    /// The landmarker's result for one frame: the graph's people as public types, with the masks,
    /// joint angles and tracking ids `outputs` asks for.
    private static func result(
        _ poses: [PoseObservation], in frame: FrameContext,
        outputs: (tracks: Bool, masks: Bool, angles: Bool)
    ) throws -> PoseLandmarkerResult {
        PoseLandmarkerResult(
            landmarks: poses.map { pose in
                pose.landmarks.points.indices.map { i in
                    let p = pose.landmarks.points[i]
                    return NormalizedLandmark(
                        x: p.x, y: p.y, z: p.z, visibility: pose.landmarks.visibility[i],
                        presence: pose.landmarks.presence[i])
                }
            },
            worldLandmarks: poses.map { pose in
                pose.worldLandmarks.points.indices.map { i in
                    let p = pose.worldLandmarks.points[i]
                    return Landmark(
                        x: p.x, y: p.y, z: p.z, visibility: pose.worldLandmarks.visibility[i],
                        presence: pose.worldLandmarks.presence[i])
                }
            },
            segmentationMasks: outputs.masks
                ? try poses.compactMap { pose in
                    try pose.segmentationMask.map {
                        try Mask(width: frame.width, height: frame.height, float32Data: $0)
                    }
                } : nil,
            jointAngles: outputs.angles ? poses.map { PoseJoint.angles($0.worldLandmarks.points) } : nil,
            trackingIds: outputs.tracks ? poses.compactMap(\.trackingId) : nil,
            timestampInMilliseconds: frame.timestampInMilliseconds)
    }
}

extension PoseLandmarkerGraph.Settings {
    /// The graph's settings from the task's options (checked by the task's init).
    init(_ options: PoseLandmarkerOptions) {
        self.init(
            numPoses: options.numPoses, minPoseDetectionConfidence: options.minPoseDetectionConfidence,
            minPosePresenceConfidence: options.minPosePresenceConfidence,
            minTrackingConfidence: options.minTrackingConfidence,
            outputSegmentationMasks: options.outputSegmentationMasks, smoothAllPoses: options.smoothAllPoses,
            tracks: options.runningMode != .image, numThreads: options.baseOptions.numThreads)
    }
}

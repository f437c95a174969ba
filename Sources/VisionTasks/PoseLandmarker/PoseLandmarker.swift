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
/// video and live stream, in the detector's order in image mode. A frame whose segmentation masks would
/// hold more than `Mask.maxFrameValues` (people × pixels) is refused with `invalidArgument`.
public final class PoseLandmarker: DetectingVisionTask, CoreBackedTask {
    /// The machinery running the task's frames.
    package let taskCore: TaskCore<PoseLandmarker, PoseLandmarkerResult>

    /// Creates a landmarker.
    /// - Parameter options: The model, running mode, thresholds and (in live-stream mode only) the delegate.
    /// - Throws: `VisionTasksError.invalidOption` for `numPoses` below 1, a confidence outside [0, 1], a
    ///   live-stream mode without delegate or a delegate in another mode, or bad base options (a `.GPU`
    ///   delegate, `numThreads` outside 1...64, no model); and the model's load errors as
    ///   `init(modelPath:)` lists them.
    public init(options: PoseLandmarkerOptions) throws {
        let settings = PoseLandmarkerGraph.Settings(options)
        let angles = options.outputJointAngles
        taskCore = try TaskCore(
            bundled: options,
            loadGraph: { try PoseLandmarkerGraph(bundle: $0, name: $0.name, settings: settings) },
            result: { try Self.result($0, in: $1, tracks: $2, masks: settings.outputSegmentationMasks, angles: angles) }
        )
        taskCore.attach(self)
    }

    /// What it returns for one frame (`VisionTask`).
    public typealias TaskResult = PoseLandmarkerResult
}

extension PoseLandmarker {
    /// The landmarker's result for one frame: the graph's people as public types, with their masks when
    /// `masks`, joint angles when `angles`, and tracking ids when `tracks` (video and live stream).
    private static func result(
        _ poses: [PoseObservation], in frame: FrameContext, tracks: Bool, masks: Bool, angles: Bool
    ) throws -> PoseLandmarkerResult {
        PoseLandmarkerResult(
            landmarks: poses.map { NormalizedLandmark.scored($0.landmarks) },
            worldLandmarks: poses.map { Landmark.scored($0.worldLandmarks) },
            segmentationMasks: masks
                ? try poses.compactMap { pose in
                    try pose.segmentationMask.map {
                        try Mask(width: frame.width, height: frame.height, float32Data: $0)
                    }
                } : nil,
            jointAngles: angles ? poses.map { PoseJoint.angles($0.worldLandmarks.points) } : nil,
            trackingIds: tracks ? poses.compactMap(\.trackingId) : nil,
            timestampInMilliseconds: frame.timestampInMilliseconds)
    }
}

extension LandmarkPoint {
    /// `landmarks` as public landmarks, each with its visibility and presence.
    fileprivate static func scored(_ landmarks: ScoredLandmarks) -> [Self] {
        landmarks.points.indices.map { i in
            let p = landmarks.points[i]
            return Self(x: p.x, y: p.y, z: p.z, visibility: landmarks.visibility[i], presence: landmarks.presence[i])
        }
    }
}

extension PoseLandmarkerGraph.Settings {
    /// The graph's settings from the task's options (checked by the task's init).
    init(_ options: PoseLandmarkerOptions) {
        self.init(
            poses: PoseLandmarkerOptions.Declared.poses.settings(of: options),
            outputSegmentationMasks: options.outputSegmentationMasks, smoothAllPoses: options.smoothAllPoses)
    }
}

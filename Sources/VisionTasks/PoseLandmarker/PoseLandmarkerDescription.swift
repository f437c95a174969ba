extension PoseLandmarkerOptions {
    /// The Pose Landmarker's options, declared once: the initializer's defaults and every front end read them.
    public enum Declared {
        /// `numPoses` and the pose detection, presence and tracking thresholds.
        public static let poses = LandmarkerDeclarations<PoseLandmarkerOptions>(
            "pose", "poses", detectionHelp: "Pose detections scoring below this are dropped.", \.numPoses,
            \.minPoseDetectionConfidence, \.minPosePresenceConfidence, \.minTrackingConfidence)
        /// `outputSegmentationMasks`.
        public static let outputSegmentationMasks = DeclaredOption<PoseLandmarkerOptions, Bool>(
            "output-segmentation-masks", \.outputSegmentationMasks, label: "Segmentation masks",
            help: "Output each person's segmentation mask (probabilities, the image's size).", default: false)
        /// `outputJointAngles`.
        public static let outputJointAngles = DeclaredOption<PoseLandmarkerOptions, Bool>(
            "output-joint-angles", \.outputJointAngles, label: "Joint angles",
            help:
                "Output each person's elbow, shoulder, hip, knee, wrist and ankle angles in degrees (from the world landmarks).",
            default: false)
        /// `smoothAllPoses`.
        public static let smoothAllPoses = DeclaredOption<PoseLandmarkerOptions, Bool>(
            "smooth-all-poses", \.smoothAllPoses, label: "Smooth every person",
            help: "Video and live stream: smooth every person by tracking id (MediaPipe smooths only a single person).",
            default: false)
    }

    /// The Pose Landmarker as the CLI, the server and the docs describe it.
    public static let taskDescription = TaskDescription(
        name: "pose-landmarker", title: "Pose Landmarker",
        summary:
            "Find 33 body landmarks (image and world coordinates), and optionally segmentation masks and joint angles.",
        modelHelp: "the pose landmarker bundle, pose_landmarker_full.task.",
        preferredModels: ["pose_landmarker_full.task", "pose_landmarker_lite.task", "pose_landmarker_heavy.task"],
        options: Declared.poses.options + [
            Declared.outputSegmentationMasks.option, Declared.outputJointAngles.option,
            Declared.smoothAllPoses.option,
        ],
        outputs: ["landmarks", "worldLandmarks", "segmentationMasks", "jointAngles", "trackingIds"], foundNoun: "poses",
        connections: ConnectionSets(group: "pose", sets: ["pose": PoseLandmarksConnections.pose]))
}

extension LiveStreamHandler: PoseLandmarkerLiveStreamDelegate where Output == PoseLandmarkerResult {
    /// Hands the landmarker's result to the handler.
    public func poseLandmarker(
        _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        deliver(result, timestampInMilliseconds, error)
    }
}

// MediaPipe for iOS's connection accessor (MPPPoseLandmarker.h), so iOS drawing code ports.
extension PoseLandmarker {
    /// The whole body (`PoseLandmarksConnections.pose`).
    public static var poseLandmarks: [Connection] { PoseLandmarksConnections.pose }
}

/// How the CLI and the server drive the task (`DescribedTask`): its live-stream delegate and what a
/// result counts.
extension PoseLandmarker: DescribedTask {
    package static let liveStream = LiveStreamDelegation(
        \PoseLandmarkerOptions.poseLandmarkerLiveStreamDelegate, handler: { $0 }
    ) {
        $0.poseLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4)
    }
    package static func foundCount(in result: PoseLandmarkerResult) -> Int { result.landmarks.count }
}

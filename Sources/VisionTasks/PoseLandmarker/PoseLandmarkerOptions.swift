/// Receives the results of a pose landmarker in live-stream mode, as in MediaPipe for iOS.
/// Calls arrive on one serial queue, in timestamp order; frames dropped under load get no call,
/// nor do results dropped while four newer ones wait for a slow delegate (`droppedResultCount`).
public protocol PoseLandmarkerLiveStreamDelegate: AnyObject {
    /// Called with the result of the frame sent at `timestampInMilliseconds`, or with the error it
    /// raised (then `result` is nil).
    /// - Parameters:
    ///   - poseLandmarker: The landmarker that processed the frame.
    ///   - result: What it found, or nil when the frame raised `error`.
    ///   - timestampInMilliseconds: The frame's timestamp, as it was sent.
    ///   - error: The error the frame raised (such as `VisionTasksError.processingFailed`), or nil.
    func poseLandmarker(
        _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// Options of a `PoseLandmarker`, with the names of MediaPipe for iOS. The landmarker copies them
/// when it is created; changing them afterwards changes nothing. The model (`baseOptions`) is a
/// `pose_landmarker_full.task` bundle (or lite, or heavy).
public final class PoseLandmarkerOptions: VisionTaskOptions, DescribedOptions {
    /// The most people to find (at least 1, default 1).
    public var numPoses: Int = Declared.poses.count.defaultValue
    /// Pose detections scoring below this are dropped (0...1, default 0.5).
    public var minPoseDetectionConfidence: Float = Declared.poses.minDetectionConfidence.defaultValue
    /// People whose pose presence score is not above this are dropped (0...1, default 0.5).
    public var minPosePresenceConfidence: Float = Declared.poses.minPresenceConfidence.defaultValue
    /// In video and live-stream mode, the overlap (IoU) above which a new detection replaces a
    /// tracked person (0...1, default 0.5).
    public var minTrackingConfidence: Float = Declared.poses.minTrackingConfidence.defaultValue
    /// Whether results carry each person's segmentation mask (default false).
    public var outputSegmentationMasks: Bool = Declared.outputSegmentationMasks.defaultValue
    /// Whether results carry each person's joint angles in degrees (`PoseJoint`; default false).
    /// VisionTasks' extension.
    public var outputJointAngles: Bool = Declared.outputJointAngles.defaultValue
    /// In video and live-stream mode, whether every person is smoothed, each by tracking id (default
    /// false: as in MediaPipe, only a single person, `numPoses` 1, is smoothed). VisionTasks' extension.
    public var smoothAllPoses: Bool = Declared.smoothAllPoses.defaultValue
    /// Receives the results in live-stream mode (required there, forbidden otherwise). Held weakly.
    public weak var poseLandmarkerLiveStreamDelegate: (any PoseLandmarkerLiveStreamDelegate)?
}

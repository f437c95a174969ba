// MediaPipe's pose detector graph (pose_detector_graph.cc) as settings of the generic SSD steps: the
// pose model's anchors, how its raw outputs decode, how detections merge, and how a detection's two
// alignment keypoints become the landmark model's rect (in PoseROI.swift).

/// The fixed settings of MediaPipe's pose detection stage.
public enum PoseDetection {
    /// The pose detector's input side in pixels (224×224, letterboxed with zero borders).
    public static let inputSize = 224
    /// Number of anchors (and raw boxes) of the pose detector.
    public static let numBoxes = 2254
    /// Number of keypoints per detection: 0 is the hips' midpoint, 1 a point whose distance from it
    /// is half the body's size and whose direction is the body's axis (2 and 3 do the same for the face).
    public static let numKeypoints = 4
    /// IoU above which weighted non-max suppression merges two detections (the graph options' default).
    public static let minSuppressionThreshold: Float = 0.5
    /// Keypoint at the centre of the person's rect (hips' midpoint).
    public static let centerKeypoint = 0
    /// Keypoint giving the rect's size and rotation.
    public static let scaleKeypoint = 1
    /// The target angle of the centre → scale vector: straight up, π/2 (the options give 90 degrees).
    public static let rotationTargetAngle = Float(Double.pi * 90 / 180)
    /// How the alignment rect grows into the landmark model's region of interest: squared on its long
    /// side and scaled 1.25×.
    public static let rectTransformation = RectTransformation(scaleX: 1.25, scaleY: 1.25, squareLong: true)
}

extension SSDDetectorDescription {
    /// The pose detector, as MediaPipe's pose detector graph configures it: 224×224, anchors on strides
    /// 8, 16, 32, 32, 32 (two per cell and layer: 2254 boxes), 4 keypoints, keeping detections
    /// scoring at least `minScoreThreshold` (the task's `minPoseDetectionConfidence`).
    public static func pose(minScoreThreshold: Float) -> SSDDetectorDescription {
        let side = PoseDetection.inputSize
        let anchors = SSDAnchorOptions(
            inputWidth: side, inputHeight: side, minScale: 0.1484375, maxScale: 0.75,
            strides: [8, 16, 32, 32, 32], aspectRatios: [1.0], fixedAnchorSize: true)
        return SSDDetectorDescription(
            what: "the pose detector", anchors: anchors,
            decoding: blazeDecoding(
                inputSide: side, numBoxes: PoseDetection.numBoxes,
                numKeypoints: PoseDetection.numKeypoints, minScoreThreshold: minScoreThreshold),
            minSuppressionThreshold: PoseDetection.minSuppressionThreshold)
    }
}

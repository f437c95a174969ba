// MediaPipe's hand detector graph (hand_detector_graph.cc) as settings of the generic SSD steps:
// the palm model's anchors, how its raw outputs are decoded, how palms are merged, and how a palm
// detection becomes the hand's rect (in HandROI.swift).

/// The fixed settings of MediaPipe's palm detection stage.
public enum PalmDetection {
    /// The palm model's input side in pixels (192×192, letterboxed with zero borders).
    public static let inputSize = 192
    /// Number of anchors (and raw boxes) of the palm model.
    public static let numBoxes = 2016
    /// Number of keypoints per palm: 0 is the wrist centre, 2 the middle finger's MCP joint.
    public static let numKeypoints = 7
    /// IoU above which weighted non-max suppression merges two palms.
    public static let minSuppressionThreshold: Float = 0.3
    /// Keypoint that starts the rotation vector (wrist centre).
    public static let rotationStartKeypoint = 0
    /// Keypoint that ends the rotation vector (middle finger MCP).
    public static let rotationEndKeypoint = 2
    /// The target angle of the rotation vector. MediaPipe Tasks sets the radians field of
    /// `DetectionsToRectsCalculatorOptions` to 90 (not π/2), so the angle really is 90 radians.
    public static let rotationTargetAngle: Float = 90
    /// How a palm rect grows into the hand's region of interest: shifted half its height towards
    /// the fingers, squared on its long side, scaled 2.6×.
    public static let palmToHandTransformation = RectTransformation(
        scaleX: 2.6, scaleY: 2.6, shiftY: -0.5, squareLong: true)
}

extension SSDDetectorDescription {
    /// The palm detector, as MediaPipe's hand detector graph configures it (192×192, 2016 anchors and
    /// boxes, 7 keypoints), keeping palms scoring at least `minScoreThreshold` (the task's
    /// `minHandDetectionConfidence`) and merging those overlapping by more than
    /// `PalmDetection.minSuppressionThreshold`.
    public static func palm(minScoreThreshold: Float) -> SSDDetectorDescription {
        .fourLayerBlaze(
            what: "the palm detector", inputSide: PalmDetection.inputSize, numBoxes: PalmDetection.numBoxes,
            numKeypoints: PalmDetection.numKeypoints, minScoreThreshold: minScoreThreshold,
            minSuppressionThreshold: PalmDetection.minSuppressionThreshold)
    }
}

// MediaPipe's face detector graph (face_detector_graph.cc) as settings of the generic SSD steps, named
// as PalmDetection names the hand's: the BlazeFace short-range model's description (input, anchors,
// decoding), how faces are merged inside the Face Landmarker, and how a face detection becomes the
// landmark model's rect (in FaceROI.swift).

/// The BlazeFace short-range model (`face_detector.tflite` in `face_landmarker.task`,
/// `blaze_face_short_range.tflite`), as MediaPipe's face detector graph configures it.
public enum BlazeFaceShortRange {
    /// The model's input side in pixels (128×128, letterboxed with zero borders).
    public static let inputSize = 128
    /// Number of anchors (and raw boxes).
    public static let numBoxes = 896
    /// Number of keypoints per face: 0 is the right eye, 1 the left eye.
    public static let numKeypoints = 6
}

/// The fixed settings of MediaPipe's face detection stage inside the Face Landmarker: how detections
/// merge and how a face box becomes the landmark model's rect (whichever face detector found it).
public enum FaceDetection {
    /// IoU above which weighted non-max suppression merges two faces (the landmarker's detector).
    public static let minSuppressionThreshold: Float = 0.5
    /// Keypoint that starts the rotation vector (right eye).
    public static let rotationStartKeypoint = 0
    /// Keypoint that ends the rotation vector (left eye).
    public static let rotationEndKeypoint = 1
    /// The target angle of the eye line: level.
    public static let rotationTargetAngle: Float = 0
    /// How a face box grows into the landmark model's rect: scaled 1.5×.
    public static let faceToRectTransformation = RectTransformation(scaleX: 1.5, scaleY: 1.5)
}

extension SSDDetectorDescription {
    /// BlazeFace short range, as MediaPipe's face detector graph configures it for a model without
    /// detector metadata (128×128, 896 anchors and boxes, 6 keypoints), keeping faces scoring at least
    /// `minScoreThreshold` and merging those overlapping by more than `minSuppressionThreshold` (the
    /// Face Detector's option, or `FaceDetection.minSuppressionThreshold` in the Face Landmarker).
    public static func faceShortRange(minScoreThreshold: Float, minSuppressionThreshold: Float) -> SSDDetectorDescription {
        .fourLayerBlaze(what: "a face detector (BlazeFace short range)", inputSide: BlazeFaceShortRange.inputSize,
                        numBoxes: BlazeFaceShortRange.numBoxes, numKeypoints: BlazeFaceShortRange.numKeypoints,
                        minScoreThreshold: minScoreThreshold, minSuppressionThreshold: minSuppressionThreshold)
    }
}

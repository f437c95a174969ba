// MediaPipe's face detector graphs as settings of the generic SSD steps, named as PalmDetection names
// the hand's: the BlazeFace short-range model's description (face_detector_graph.cc) and the
// full-range one's (face_detection_full_range_common.pbtxt of the legacy solution), which of them a
// model is, how faces are merged inside the Face Landmarker, and how a face detection becomes the
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

/// The BlazeFace full-range model (`face_detection_full_range_sparse.tflite` of the legacy
/// `mp.solutions.face_detection`, `model_selection=1`), as its graph configures it: faces up to about
/// five metres from the camera, a tenth of the frame's height or less.
public enum BlazeFaceFullRange {
    /// The model's input side in pixels (192×192, letterboxed with zero borders).
    public static let inputSize = 192
    /// Number of anchors (and raw boxes): one per cell of a 48×48 grid (stride 4).
    public static let numBoxes = 2304
    /// Number of keypoints per face, in the short-range model's order.
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
    public static func faceShortRange(minScoreThreshold: Float, minSuppressionThreshold: Float)
        -> SSDDetectorDescription
    {
        .fourLayerBlaze(
            what: "a face detector (BlazeFace short range)", inputSide: BlazeFaceShortRange.inputSize,
            numBoxes: BlazeFaceShortRange.numBoxes, numKeypoints: BlazeFaceShortRange.numKeypoints,
            minScoreThreshold: minScoreThreshold, minSuppressionThreshold: minSuppressionThreshold)
    }
}

extension SSDDetectorDescription {
    /// BlazeFace full range, as the legacy solution's graph configures it (192×192, one stride-4 layer
    /// of 48×48 fixed-size anchors with no interpolated scale, 2304 boxes, 6 keypoints, decoded as
    /// short range), with the same thresholds as `faceShortRange`.
    public static func faceFullRange(minScoreThreshold: Float, minSuppressionThreshold: Float) -> SSDDetectorDescription
    {
        let side = BlazeFaceFullRange.inputSize
        let anchors = SSDAnchorOptions(
            inputWidth: side, inputHeight: side, minScale: 0.1484375, maxScale: 0.75,
            strides: [4], aspectRatios: [1.0], interpolatedScaleAspectRatio: 0,
            fixedAnchorSize: true)
        return SSDDetectorDescription(
            what: "a face detector (BlazeFace full range)", anchors: anchors,
            decoding: blazeDecoding(
                inputSide: side, numBoxes: BlazeFaceFullRange.numBoxes,
                numKeypoints: BlazeFaceFullRange.numKeypoints, minScoreThreshold: minScoreThreshold),
            minSuppressionThreshold: minSuppressionThreshold)
    }

    /// The face detector a model is, told by its image input's shape: 1×128×128×3 is BlazeFace short
    /// range, 1×192×192×3 full range; nil for any other (the detector then checks the outputs).
    public static func face(inputShape: [Int], minScoreThreshold: Float, minSuppressionThreshold: Float)
        -> SSDDetectorDescription?
    {
        switch inputShape {
        case [1, BlazeFaceShortRange.inputSize, BlazeFaceShortRange.inputSize, 3]:
            return .faceShortRange(
                minScoreThreshold: minScoreThreshold, minSuppressionThreshold: minSuppressionThreshold)
        case [1, BlazeFaceFullRange.inputSize, BlazeFaceFullRange.inputSize, 3]:
            return .faceFullRange(
                minScoreThreshold: minScoreThreshold, minSuppressionThreshold: minSuppressionThreshold)
        default:
            return nil
        }
    }
}

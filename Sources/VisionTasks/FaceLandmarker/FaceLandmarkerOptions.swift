/// Receives the results of a face landmarker in live-stream mode, as in MediaPipe for iOS.
/// Calls arrive on one serial queue, in timestamp order; frames dropped under load get no call,
/// nor do results dropped while four newer ones wait for a slow delegate (`droppedResultCount`).
public protocol FaceLandmarkerLiveStreamDelegate: AnyObject {
    /// Called with the result of the frame sent at `timestampInMilliseconds`, or with the error it
    /// raised (then `result` is nil).
    /// - Parameters:
    ///   - faceLandmarker: The landmarker that processed the frame.
    ///   - result: What it found, or nil when the frame raised `error`.
    ///   - timestampInMilliseconds: The frame's timestamp, as it was sent.
    ///   - error: The error the frame raised (such as `VisionTasksError.processingFailed`), or nil.
    func faceLandmarker(
        _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// Options of a `FaceLandmarker`, with the names of MediaPipe for iOS. The landmarker copies them
/// when it is created; changing them afterwards changes nothing. The model (`baseOptions`) is a
/// `face_landmarker.task` bundle; `faceDetectorModelAssetPath` may replace the detector inside it.
public final class FaceLandmarkerOptions: VisionTaskOptions, DescribedOptions {
    /// The most faces to find (at least 1, default 1).
    public var numFaces: Int = Declared.faces.count.defaultValue
    /// Face detections scoring below this are dropped (0...1, default 0.5).
    public var minFaceDetectionConfidence: Float = Declared.faces.minDetectionConfidence.defaultValue
    /// Faces whose landmark model presence score is not above this are dropped (0...1, default 0.5).
    public var minFacePresenceConfidence: Float = Declared.faces.minPresenceConfidence.defaultValue
    /// In video and live-stream mode, the overlap (IoU) above which a new detection replaces a
    /// tracked face (0...1, default 0.5).
    public var minTrackingConfidence: Float = Declared.faces.minTrackingConfidence.defaultValue
    /// Whether results carry the 52 blendshape scores of each face (default false).
    public var outputFaceBlendshapes: Bool = Declared.outputFaceBlendshapes.defaultValue
    /// Whether results carry each face's 4×4 facial transformation matrix (default false).
    public var outputFacialTransformationMatrixes: Bool = Declared.outputFacialTransformationMatrixes.defaultValue
    /// Whether results carry each face's yaw, pitch and roll (`HeadPose`), computed from its facial
    /// transformation matrix (default false).
    public var outputHeadPoses: Bool = Declared.outputHeadPoses.defaultValue
    /// A face detector model file (`.tflite`, or a `.task` holding `face_detector.tflite`) to use
    /// instead of the bundle's BlazeFace short range: `face_detection_full_range_sparse.tflite` finds
    /// faces up to about five metres away (default nil: the bundle's). VisionTasks' extension.
    public var faceDetectorModelAssetPath: String? = Declared.faceDetectorModelAssetPath.defaultValue
    /// Receives the results in live-stream mode (required there, forbidden otherwise). Held weakly.
    public weak var faceLandmarkerLiveStreamDelegate: (any FaceLandmarkerLiveStreamDelegate)?
}

/// Receives the results of a face detector in live-stream mode, as in MediaPipe for iOS.
/// Calls arrive on one serial queue, in timestamp order; frames dropped under load get no call,
/// nor do results dropped while four newer ones wait for a slow delegate (`droppedResultCount`).
public protocol FaceDetectorLiveStreamDelegate: AnyObject {
    /// Called with the result of the frame sent at `timestampInMilliseconds`, or with the error it
    /// raised (then `result` is nil).
    /// - Parameters:
    ///   - faceDetector: The detector that processed the frame.
    ///   - result: What it found, or nil when the frame raised `error`.
    ///   - timestampInMilliseconds: The frame's timestamp, as it was sent.
    ///   - error: The error the frame raised (such as `VisionTasksError.processingFailed`), or nil.
    func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// Options of a `FaceDetector`, with the names of MediaPipe for iOS. The detector copies them when
/// it is created; changing them afterwards changes nothing. The model (`baseOptions`) is
/// `blaze_face_short_range.tflite`, `face_detection_full_range_sparse.tflite` (faces up to about five metres away,
/// as legacy MediaPipe's full range), or a `.task` bundle holding `face_detector.tflite`.
public final class FaceDetectorOptions: VisionTaskOptions, DescribedOptions {
    /// Faces scoring below this are dropped (0...1, default 0.5: `Declared.minDetectionConfidence`).
    public var minDetectionConfidence: Float = Declared.minDetectionConfidence.defaultValue
    /// Overlap (IoU) above which detections of one face are merged (0...1, default 0.3:
    /// `Declared.minSuppressionThreshold`).
    public var minSuppressionThreshold: Float = Declared.minSuppressionThreshold.defaultValue
    /// Receives the results in live-stream mode (required there, forbidden otherwise). Held weakly.
    public weak var faceDetectorLiveStreamDelegate: (any FaceDetectorLiveStreamDelegate)?
}

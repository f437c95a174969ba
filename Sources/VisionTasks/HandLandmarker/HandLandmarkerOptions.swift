/// Receives the results of a hand landmarker in live-stream mode, as in MediaPipe for iOS.
/// Calls arrive on one serial queue, in timestamp order; frames dropped under load get no call,
/// nor do results dropped while four newer ones wait for a slow delegate (`droppedResultCount`).
public protocol HandLandmarkerLiveStreamDelegate: AnyObject {
    /// Called with the result of the frame sent at `timestampInMilliseconds`, or with the error it
    /// raised (then `result` is nil).
    /// - Parameters:
    ///   - handLandmarker: The landmarker that processed the frame.
    ///   - result: What it found, or nil when the frame raised `error`.
    ///   - timestampInMilliseconds: The frame's timestamp, as it was sent.
    ///   - error: The error the frame raised (such as `VisionTasksError.processingFailed`), or nil.
    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// Options of a `HandLandmarker`, with the names of MediaPipe for iOS. The landmarker copies them
/// when it is created; changing them afterwards changes nothing. The model (`baseOptions`) is a
/// `hand_landmarker.task` bundle.
public final class HandLandmarkerOptions: HandTrackingOptions, DescribedOptions {
    /// Receives the results in live-stream mode (required there, forbidden otherwise). Held weakly.
    public weak var handLandmarkerLiveStreamDelegate: (any HandLandmarkerLiveStreamDelegate)?
}

/// Receives the results of a gesture recognizer in live-stream mode, as in MediaPipe for iOS.
/// Calls arrive on one serial queue, in timestamp order; frames dropped under load get no call,
/// nor do results dropped while four newer ones wait for a slow delegate (`droppedResultCount`).
public protocol GestureRecognizerLiveStreamDelegate: AnyObject {
    /// Called with the result of the frame sent at `timestampInMilliseconds`, or with the error it
    /// raised (then `result` is nil).
    /// - Parameters:
    ///   - gestureRecognizer: The recognizer that processed the frame.
    ///   - result: What it found, or nil when the frame raised `error`.
    ///   - timestampInMilliseconds: The frame's timestamp, as it was sent.
    ///   - error: The error the frame raised (such as `VisionTasksError.processingFailed`), or nil.
    func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer,
        didFinishGestureRecognition result: GestureRecognizerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// Options of a `GestureRecognizer`, with the names of MediaPipe for iOS. The recognizer copies them
/// when it is created; changing them afterwards changes nothing. The model (`baseOptions`) is a
/// gesture recognizer `.task` bundle (`hand_landmarker.task` + `hand_gesture_recognizer.task`).
public final class GestureRecognizerOptions: HandTrackingOptions, DescribedOptions {
    /// How the canned classifier's scores become gestures (nil: every gesture, the model's threshold).
    public var cannedGesturesClassifierOptions: ClassifierOptions?
    /// How the custom classifier's scores become gestures, when the bundle has one.
    public var customGesturesClassifierOptions: ClassifierOptions?
    /// Receives the results in live-stream mode (required there, forbidden otherwise). Held weakly.
    public weak var gestureRecognizerLiveStreamDelegate: (any GestureRecognizerLiveStreamDelegate)?
}

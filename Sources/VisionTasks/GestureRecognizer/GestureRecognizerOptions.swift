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
    ///   - error: The error the frame raised (such as `VisionTasksError.invalidImage`), or nil.
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

    /// Creates options with MediaPipe's defaults (`Declared`): image mode, one hand, confidences 0.5, no
    /// classifier options.
    /// - Parameters:
    ///   - baseOptions: The model and how it runs.
    ///   - runningMode: Image, video or live-stream mode.
    ///   - numHands: The most hands to find (at least 1).
    ///   - minHandDetectionConfidence: Palms scoring below this are not hands (0...1).
    ///   - minHandPresenceConfidence: Hands whose presence score is not above this are dropped (0...1).
    ///   - minTrackingConfidence: In video and live-stream mode, the overlap (IoU) above which a new detection
    ///     replaces a tracked one (0...1).
    ///   - cannedGesturesClassifierOptions: How the canned classifier's scores become gestures (nil: every gesture).
    ///   - customGesturesClassifierOptions: How the custom classifier's scores become gestures (nil: every gesture).
    public convenience init(
        baseOptions: BaseOptions = BaseOptions(), runningMode: RunningMode = .image,
        numHands: Int = Declared.hands.count.defaultValue,
        minHandDetectionConfidence: Float = Declared.hands.minDetectionConfidence.defaultValue,
        minHandPresenceConfidence: Float = Declared.hands.minPresenceConfidence.defaultValue,
        minTrackingConfidence: Float = Declared.hands.minTrackingConfidence.defaultValue,
        cannedGesturesClassifierOptions: ClassifierOptions? = nil,
        customGesturesClassifierOptions: ClassifierOptions? = nil
    ) {
        self.init(
            baseOptions, runningMode, numHands: numHands,
            minHandDetectionConfidence: minHandDetectionConfidence,
            minHandPresenceConfidence: minHandPresenceConfidence, minTrackingConfidence: minTrackingConfidence)
        self.cannedGesturesClassifierOptions = cannedGesturesClassifierOptions
        self.customGesturesClassifierOptions = customGesturesClassifierOptions
    }
}

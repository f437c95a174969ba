/// Receives the results of a gesture recognizer in live-stream mode, as in MediaPipe for iOS.
/// Calls arrive on one serial queue, in timestamp order; frames dropped under load get no call,
/// nor do results dropped while four newer ones wait for a slow delegate (`droppedResultCount`).
public protocol GestureRecognizerLiveStreamDelegate: AnyObject {
    /// Called with the result of the frame sent at `timestampInMilliseconds`, or with the error it
    /// raised (then `result` is nil).
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           didFinishGestureRecognition result: GestureRecognizerResult?,
                           timestampInMilliseconds: Int, error: (any Error)?)
}

/// Options of a `GestureRecognizer`, with the names of MediaPipe for iOS. The recognizer copies them
/// when it is created; changing them afterwards changes nothing.
public final class GestureRecognizerOptions {
    /// The model and how it runs: a gesture recognizer `.task` bundle (`hand_landmarker.task` +
    /// `hand_gesture_recognizer.task`).
    public var baseOptions: BaseOptions
    /// How the recognizer is fed: images, video frames or a live stream.
    public var runningMode: RunningMode
    /// The most hands to find (at least 1, default 1).
    public var numHands: Int
    /// Palms scoring below this are not hands (0...1, default 0.5).
    public var minHandDetectionConfidence: Float
    /// Hands whose presence score is not above this are dropped (0...1, default 0.5).
    public var minHandPresenceConfidence: Float
    /// In video and live-stream mode, a newly detected hand whose ROI overlaps a tracked hand's by
    /// more than this IoU is the same hand (0...1, default 0.5).
    public var minTrackingConfidence: Float
    /// How the canned classifier's scores become gestures (nil: every gesture, the model's threshold).
    public var cannedGesturesClassifierOptions: ClassifierOptions?
    /// How the custom classifier's scores become gestures, when the bundle has one.
    public var customGesturesClassifierOptions: ClassifierOptions?
    /// Receives the results in live-stream mode (required there, forbidden otherwise). Held weakly.
    public weak var gestureRecognizerLiveStreamDelegate: (any GestureRecognizerLiveStreamDelegate)?

    /// Creates options with MediaPipe's defaults: image mode, one hand, confidences 0.5, no
    /// classifier options.
    public init(baseOptions: BaseOptions = BaseOptions(), runningMode: RunningMode = .image, numHands: Int = 1,
                minHandDetectionConfidence: Float = 0.5, minHandPresenceConfidence: Float = 0.5,
                minTrackingConfidence: Float = 0.5, cannedGesturesClassifierOptions: ClassifierOptions? = nil,
                customGesturesClassifierOptions: ClassifierOptions? = nil) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.numHands = numHands
        self.minHandDetectionConfidence = minHandDetectionConfidence
        self.minHandPresenceConfidence = minHandPresenceConfidence
        self.minTrackingConfidence = minTrackingConfidence
        self.cannedGesturesClassifierOptions = cannedGesturesClassifierOptions
        self.customGesturesClassifierOptions = customGesturesClassifierOptions
    }
}

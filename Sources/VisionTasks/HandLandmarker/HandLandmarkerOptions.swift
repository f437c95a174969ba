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
    ///   - error: The error the frame raised (such as `VisionTasksError.invalidImage`), or nil.
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

    /// Creates options with MediaPipe's defaults (`Declared`): image mode, one hand, confidences 0.5.
    /// - Parameters:
    ///   - baseOptions: The model and how it runs.
    ///   - runningMode: Image, video or live-stream mode.
    ///   - numHands: The most hands to find (at least 1).
    ///   - minHandDetectionConfidence: Palms scoring below this are not hands (0...1).
    ///   - minHandPresenceConfidence: Hands whose presence score is not above this are dropped (0...1).
    ///   - minTrackingConfidence: In video and live-stream mode, the overlap (IoU) above which a new detection
    ///     replaces a tracked one (0...1).
    public convenience init(
        baseOptions: BaseOptions = BaseOptions(), runningMode: RunningMode = .image,
        numHands: Int = Declared.hands.count.defaultValue,
        minHandDetectionConfidence: Float = Declared.hands.minDetectionConfidence.defaultValue,
        minHandPresenceConfidence: Float = Declared.hands.minPresenceConfidence.defaultValue,
        minTrackingConfidence: Float = Declared.hands.minTrackingConfidence.defaultValue
    ) {
        self.init(
            baseOptions, runningMode, numHands: numHands,
            minHandDetectionConfidence: minHandDetectionConfidence,
            minHandPresenceConfidence: minHandPresenceConfidence, minTrackingConfidence: minTrackingConfidence)
    }
}

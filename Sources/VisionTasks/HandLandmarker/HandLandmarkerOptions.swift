/// Receives the results of a hand landmarker in live-stream mode, as in MediaPipe for iOS.
/// Calls arrive on one serial queue, in timestamp order; frames dropped under load get no call,
/// nor do results dropped while four newer ones wait for a slow delegate (`droppedResultCount`).
public protocol HandLandmarkerLiveStreamDelegate: AnyObject {
    /// Called with the result of the frame sent at `timestampInMilliseconds`, or with the error it
    /// raised (then `result` is nil).
    func handLandmarker(_ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
                        timestampInMilliseconds: Int, error: (any Error)?)
}

/// Options of a `HandLandmarker`, with the names of MediaPipe for iOS. The landmarker copies them
/// when it is created; changing them afterwards changes nothing.
public final class HandLandmarkerOptions {
    /// The model and how it runs: a `hand_landmarker.task` bundle.
    public var baseOptions: BaseOptions
    /// How the landmarker is fed: images, video frames or a live stream.
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
    /// Receives the results in live-stream mode (required there, forbidden otherwise). Held weakly.
    public weak var handLandmarkerLiveStreamDelegate: (any HandLandmarkerLiveStreamDelegate)?

    /// Creates options with MediaPipe's defaults: image mode, one hand, confidences 0.5.
    public init(baseOptions: BaseOptions = BaseOptions(), runningMode: RunningMode = .image, numHands: Int = 1,
                minHandDetectionConfidence: Float = 0.5, minHandPresenceConfidence: Float = 0.5,
                minTrackingConfidence: Float = 0.5) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
        self.numHands = numHands
        self.minHandDetectionConfidence = minHandDetectionConfidence
        self.minHandPresenceConfidence = minHandPresenceConfidence
        self.minTrackingConfidence = minTrackingConfidence
    }
}

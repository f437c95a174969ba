import VisionCore

/// Finds hands and their 21 landmarks as MediaPipe's Hand Landmarker does, with the API of MediaPipe
/// for iOS: `detect(image:)`, `detect(videoFrame:timestampInMilliseconds:)` and
/// `detectAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode. In video and
/// live-stream mode hands are tracked from frame to frame. Handedness labels are MediaPipe's,
/// which its documentation says assume a mirrored (front-camera) picture.
///
/// Tracking ids (video and live stream): each hand keeps its id while it is tracked from frame to
/// frame; a hand that appears, or reappears after being lost, takes the next unused id, counting
/// from 0 (`reset()` starts over). There is no re-identification by appearance. Hands are ordered by
/// id in video and live stream (the order they appeared in, so it does not flip between frames), in
/// the palm detector's order in image mode. The Gesture Recognizer's hands are the same.
public final class HandLandmarker: DetectingVisionTask, CoreBackedTask {
    /// The machinery running the task's frames.
    package let taskCore: TaskCore<HandLandmarker, HandLandmarkerResult>

    /// Creates a landmarker.
    /// - Parameter options: The model, running mode, thresholds and (in live-stream mode only) the delegate.
    /// - Throws: `VisionTasksError.invalidOption` for `numHands` below 1, a confidence outside [0, 1], a
    ///   live-stream mode without delegate or a delegate in another mode, or bad base options (a `.GPU`
    ///   delegate, `numThreads` outside 1...64, no model); and the model's load errors as
    ///   `init(modelPath:)` lists them.
    public init(options: HandLandmarkerOptions) throws {
        taskCore = try TaskCore(
            bundled: options,
            loadGraph: {
                try HandLandmarkerGraph(bundle: $0, name: $0.name, settings: options.handLandmarkerSettings())
            },
            result: Self.result)
        taskCore.attach(self)
    }

    /// What it returns for one frame (`VisionTask`).
    public typealias TaskResult = HandLandmarkerResult
}

extension HandLandmarker {
    /// The landmarker's result for one frame: the graph's hands as public types, with their tracking
    /// ids when `tracks` (video and live stream).
    private static func result(_ hands: [HandObservation], in frame: FrameContext, tracks: Bool) -> HandLandmarkerResult
    {
        HandLandmarkerResult(
            landmarks: hands.map(\.normalizedLandmarks),
            worldLandmarks: hands.map(\.publicWorldLandmarks),
            handedness: hands.map(\.handednessCategories),
            trackingIds: tracks ? hands.compactMap(\.trackingId) : nil,
            timestampInMilliseconds: frame.timestampInMilliseconds)
    }
}

/// How the CLI and the server drive the task (`DescribedTask`): its live-stream delegate and what a
/// result counts.
extension HandLandmarker: DescribedTask {
    package static let liveStream = LiveStreamDelegation(
        \HandLandmarkerOptions.handLandmarkerLiveStreamDelegate, handler: { $0 }
    ) {
        $0.handLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4)
    }
    package static func foundCount(in result: HandLandmarkerResult) -> Int { result.landmarks.count }
}

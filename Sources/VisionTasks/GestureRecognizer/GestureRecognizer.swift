import Foundation
import TFLite
import VisionCore

/// Recognizes hand gestures as MediaPipe's Gesture Recognizer does, with the API of MediaPipe for
/// iOS: `recognize(image:)`, `recognize(videoFrame:timestampInMilliseconds:)` and
/// `recognizeAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode. It runs
/// the Hand Landmarker (tracking hands in video and live-stream mode), then the gesture embedder
/// and the canned (and, when the bundle has one, custom) gesture classifier on every hand.
public final class GestureRecognizer: Sendable {
    /// The nested bundle holding the hand landmarker.
    static let handLandmarkerEntry = "hand_landmarker.task"
    /// The nested bundle holding the gesture embedder and classifiers.
    static let gestureRecognizerEntry = "hand_gesture_recognizer.task"

    private let runner: TaskRunner<MPImage, GestureRecognizerResult>

    /// Creates a recognizer in image mode with default options from a gesture recognizer `.task` file.
    public convenience init(modelPath: String) throws {
        try self.init(options: GestureRecognizerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Creates a recognizer. Throws `invalidOption` for `numHands` below 1, a confidence outside
    /// [0, 1], classifier options MediaPipe rejects (`maxResults` 0, both an allowlist and a
    /// denylist), a live-stream mode without delegate or a delegate in another mode; `invalidBundle`
    /// for a file that is not a gesture recognizer bundle; and the models' load errors.
    public init(options: GestureRecognizerOptions) throws {
        let delegate = options.gestureRecognizerLiveStreamDelegate
        try OptionChecks.delegate(present: delegate != nil, runningMode: options.runningMode,
                                  "gestureRecognizerLiveStreamDelegate")
        let settings = try HandLandmarkerGraph.Settings(
            numHands: options.numHands, minHandDetectionConfidence: options.minHandDetectionConfidence,
            minHandPresenceConfidence: options.minHandPresenceConfidence,
            minTrackingConfidence: options.minTrackingConfidence, runningMode: options.runningMode,
            numThreads: options.baseOptions.numThreads)
        let (bundle, name) = try loadTaskBundle(options.baseOptions, task: "GestureRecognizer")
        for entry in [Self.handLandmarkerEntry, Self.gestureRecognizerEntry] where bundle.files[entry] == nil {
            throw VisionTasksError.invalidBundle(
                "\(name) has no \(entry); a gesture recognizer bundle holds \(Self.handLandmarkerEntry) and \(Self.gestureRecognizerEntry) (has: \(bundle.fileNames.joined(separator: ", ")))")
        }
        let handName = "\(name): \(Self.handLandmarkerEntry)"
        let gestureName = "\(name): \(Self.gestureRecognizerEntry)"
        let hands = try HandLandmarkerGraph(bundle: try bundle.bundle(named: Self.handLandmarkerEntry),
                                            name: handName, settings: settings)
        let gestures = try GestureClassifierGraph(bundle: try bundle.bundle(named: Self.gestureRecognizerEntry),
                                                  name: gestureName, numThreads: options.baseOptions.numThreads,
                                                  cannedOptions: options.cannedGesturesClassifierOptions,
                                                  customOptions: options.customGesturesClassifierOptions)
        let graph = SerializedGestureGraph(hands: hands, gestures: gestures)
        let owner = WeakBox<GestureRecognizer>()
        var deliver: TaskRunner<MPImage, GestureRecognizerResult>.Deliver?
        if let delegate {
            deliver = liveStreamDelivery(owner) { [weak delegate] (task: GestureRecognizer, result: GestureRecognizerResult?, timestamp, error) in
                delegate?.gestureRecognizer(task, didFinishGestureRecognition: result, timestampInMilliseconds: timestamp, error: error)
            }
        }
        runner = TaskRunner(taskName: "GestureRecognizer", verb: "recognize", runningMode: options.runningMode,
                            process: { image, timestamp in try graph.run(image, timestamp) }, deliver: deliver)
        owner.object = self
    }

    /// Recognizes gestures in a still image (image mode).
    public func recognize(image: MPImage) throws -> GestureRecognizerResult {
        try runner.processImage(image)
    }

    /// Recognizes gestures in a video frame (video mode; timestamps must strictly increase).
    public func recognize(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> GestureRecognizerResult {
        try runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped.
    public func recognizeAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try runner.processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Blocks until every live-stream frame sent so far has been processed and delivered
    /// (VisionTasks' addition, for orderly shutdown and tests).
    public func waitUntilIdle() {
        runner.waitUntilIdle()
    }
}

/// The graphs behind the runner's lock: the runner calls `run` for one frame at a time.
private final class SerializedGestureGraph: @unchecked Sendable {
    private let hands: HandLandmarkerGraph
    private let gestures: GestureClassifierGraph

    init(hands: HandLandmarkerGraph, gestures: GestureClassifierGraph) {
        self.hands = hands
        self.gestures = gestures
    }

    /// As MediaPipe: gestures are listed for the hands that got one; when no hand got one the whole
    /// result is empty.
    func run(_ image: MPImage, _ timestamp: Int) throws -> GestureRecognizerResult {
        let found = try hands.process(image)
        var gestureLists: [[ResultCategory]] = []
        for hand in found {
            if let g = try gestures.recognize(hand, in: image) {
                gestureLists.append([ResultCategory(index: -1, score: g.score, categoryName: g.label, displayName: "")])
            }
        }
        guard !gestureLists.isEmpty else {
            return GestureRecognizerResult(gestures: [], handedness: [], landmarks: [], worldLandmarks: [],
                                           timestampInMilliseconds: timestamp)
        }
        return GestureRecognizerResult(gestures: gestureLists, handedness: found.map(\.handednessCategories),
                                       landmarks: found.map(\.normalizedLandmarks),
                                       worldLandmarks: found.map(\.publicWorldLandmarks),
                                       timestampInMilliseconds: timestamp)
    }
}

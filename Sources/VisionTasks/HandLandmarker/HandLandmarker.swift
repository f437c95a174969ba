import Foundation
import TFLite
import VisionCore

/// Finds hands and their 21 landmarks as MediaPipe's Hand Landmarker does, with the API of MediaPipe
/// for iOS: `detect(image:)`, `detect(videoFrame:timestampInMilliseconds:)` and
/// `detectAsync(image:timestampInMilliseconds:)`, each allowed only in its running mode. In video and
/// live-stream mode hands are tracked from frame to frame. Handedness labels are MediaPipe's,
/// which its documentation says assume a mirrored (front-camera) picture.
public final class HandLandmarker: Sendable {
    private let runner: TaskRunner<MPImage, HandLandmarkerResult>

    /// Creates a landmarker in image mode with default options from a `hand_landmarker.task` file.
    public convenience init(modelPath: String) throws {
        try self.init(options: HandLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)))
    }

    /// Creates a landmarker. Throws `invalidOption` for `numHands` below 1, a confidence outside
    /// [0, 1], a live-stream mode without delegate or a delegate in another mode; `invalidBundle`
    /// for a file that is not a hand landmarker bundle; and the models' load errors.
    public init(options: HandLandmarkerOptions) throws {
        let delegate = options.handLandmarkerLiveStreamDelegate
        try OptionChecks.delegate(present: delegate != nil, runningMode: options.runningMode,
                                  "handLandmarkerLiveStreamDelegate")
        let settings = try HandLandmarkerGraph.Settings(
            numHands: options.numHands, minHandDetectionConfidence: options.minHandDetectionConfidence,
            minHandPresenceConfidence: options.minHandPresenceConfidence,
            minTrackingConfidence: options.minTrackingConfidence, runningMode: options.runningMode,
            numThreads: options.baseOptions.numThreads)
        let (bundle, name) = try loadTaskBundle(options.baseOptions, task: "HandLandmarker")
        let graph = SerializedHandGraph(try HandLandmarkerGraph(bundle: bundle, name: name, settings: settings))
        let owner = WeakBox<HandLandmarker>()
        var deliver: TaskRunner<MPImage, HandLandmarkerResult>.Deliver?
        if let delegate {
            deliver = liveStreamDelivery(owner) { [weak delegate] (task: HandLandmarker, result: HandLandmarkerResult?, timestamp, error) in
                delegate?.handLandmarker(task, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            }
        }
        runner = TaskRunner(taskName: "HandLandmarker", verb: "detect", runningMode: options.runningMode,
                            process: { image, timestamp in try graph.run(image, timestamp) }, deliver: deliver)
        owner.object = self
    }

    /// Finds hands in a still image (image mode).
    public func detect(image: MPImage) throws -> HandLandmarkerResult {
        try runner.processImage(image)
    }

    /// Finds hands in a video frame (video mode; timestamps must strictly increase).
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> HandLandmarkerResult {
        try runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try runner.processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Blocks until every live-stream frame sent so far has been processed and delivered
    /// (VisionTasks' addition, for orderly shutdown and tests).
    public func waitUntilIdle() {
        runner.waitUntilIdle()
    }
}

/// The graph behind the runner's lock: the runner calls `run` for one frame at a time.
private final class SerializedHandGraph: @unchecked Sendable {
    private let graph: HandLandmarkerGraph

    init(_ graph: HandLandmarkerGraph) { self.graph = graph }

    func run(_ image: MPImage, _ timestamp: Int) throws -> HandLandmarkerResult {
        let hands = try graph.process(image)
        return HandLandmarkerResult(landmarks: hands.map(\.normalizedLandmarks),
                                    worldLandmarks: hands.map(\.publicWorldLandmarks),
                                    handedness: hands.map(\.handednessCategories),
                                    timestampInMilliseconds: timestamp)
    }
}

extension HandLandmarkerGraph.Settings {
    /// Checks the options as MediaPipe does and gathers them: `numHands` ≥ 1, confidences in [0, 1].
    init(numHands: Int, minHandDetectionConfidence: Float, minHandPresenceConfidence: Float,
         minTrackingConfidence: Float, runningMode: RunningMode, numThreads: Int) throws {
        try OptionChecks.positive(numHands, "numHands")
        try OptionChecks.unitInterval(minHandDetectionConfidence, "minHandDetectionConfidence")
        try OptionChecks.unitInterval(minHandPresenceConfidence, "minHandPresenceConfidence")
        try OptionChecks.unitInterval(minTrackingConfidence, "minTrackingConfidence")
        self.init(numHands: numHands, minHandDetectionConfidence: minHandDetectionConfidence,
                  minHandPresenceConfidence: minHandPresenceConfidence, minTrackingConfidence: minTrackingConfidence,
                  tracks: runningMode != .image, numThreads: numThreads)
    }
}

/// Reads the model asset of `options` as a `.task` bundle, with the name errors should use. Throws
/// `invalidBundle` when the file is not a zip (a bare `.tflite`, say).
func loadTaskBundle(_ options: BaseOptions, task: String) throws -> (ModelBundle, String) {
    let data = try options.loadModelAsset()
    let name = options.modelAssetBuffer != nil ? "modelAssetBuffer" : options.modelAssetPath
    do {
        return (try ModelBundle(data: data, name: name), name)
    } catch {
        throw VisionTasksError.invalidBundle("\(name) is not a .task bundle, which \(task) needs (\(error))")
    }
}

import Foundation
import VisionTasks

/// One task instance of any of the four kinds, seen through what the server needs: each call
/// returns the result already encoded as the shared result JSON (`ResultJSON`).
struct ServedTask: Sendable {
    /// Image mode.
    let detectImage: @Sendable (MPImage) throws -> Data
    /// Video mode.
    let detectVideoFrame: @Sendable (MPImage, Int) throws -> Data
    /// Live-stream mode: returns at once; the result reaches the `LiveReplies` the task was made with.
    let detectAsync: @Sendable (MPImage, Int) throws -> Void
    /// Live-stream mode: blocks until every accepted frame's result was delivered.
    let waitUntilIdle: @Sendable () -> Void
    /// The live-stream delegate, kept as long as the task (tasks hold their delegate weakly).
    private let liveDelegate: (any AnyObject & Sendable)?

    /// Wraps one task instance, through `VisionTask`'s running-mode methods (the gesture
    /// recognizer's `recognize` and the others' `detect`), and keeps its live-stream delegate.
    private init<Task: VisionTask>(_ task: Task, delegate: LiveStreamHandler<Task.TaskResult>?) where Task.TaskResult: Encodable {
        detectImage = { try ResultJSON.encode(try task.processImage($0)) }
        detectVideoFrame = { try ResultJSON.encode(try task.processVideoFrame($0, timestampInMilliseconds: $1)) }
        detectAsync = { try task.processAsync($0, timestampInMilliseconds: $1) }
        waitUntilIdle = { task.waitUntilIdle() }
        liveDelegate = delegate
    }

    /// A task for `settings` in `mode`, loading `modelPath`; live-stream mode hands each frame's
    /// result JSON, or its error, to `live` with the frame's timestamp, on the task's serial
    /// delivery queue in timestamp order.
    static func make(_ settings: TaskSettings, modelPath: String, mode: RunningMode, live: LiveReplies?) throws -> ServedTask {
        let base = BaseOptions(modelAssetPath: modelPath, numThreads: settings.threads)
        switch settings.task {
        case .faceDetector:
            let options = FaceDetectorOptions(
                baseOptions: base, runningMode: mode,
                minDetectionConfidence: settings.float("min-detection-confidence", default: 0.5),
                minSuppressionThreshold: settings.float("min-suppression-threshold", default: 0.3))
            let delegate: LiveStreamHandler<FaceDetectorResult>? = handler(live)
            options.faceDetectorLiveStreamDelegate = delegate
            return ServedTask(try FaceDetector(options: options), delegate: delegate)
        case .faceLandmarker:
            let options = FaceLandmarkerOptions(
                baseOptions: base, runningMode: mode, numFaces: settings.int("num-faces", default: 1),
                minFaceDetectionConfidence: settings.float("min-face-detection-confidence", default: 0.5),
                minFacePresenceConfidence: settings.float("min-face-presence-confidence", default: 0.5),
                minTrackingConfidence: settings.float("min-tracking-confidence", default: 0.5),
                outputFaceBlendshapes: settings.bool("output-face-blendshapes"),
                outputFacialTransformationMatrixes: settings.bool("output-facial-transformation-matrixes"))
            let delegate: LiveStreamHandler<FaceLandmarkerResult>? = handler(live)
            options.faceLandmarkerLiveStreamDelegate = delegate
            return ServedTask(try FaceLandmarker(options: options), delegate: delegate)
        case .handLandmarker:
            let options = HandLandmarkerOptions(baseOptions: base, runningMode: mode)
            setHandTracking(of: options, from: settings)
            let delegate: LiveStreamHandler<HandLandmarkerResult>? = handler(live)
            options.handLandmarkerLiveStreamDelegate = delegate
            return ServedTask(try HandLandmarker(options: options), delegate: delegate)
        case .gestureRecognizer:
            let canned = ClassifierOptions(
                maxResults: settings.int("canned-gestures-max-results", default: -1),
                scoreThreshold: settings.optionalFloat("canned-gestures-score-threshold"),
                categoryAllowlist: settings.list("canned-gestures-allowlist"),
                categoryDenylist: settings.list("canned-gestures-denylist"))
            let options = GestureRecognizerOptions(baseOptions: base, runningMode: mode,
                                                   cannedGesturesClassifierOptions: canned)
            setHandTracking(of: options, from: settings)
            let delegate: LiveStreamHandler<GestureRecognizerResult>? = handler(live)
            options.gestureRecognizerLiveStreamDelegate = delegate
            return ServedTask(try GestureRecognizer(options: options), delegate: delegate)
        }
    }

    /// The delegate handing a live-stream task's results to `live` as result JSON (nil without `live`).
    private static func handler<Result: Encodable>(_ live: LiveReplies?) -> LiveStreamHandler<Result>? {
        live.map { live in
            LiveStreamHandler { delivery in live(Swift.Result { try ResultJSON.encode(try delivery.get()) }, delivery.timestampInMilliseconds) }
        }
    }

    /// Sets the options the Hand Landmarker and the Gesture Recognizer share from `settings`.
    private static func setHandTracking(of options: HandTrackingOptions, from settings: TaskSettings) {
        options.numHands = settings.int("num-hands", default: 1)
        options.minHandDetectionConfidence = settings.float("min-hand-detection-confidence", default: 0.5)
        options.minHandPresenceConfidence = settings.float("min-hand-presence-confidence", default: 0.5)
        options.minTrackingConfidence = settings.float("min-tracking-confidence", default: 0.5)
    }
}

/// Where a live-stream task's results go: each frame's result JSON, or its error, with its timestamp.
typealias LiveReplies = @Sendable (Result<Data, any Error>, Int) -> Void

import Foundation
import VisionTasks

/// One task instance of any of the four kinds, seen through what the server needs: each call
/// returns the result already encoded as the shared result JSON (`ResultJSON`).
struct ServedTask: Sendable {
    /// Image mode.
    let detectImage: @Sendable (MPImage) throws -> Data
    /// Video mode.
    let detectVideoFrame: @Sendable (MPImage, Int) throws -> Data
    /// Live-stream mode: returns at once; the result reaches the `LiveSink` the task was made with.
    let detectAsync: @Sendable (MPImage, Int) throws -> Void
    /// Live-stream mode: blocks until every accepted frame's result was delivered.
    let waitUntilIdle: @Sendable () -> Void

    /// Wraps one task instance, through `VisionTask`'s running-mode methods (the gesture
    /// recognizer's `recognize` and the others' `detect`).
    init<Task: VisionTask>(_ task: Task) where Task.TaskResult: Encodable {
        detectImage = { try ResultJSON.encode(try task.processImage($0)) }
        detectVideoFrame = { try ResultJSON.encode(try task.processVideoFrame($0, timestampInMilliseconds: $1)) }
        detectAsync = { try task.processAsync($0, timestampInMilliseconds: $1) }
        waitUntilIdle = { task.waitUntilIdle() }
    }

    /// A task for `settings` in `mode`, loading `modelPath`; live-stream mode sends results to
    /// `sink`, which the caller keeps alive (the tasks hold their delegate weakly).
    static func make(_ settings: TaskSettings, modelPath: String, mode: RunningMode, sink: LiveSink?) throws -> ServedTask {
        let base = BaseOptions(modelAssetPath: modelPath, numThreads: settings.threads)
        switch settings.task {
        case .faceDetector:
            let options = FaceDetectorOptions(
                baseOptions: base, runningMode: mode,
                minDetectionConfidence: settings.float("min-detection-confidence", default: 0.5),
                minSuppressionThreshold: settings.float("min-suppression-threshold", default: 0.3))
            options.faceDetectorLiveStreamDelegate = sink
            return ServedTask(try FaceDetector(options: options))
        case .faceLandmarker:
            let options = FaceLandmarkerOptions(
                baseOptions: base, runningMode: mode, numFaces: settings.int("num-faces", default: 1),
                minFaceDetectionConfidence: settings.float("min-face-detection-confidence", default: 0.5),
                minFacePresenceConfidence: settings.float("min-face-presence-confidence", default: 0.5),
                minTrackingConfidence: settings.float("min-tracking-confidence", default: 0.5),
                outputFaceBlendshapes: settings.bool("output-face-blendshapes"),
                outputFacialTransformationMatrixes: settings.bool("output-facial-transformation-matrixes"))
            options.faceLandmarkerLiveStreamDelegate = sink
            return ServedTask(try FaceLandmarker(options: options))
        case .handLandmarker:
            let options = HandLandmarkerOptions(baseOptions: base, runningMode: mode)
            setHandTracking(of: options, from: settings)
            options.handLandmarkerLiveStreamDelegate = sink
            return ServedTask(try HandLandmarker(options: options))
        case .gestureRecognizer:
            let canned = ClassifierOptions(
                maxResults: settings.int("canned-gestures-max-results", default: -1),
                scoreThreshold: settings.optionalFloat("canned-gestures-score-threshold"),
                categoryAllowlist: settings.list("canned-gestures-allowlist"),
                categoryDenylist: settings.list("canned-gestures-denylist"))
            let options = GestureRecognizerOptions(baseOptions: base, runningMode: mode,
                                                   cannedGesturesClassifierOptions: canned)
            setHandTracking(of: options, from: settings)
            options.gestureRecognizerLiveStreamDelegate = sink
            return ServedTask(try GestureRecognizer(options: options))
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

/// Receives a live-stream task's results (it adopts the four delegate protocols) and hands each
/// on as result JSON, or the frame's error, with its timestamp. Called on the task's one serial
/// delivery queue, in timestamp order.
final class LiveSink: Sendable {
    private let handler: @Sendable (Result<Data, any Error>, Int) -> Void

    init(handler: @escaping @Sendable (Result<Data, any Error>, Int) -> Void) {
        self.handler = handler
    }

    fileprivate func deliver<R: Encodable>(_ result: R?, _ timestamp: Int, _ error: (any Error)?) {
        if let result {
            handler(Result { try ResultJSON.encode(result) }, timestamp)
        } else {
            handler(.failure(error ?? APIError(.internalServerError, "the task gave neither a result nor an error")), timestamp)
        }
    }
}

extension LiveSink: FaceDetectorLiveStreamDelegate, FaceLandmarkerLiveStreamDelegate,
    HandLandmarkerLiveStreamDelegate, GestureRecognizerLiveStreamDelegate {
    func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
                      timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds, error)
    }

    func faceLandmarker(_ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
                        timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds, error)
    }

    func handLandmarker(_ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
                        timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds, error)
    }

    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer, didFinishGestureRecognition result: GestureRecognizerResult?,
                           timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds, error)
    }
}

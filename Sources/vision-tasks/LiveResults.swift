import VisionTasks

/// Collects live-stream results for the CLI: each task's delegate protocol is adopted by this
/// class (below; each subcommand sets it on its options) and forwards here. The handler runs on the
/// task's one serial delivery queue only, so it may use state the sending thread leaves alone
/// until `waitUntilIdle`.
final class LiveResults<Result: Sendable>: @unchecked Sendable {
    private let handler: (Result?, Int, (any Error)?) -> Void

    init(handler: @escaping (Result?, Int, (any Error)?) -> Void) {
        self.handler = handler
    }

    /// Called from the task's delegate on its serial queue.
    func deliver(_ result: Result?, timestampInMilliseconds: Int, error: (any Error)?) {
        handler(result, timestampInMilliseconds, error)
    }
}

extension LiveResults: FaceDetectorLiveStreamDelegate where Result == FaceDetectorResult {
    func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
                      timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

extension LiveResults: FaceLandmarkerLiveStreamDelegate where Result == FaceLandmarkerResult {
    func faceLandmarker(_ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
                        timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

extension LiveResults: HandLandmarkerLiveStreamDelegate where Result == HandLandmarkerResult {
    func handLandmarker(_ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
                        timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

extension LiveResults: GestureRecognizerLiveStreamDelegate where Result == GestureRecognizerResult {
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           didFinishGestureRecognition result: GestureRecognizerResult?,
                           timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

import Foundation

/// One live-stream result as `LiveStreamResults` yields it: the frame's timestamp and the task's
/// result, or the error that frame raised.
public struct LiveStreamResult<Output: Sendable>: Sendable {
    /// The timestamp the frame was sent with.
    public let timestampInMilliseconds: Int
    /// The task's result for the frame, or its error.
    public let result: Result<Output, any Error>

    /// The result, or throws the frame's error.
    public func get() throws -> Output { try result.get() }
}

/// Live-stream results as an `AsyncSequence`, the Swift-concurrency alternative to writing a
/// delegate class: set it as the options' live-stream delegate (held weakly there, as on iOS: keep
/// it), send frames with `detectAsync`/`recognizeAsync`, and iterate with `for await` in one task.
///
/// Results come in timestamp order. At most `bufferLimit` results wait to be read: a newer one then
/// drops the oldest waiting, counted in `droppedResultCount`, so memory stays bounded whatever the
/// reader does. The sequence ends once `finish()` was called and the waiting results are read, when
/// this object is released, or when the iterating task is cancelled. One reader at a time.
public final class LiveStreamResults<Output: Sendable>: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = LiveStreamResult<Output>

    private let stream: AsyncStream<Element>
    private let continuation: AsyncStream<Element>.Continuation
    private let counts = NSLock()
    private nonisolated(unsafe) var dropped = 0   // guarded by `counts`

    /// The default `bufferLimit`: as many results as the task itself lets wait for a slow delegate.
    public static var defaultBufferLimit: Int { 4 }

    /// Creates an empty sequence keeping at most `bufferLimit` unread results (at least 1).
    public init(bufferLimit: Int = LiveStreamResults.defaultBufferLimit) {
        (stream, continuation) = AsyncStream.makeStream(of: Element.self,
                                                        bufferingPolicy: .bufferingNewest(Swift.max(1, bufferLimit)))
    }

    deinit { continuation.finish() }

    /// The iterator over the results (one reader at a time).
    public func makeAsyncIterator() -> AsyncStream<Element>.Iterator { stream.makeAsyncIterator() }

    /// Results dropped so far because `bufferLimit` newer ones were waiting to be read.
    public var droppedResultCount: Int { counts.withLock { dropped } }

    /// Ends the sequence after the results already waiting; later results are ignored.
    public func finish() { continuation.finish() }

    /// Adds one delivery from a task's live stream.
    func add(_ result: Output?, _ timestamp: Int, _ error: (any Error)?) {
        let value: Result<Output, any Error>
        if let result, error == nil {
            value = .success(result)
        } else {
            value = .failure(error ?? VisionTasksError.processingFailed("no result for the frame at \(timestamp) ms"))
        }
        if case .dropped = continuation.yield(LiveStreamResult(timestampInMilliseconds: timestamp, result: value)) {
            counts.withLock { dropped += 1 }
        }
    }
}

extension LiveStreamResults: FaceDetectorLiveStreamDelegate where Output == FaceDetectorResult {
    /// Adds the detector's result to the sequence.
    public func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
                             timestampInMilliseconds: Int, error: (any Error)?) {
        add(result, timestampInMilliseconds, error)
    }
}

extension LiveStreamResults: FaceLandmarkerLiveStreamDelegate where Output == FaceLandmarkerResult {
    /// Adds the landmarker's result to the sequence.
    public func faceLandmarker(_ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
                               timestampInMilliseconds: Int, error: (any Error)?) {
        add(result, timestampInMilliseconds, error)
    }
}

extension LiveStreamResults: HandLandmarkerLiveStreamDelegate where Output == HandLandmarkerResult {
    /// Adds the landmarker's result to the sequence.
    public func handLandmarker(_ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
                               timestampInMilliseconds: Int, error: (any Error)?) {
        add(result, timestampInMilliseconds, error)
    }
}

extension LiveStreamResults: GestureRecognizerLiveStreamDelegate where Output == GestureRecognizerResult {
    /// Adds the recognizer's result to the sequence.
    public func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                                  didFinishGestureRecognition result: GestureRecognizerResult?,
                                  timestampInMilliseconds: Int, error: (any Error)?) {
        add(result, timestampInMilliseconds, error)
    }
}

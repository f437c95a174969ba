import Foundation

/// One live-stream result as `LiveStreamHandler` hands it on and `LiveStreamResults` yields it: the
/// frame's timestamp and the task's result, or the error that frame raised.
public struct LiveStreamResult<Output: Sendable>: Sendable {
    /// The timestamp the frame was sent with.
    public let timestampInMilliseconds: Int
    /// The task's result for the frame, or its error.
    public let result: Result<Output, any Error>

    /// The result, or throws the frame's error.
    /// - Throws: The error the frame raised (such as `VisionTasksError.processingFailed`).
    public func get() throws -> Output { try result.get() }
}

/// A live-stream delegate made of a closure, for any task (each conforms it to its delegate protocol
/// beside its description, `<Task>Description.swift`): set it as one task's
/// live-stream delegate (held weakly there, as on iOS: keep it) and `handler` gets each frame's
/// result, or the error it raised, with its timestamp. Calls come on that task's one serial delivery
/// queue in timestamp order, so the closure may use state no other thread touches meanwhile; like
/// any delegate object, one shared by two tasks is called from both of their queues.
public class LiveStreamHandler<Output: Sendable>: @unchecked Sendable {
    private let handler: (LiveStreamResult<Output>) -> Void

    /// A delegate that hands every delivery to `handler`.
    /// - Parameter handler: Called with each frame's result or error, on the task's result queue.
    public init(handler: @escaping (LiveStreamResult<Output>) -> Void) {
        self.handler = handler
    }

    /// Hands one delivery of a task's live stream to the handler.
    func deliver(_ result: Output?, _ timestamp: Int, _ error: (any Error)?) {
        let value: Result<Output, any Error>
        if let result, error == nil {
            value = .success(result)
        } else {
            value = .failure(error ?? VisionTasksError.processingFailed("no result for the frame at \(timestamp) ms"))
        }
        handler(LiveStreamResult(timestampInMilliseconds: timestamp, result: value))
    }
}

/// Live-stream results as an `AsyncSequence`, the Swift-concurrency alternative to writing a
/// delegate class: set it as the options' live-stream delegate (held weakly there, as on iOS: keep
/// it), send frames with `detectAsync`/`recognizeAsync`, and iterate with `for await` in one task.
///
/// Results come in timestamp order. At most `bufferLimit` results wait to be read: a newer one then
/// drops the oldest waiting, counted in `droppedResultCount`, so memory stays bounded whatever the
/// reader does. The sequence ends once `finish()` was called and the waiting results are read, when
/// this object is released, or when the iterating task is cancelled. One reader at a time.
public final class LiveStreamResults<Output: Sendable>: LiveStreamHandler<Output>, AsyncSequence, @unchecked Sendable {
    /// What the sequence yields.
    public typealias Element = LiveStreamResult<Output>

    private let stream: AsyncStream<Element>
    private let continuation: AsyncStream<Element>.Continuation
    private let dropped: DropCount

    /// The default `bufferLimit`: as many results as the task itself lets wait for a slow delegate.
    public static var defaultBufferLimit: Int { 4 }

    /// Creates an empty sequence keeping at most `bufferLimit` unread results (at least 1).
    /// - Parameter bufferLimit: The most unread results kept; a newer one drops the oldest.
    public init(bufferLimit: Int = LiveStreamResults.defaultBufferLimit) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Element.self,
            bufferingPolicy: .bufferingNewest(Swift.max(1, bufferLimit)))
        let dropped = DropCount()
        (self.stream, self.continuation, self.dropped) = (stream, continuation, dropped)
        super.init { result in
            if case .dropped = continuation.yield(result) { dropped.add() }
        }
    }

    deinit { continuation.finish() }

    /// The iterator over the results (one reader at a time).
    public func makeAsyncIterator() -> AsyncStream<Element>.Iterator { stream.makeAsyncIterator() }

    /// Results dropped so far because `bufferLimit` newer ones were waiting to be read.
    public var droppedResultCount: Int { dropped.value }

    /// Ends the sequence after the results already waiting; later results are ignored.
    public func finish() { continuation.finish() }
}

/// A count shared between the delivery queue, which adds to it, and any reader.
private final class DropCount: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var count = 0 // guarded by `lock`

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

import Dispatch
import Foundation
import VisionCore

/// Marks every runner's delivery queue, so that a call from a listener (which runs there) is known.
private let deliveryQueueKey = DispatchSpecificKey<Bool>()

/// Runs a task's per-frame work under MediaPipe's running-mode rules, shared by every task:
/// the method must match the mode, timestamps strictly increase in video and live-stream mode,
/// processing is serial, and live-stream frames go through a flow limiter (one frame in flight,
/// one waiting; a newer frame replaces the waiting one) with results delivered in timestamp order
/// on one serial queue. Delivery is bounded too: at most `maxWaitingResults` finished results wait
/// for a slow listener; a newer result then drops the oldest waiting one, and counts it.
package final class TaskRunner<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    /// The per-frame work: the input and its timestamp in milliseconds (0 in image mode).
    package typealias Process = @Sendable (Input, Int) throws -> Output
    /// Receives each live-stream result, or the error that frame raised, with its timestamp.
    package typealias Deliver = @Sendable (Result<Output, any Error>, Int) -> Void

    /// The task's type name, for error messages ("FaceDetector").
    package let taskName: String
    /// The mode the task was created in.
    package let runningMode: RunningMode
    private let verb: String
    private let process: Process
    private let deliver: Deliver?
    private let resetState: @Sendable () -> Void
    private let admit: @Sendable (Input) throws -> Void

    private let state = NSCondition() // guards every var below; signalled when a frame is processed or delivered
    private var lastTimestamp: Int?
    private var inFlight = false
    private var waiting: (input: Input, timestamp: Int, number: Int)?
    private var droppedFrames = 0
    private var waitingResults: [(result: Result<Output, any Error>, timestamp: Int, number: Int)] = []
    private var delivering = false
    private var droppedResults = 0
    // Live-stream frames are numbered from 1 as they are accepted, and processed and delivered in that order (a
    // replaced frame or dropped result is passed over): so every frame up to `processedThrough` is processed or
    // dropped, and every frame up to `deliveredThrough` delivered or dropped.
    private var acceptedFrames = 0
    private var processedThrough = 0
    private var deliveredThrough = 0
    private let serial = NSLock() // one process() at a time, in every mode
    private let workQueue: DispatchQueue
    private let deliveryQueue: DispatchQueue

    /// The most finished live-stream results that wait for the listener; one more may be in its hands.
    package static var maxWaitingResults: Int { 4 }

    /// Creates a runner. `verb` names the task's methods ("detect" or "recognize") in error messages;
    /// `deliver` is required in live-stream mode and ignored otherwise; `reset` clears the work's
    /// own state between streams (tracking), called by `reset()` while no frame is processed. `admit` refuses an
    /// input no processing could take (a mirrored image) at the call, before a video or live-stream frame's
    /// timestamp is taken: the caller may send that timestamp again with another image.
    package init(
        taskName: String, verb: String, runningMode: RunningMode,
        process: @escaping Process, deliver: Deliver?, reset: @escaping @Sendable () -> Void = {},
        admit: @escaping @Sendable (Input) throws -> Void = { _ in }
    ) {
        self.taskName = taskName
        self.verb = verb
        self.runningMode = runningMode
        self.process = process
        self.deliver = deliver
        self.resetState = reset
        self.admit = admit
        workQueue = DispatchQueue(label: "VisionTasks.\(taskName).live-stream.work")
        deliveryQueue = DispatchQueue(label: "VisionTasks.\(taskName).live-stream.results")
        deliveryQueue.setSpecific(key: deliveryQueueKey, value: true)
    }

    // MARK: - Live-stream counts

    /// Frames dropped so far by the live-stream flow limiter (replaced while waiting to be processed).
    package var droppedFrameCount: Int { state.withLock { droppedFrames } }

    /// Live-stream results dropped so far because `maxWaitingResults` newer ones were waiting for a
    /// slow listener.
    package var droppedResultCount: Int { state.withLock { droppedResults } }

    /// Finished results waiting for the listener now (not counting one it is handling).
    package var waitingResultCount: Int { state.withLock { waitingResults.count } }

    // MARK: - Running modes

    /// Processes a still image (image mode only).
    package func processImage(_ input: Input) throws -> Output {
        try requireMode(.image, method: "\(verb)(image:)")
        return try serial.withLock { try process(input, 0) }
    }

    /// Processes one video frame (video mode only; timestamps strictly increasing).
    package func processVideoFrame(_ input: Input, timestampInMilliseconds timestamp: Int) throws -> Output {
        try requireMode(.video, method: "\(verb)(videoFrame:timestampInMilliseconds:)")
        try admit(input)
        // Accepted and queued under one lock, as the async calls' frames are: every video frame, from any thread or
        // task, runs in the order its timestamp was accepted.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Output, any Error>?
        try state.withLock {
            try acceptTimestamp(timestamp)
            workQueue.async { [self] in
                result = Result { try serial.withLock { try process(input, timestamp) } }
                done.signal()
            }
        }
        done.wait()
        return try result!.get()
    }

    /// Processes a still image off the caller's thread (image mode only). A call cancelled before
    /// its turn comes throws `CancellationError`; once started, the image runs to its end.
    package func processImage(_ input: Input) async throws -> Output {
        try requireMode(.image, method: "\(verb)(image:)")
        try Task.checkCancellation()
        return try await runOnWorkQueue(input, 0)
    }

    /// Processes one video frame off the caller's thread (video mode only; timestamps strictly
    /// increasing, in the order of the calls). Cancellation as for `processImage`; a cancelled
    /// frame's timestamp stays used.
    package func processVideoFrame(_ input: Input, timestampInMilliseconds timestamp: Int) async throws -> Output {
        try requireMode(.video, method: "\(verb)(videoFrame:timestampInMilliseconds:)")
        try admit(input)
        try Task.checkCancellation()
        return try await runOnWorkQueue(input, timestamp, acceptingTimestamp: true)
    }

    /// Starts a new video or live stream (video and live-stream mode): waits for the live-stream
    /// frames sent before the call to be processed and delivered (from the delivery callback: processed), then forgets the
    /// last timestamp and the tracking state, so timestamps may start again.
    package func reset() throws {
        guard runningMode != .image else {
            throw VisionTasksError.runningModeMismatch(
                "\(taskName) was created in IMAGE mode; reset() needs VIDEO or LIVE_STREAM mode (images are independent already)"
            )
        }
        waitUntilIdle()
        serial.withLock {
            resetState()
            state.withLock { lastTimestamp = nil }
        }
    }

    /// Queues a live-stream frame and returns at once (live-stream mode only; timestamps strictly
    /// increasing; an input `admit` refuses throws here). The result or the frame's error reaches the delivery
    /// callback later, unless a newer frame replaces this one while it waits.
    package func processAsync(_ input: Input, timestampInMilliseconds timestamp: Int) throws {
        try requireMode(.liveStream, method: "\(verb)Async(image:timestampInMilliseconds:)")
        try admit(input)
        let startNow: Int? = try state.withLock {
            try acceptTimestamp(timestamp)
            acceptedFrames += 1
            if inFlight {
                if waiting != nil { droppedFrames += 1 }
                waiting = (input, timestamp, acceptedFrames)
                return nil
            }
            inFlight = true
            return acceptedFrames
        }
        if let number = startNow { schedule(input, timestamp, number) }
    }

    /// Blocks until every live-stream frame accepted before the call has been processed and its result delivered
    /// (or dropped); frames sent meanwhile are not waited for, so a stream that goes on does not hold the caller. From
    /// a delivery callback, any task's, until they are processed: the delivery under way may be the callback's own, or
    /// one that waits in its turn for the caller's task (two listeners each waiting for the other's task waited for
    /// good).
    package func waitUntilIdle() {
        let processedOnly = DispatchQueue.getSpecific(key: deliveryQueueKey) != nil
        state.lock()
        defer { state.unlock() }
        let target = acceptedFrames
        while processedThrough < target || (!processedOnly && deliveredThrough < target) { state.wait() }
    }

    // MARK: - Live-stream scheduling and delivery

    private func schedule(_ input: Input, _ timestamp: Int, _ number: Int) {
        workQueue.async { [self] in
            let result = Result { try serial.withLock { try process(input, timestamp) } }
            if deliver != nil { enqueueResult(result, timestamp, number) }
            let next: (input: Input, timestamp: Int, number: Int)? = state.withLock {
                processedThrough = number
                if deliver == nil { deliveredThrough = number }
                state.broadcast()
                let next = waiting
                waiting = nil
                if next == nil { inFlight = false }
                return next
            }
            if let next { schedule(next.input, next.timestamp, next.number) }
        }
    }

    /// Runs one frame on the work queue (serially with every other call) and resumes the caller
    /// with its result; a frame whose caller was cancelled while it waited is not run.
    /// With `acceptingTimestamp` (video mode), the timestamp is accepted and the frame queued under one lock, so
    /// that concurrent calls' frames run in the order their timestamps were accepted.
    private func runOnWorkQueue(_ input: Input, _ timestamp: Int, acceptingTimestamp: Bool = false) async throws
        -> Output
    {
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Output, any Error>) in
                let run: @Sendable () -> Void = { [self] in
                    if cancelled.isSet {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(with: Result { try serial.withLock { try process(input, timestamp) } })
                    }
                }
                guard acceptingTimestamp else { return workQueue.async(execute: run) }
                do {
                    try state.withLock {
                        try acceptTimestamp(timestamp)
                        workQueue.async(execute: run)
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Adds a finished result to the bounded delivery queue (dropping the oldest waiting one when
    /// full) and starts the delivery loop unless it runs.
    private func enqueueResult(_ result: Result<Output, any Error>, _ timestamp: Int, _ number: Int) {
        let start: Bool = state.withLock {
            if waitingResults.count >= Self.maxWaitingResults {
                waitingResults.removeFirst()
                droppedResults += 1
            }
            waitingResults.append((result, timestamp, number))
            if delivering { return false }
            delivering = true
            return true
        }
        if start { deliveryQueue.async { [self] in deliverWaitingResults() } }
    }

    /// Hands waiting results to the listener, oldest first, until none is left.
    private func deliverWaitingResults() {
        guard let deliver else { return }
        var delivered: Int?
        while let next = nextWaitingResult(after: delivered) {
            deliver(next.result, next.timestamp)
            delivered = next.number
        }
    }

    /// Notes the frame numbered `delivered` as delivered, then takes the oldest waiting result, or ends the delivery
    /// loop when none is left.
    private func nextWaitingResult(after delivered: Int?) -> (
        result: Result<Output, any Error>, timestamp: Int, number: Int
    )? {
        state.withLock {
            if let delivered {
                deliveredThrough = delivered
                state.broadcast()
            }
            if waitingResults.isEmpty {
                delivering = false
                return nil
            }
            return waitingResults.removeFirst()
        }
    }

    // MARK: - Rule checks

    private func requireMode(_ mode: RunningMode, method: String) throws {
        guard runningMode == mode else {
            throw VisionTasksError.runningModeMismatch(
                "\(taskName) was created in \(runningMode) mode; \(method) needs \(mode) mode (use \(methodName(for: runningMode)))"
            )
        }
    }

    private func methodName(for mode: RunningMode) -> String {
        switch mode {
        case .image: return "\(verb)(image:)"
        case .video: return "\(verb)(videoFrame:timestampInMilliseconds:)"
        case .liveStream: return "\(verb)Async(image:timestampInMilliseconds:)"
        }
    }

    /// Must be called with `state` held.
    private func acceptTimestamp(_ timestamp: Int) throws {
        guard FrameContext.timestampRange.contains(timestamp) else {
            throw VisionTasksError.invalidTimestamp(
                "\(taskName) got timestamp \(timestamp) ms; timestamps must lie within ±\(FrameContext.timestampRange.upperBound) ms"
            )
        }
        if let last = lastTimestamp, timestamp <= last {
            throw VisionTasksError.invalidTimestamp(
                "\(taskName) got timestamp \(timestamp) ms after \(last) ms; timestamps must strictly increase in \(runningMode) mode"
            )
        }
        lastTimestamp = timestamp
    }
}

/// Set once when an async call is cancelled; read by the work queue before it runs the frame.
private final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// Whether the call was cancelled.
    var isSet: Bool { lock.withLock { value } }
    /// Marks the call cancelled.
    func set() { lock.withLock { value = true } }
}

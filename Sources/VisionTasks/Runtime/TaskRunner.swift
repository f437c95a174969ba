import Dispatch
import Foundation

/// Runs a task's per-frame work under MediaPipe's running-mode rules, shared by every task:
/// the method must match the mode, timestamps strictly increase in video and live-stream mode,
/// processing is serial, and live-stream frames go through a flow limiter (one frame in flight,
/// one waiting; a newer frame replaces the waiting one) with results delivered in timestamp order
/// on one serial queue.
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

    private let state = NSLock()            // guards every var below
    private var lastTimestamp: Int?
    private var inFlight = false
    private var waiting: (input: Input, timestamp: Int)?
    private var dropped = 0
    private let serial = NSLock()           // one process() at a time, in every mode
    private let workQueue: DispatchQueue
    private let deliveryQueue: DispatchQueue
    private let idle = DispatchGroup()

    /// Creates a runner. `verb` names the task's methods ("detect" or "recognize") in error messages;
    /// `deliver` is required in live-stream mode and ignored otherwise.
    package init(taskName: String, verb: String, runningMode: RunningMode,
                 process: @escaping Process, deliver: Deliver?) {
        self.taskName = taskName
        self.verb = verb
        self.runningMode = runningMode
        self.process = process
        self.deliver = deliver
        workQueue = DispatchQueue(label: "VisionTasks.\(taskName).live-stream.work")
        deliveryQueue = DispatchQueue(label: "VisionTasks.\(taskName).live-stream.results")
    }

    /// Frames dropped so far by the live-stream flow limiter.
    package var droppedFrameCount: Int { state.withLock { dropped } }

    /// Processes a still image (image mode only).
    package func processImage(_ input: Input) throws -> Output {
        try requireMode(.image, method: "\(verb)(image:)")
        return try serial.withLock { try process(input, 0) }
    }

    /// Processes one video frame (video mode only; timestamps strictly increasing).
    package func processVideoFrame(_ input: Input, timestampInMilliseconds timestamp: Int) throws -> Output {
        try requireMode(.video, method: "\(verb)(videoFrame:timestampInMilliseconds:)")
        try state.withLock { try acceptTimestamp(timestamp) }
        return try serial.withLock { try process(input, timestamp) }
    }

    /// Queues a live-stream frame and returns at once (live-stream mode only; timestamps strictly
    /// increasing). The result or the frame's error reaches the delivery callback later, unless a
    /// newer frame replaces this one while it waits.
    package func processAsync(_ input: Input, timestampInMilliseconds timestamp: Int) throws {
        try requireMode(.liveStream, method: "\(verb)Async(image:timestampInMilliseconds:)")
        let startNow: Bool = try state.withLock {
            try acceptTimestamp(timestamp)
            if inFlight {
                if waiting != nil { dropped += 1 }
                waiting = (input, timestamp)
                return false
            }
            inFlight = true
            idle.enter()
            return true
        }
        if startNow { schedule(input, timestamp) }
    }

    /// Blocks until every accepted live-stream frame has been processed and its result delivered.
    package func waitUntilIdle() {
        idle.wait()
        deliveryQueue.sync {}
    }

    private func schedule(_ input: Input, _ timestamp: Int) {
        workQueue.async { [self] in
            let result = Result { try serial.withLock { try process(input, timestamp) } }
            if let deliver {
                deliveryQueue.async { deliver(result, timestamp) }
            }
            let next: (input: Input, timestamp: Int)? = state.withLock {
                let next = waiting
                waiting = nil
                if next == nil { inFlight = false }
                return next
            }
            if let next {
                schedule(next.input, next.timestamp)
            } else {
                idle.leave()
            }
        }
    }

    private func requireMode(_ mode: RunningMode, method: String) throws {
        guard runningMode == mode else {
            throw VisionTasksError.runningModeMismatch(
                "\(taskName) was created in \(runningMode) mode; \(method) needs \(mode) mode (use \(methodName(for: runningMode)))")
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
        if let last = lastTimestamp, timestamp <= last {
            throw VisionTasksError.invalidTimestamp(
                "\(taskName) got timestamp \(timestamp) ms after \(last) ms; timestamps must strictly increase in \(runningMode) mode")
        }
        lastTimestamp = timestamp
    }
}

import Dispatch
import Foundation
import Synchronization
import VisionTasks

/// A live socket's bookkeeping, shared by the reading task, the task's delivery queue, the reply
/// writer and the idle watchdog: frames sent and not yet answered, frames dropped, when the last
/// result came, how long the socket has been quiet; and the bounded queue of replies. The pixels of its frames in
/// work are held in the server's `LiveFrameBudget` until each frame's result (or a later one) comes.
final class LiveLedger: Sendable {
    private struct State {
        var pending: [(timestamp: Int, sentAt: UInt64, pixels: Int)] = []
        var dropped = 0
        var lastDelivery: UInt64 = 0
        var decoding = false
        var queued: [Data] = [] // replies waiting for the writer, oldest first
        var writing = false // the writer has taken a reply and not yet written it
        var idle = Duration.zero // quiet time counted so far by the watchdog
    }

    private let state = Mutex(State())
    private let maxQueuedReplies: Int
    private let budget: LiveFrameBudget
    private let wake: AsyncStream<Void>.Continuation
    /// One element whenever replies were queued; the writer then takes them with `nextReply()`.
    let wakes: AsyncStream<Void>

    /// A ledger whose reply queue holds at most `maxQueuedReplies`; a newer reply then drops the
    /// oldest waiting one and counts it, so the newest (and the last) reply always reaches the client. Its frames'
    /// pixels are held in `budget`.
    init(maxQueuedReplies: Int, budget: LiveFrameBudget) {
        self.maxQueuedReplies = maxQueuedReplies
        self.budget = budget
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The client sent something now.
    func touch() {
        state.withLock { $0.idle = .zero }
    }

    /// A frame is being decoded and handed to the task (which may wait for a busy worker pool).
    func working(_ busy: Bool) {
        state.withLock {
            $0.decoding = busy
            $0.idle = .zero
        }
    }

    /// The oldest queued reply, taken by the writer (which calls `written()` once it is sent), or
    /// nil when none waits.
    func nextReply() -> Data? {
        state.withLock { state in
            guard !state.queued.isEmpty else { return nil }
            state.writing = true
            return state.queued.removeFirst()
        }
    }

    /// The reply taken last was written to the socket.
    func written() {
        state.withLock {
            $0.writing = false
            $0.idle = .zero
        }
    }

    /// Adds `step` of quiet to the socket's idle time and returns it; any work of the socket's
    /// own (a frame decoding or in the task, a reply not yet written) resets it instead, so an
    /// idle close never cuts off the replies to the client's last frames.
    func idle(adding step: Duration) -> Duration {
        state.withLock { state in
            let busy = state.decoding || !state.pending.isEmpty || !state.queued.isEmpty || state.writing
            state.idle = busy ? .zero : state.idle + step
            return state.idle
        }
    }

    /// A decoded frame of `pixels` goes to the task when the server's budget has room for them (held until its result
    /// comes); false, with nothing held or recorded, when it has not.
    func send(_ timestamp: Int, pixels: Int) -> Bool {
        guard budget.take(pixels) else { return false }
        state.withLock { $0.pending.append((timestamp, DispatchTime.now().uptimeNanoseconds, pixels)) }
        return true
    }

    /// Whether frames of this socket are in the task (sent, and no result for them or a later one yet).
    var hasFramesInWork: Bool { state.withLock { !$0.pending.isEmpty } }

    /// The task refused the frame (its error is replied instead): its entry, the last `send`, goes and its pixels
    /// are given back; an earlier frame of the same timestamp (the refusal's cause) stays pending.
    func unsent(_ timestamp: Int) {
        let freed = state.withLock { state -> Int in
            guard state.pending.last?.timestamp == timestamp else { return 0 }
            return state.pending.removeLast().pixels
        }
        budget.give(freed)
    }

    /// A frame was dropped before reaching the task (over the rate limit).
    func dropOne() {
        state.withLock { $0.dropped += 1 }
    }

    /// The task's result (or error) for `timestamp`: frames sent before it that got no result were
    /// dropped by the flow limiter. `inferenceMs` is the time from when the task could start this
    /// frame (its arrival, or the previous result if later) to its result. The pixels of all of them are given back.
    func delivered(_ result: Result<Data, any Error>, timestamp: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        let freed = state.withLock { state -> Int in
            makeRoom(&state)
            let sentAt = state.pending.first { $0.timestamp == timestamp }?.sentAt ?? now
            state.dropped += state.pending.filter { $0.timestamp < timestamp }.count
            let done = state.pending.filter { $0.timestamp <= timestamp }
            state.pending.removeAll { $0.timestamp <= timestamp }
            let started = max(sentAt, state.lastDelivery)
            state.lastDelivery = now
            var fields: [String: JSONEnvelope.Value] = ["timestampInMilliseconds": .int(timestamp)]
            switch result {
            case .success(let json):
                fields["result"] = .json(json)
                fields["inferenceMs"] = .double(Double(now - min(started, now)) / 1e6)
                fields["dropped"] = .int(state.dropped)
            case .failure(let error):
                fields["error"] = .string(APIError.from(error).message)
            }
            state.queued.append(JSONEnvelope.encode(fields))
            state.idle = .zero
            return done.reduce(0) { $0 + $1.pixels }
        }
        budget.give(freed)
        wake.yield()
    }

    /// An error reply for a frame that never reached the task (or a message that was no frame).
    func reply(error message: String, timestamp: Int?) {
        var fields: [String: JSONEnvelope.Value] = ["error": .string(message)]
        if let timestamp { fields["timestampInMilliseconds"] = .int(timestamp) }
        state.withLock { state in
            makeRoom(&state)
            state.queued.append(JSONEnvelope.encode(fields))
            state.idle = .zero
        }
        wake.yield()
    }

    /// Drops the oldest waiting reply when the queue is full, counting it before the new reply's
    /// `dropped` is written.
    private func makeRoom(_ state: inout State) {
        if state.queued.count >= maxQueuedReplies {
            state.queued.removeFirst()
            state.dropped += 1
        }
    }

    /// No more replies will come; the writer ends once it has taken the queued ones. Frames still pending (none once
    /// the task is idle) give their pixels back.
    func finish() {
        let freed = state.withLock { state -> Int in
            defer { state.pending.removeAll() }
            return state.pending.reduce(0) { $0 + $1.pixels }
        }
        budget.give(freed)
        wake.finish()
    }
}

/// At most `framesPerSecond` frames admitted in any one-second window (sliding), by arrival time.
struct FrameRateLimit {
    let framesPerSecond: Int
    private var admitted: [UInt64] = [] // arrival times (ns) of the frames admitted in the last second

    init(framesPerSecond: Int) {
        self.framesPerSecond = framesPerSecond
    }

    /// Whether a frame arriving at `now` (monotonic nanoseconds) is admitted; admitted ones count.
    mutating func admit(at now: UInt64) -> Bool {
        admitted.removeAll { now - $0 >= 1_000_000_000 }
        guard admitted.count < framesPerSecond else { return false }
        admitted.append(now)
        return true
    }
}

import Dispatch
import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import VisionTasks

/// One live WebSocket (`GET /api/v1/{task}/live`): its own task in live-stream mode. Each binary
/// message is an 8-byte little-endian timestamp in milliseconds and an encoded image; each reply
/// is one text message, `{"dropped":…,"inferenceMs":…,"result":…,"timestampInMilliseconds":…}`
/// or `{"error":"…","timestampInMilliseconds":…}`, in timestamp order.
///
/// Nothing queues without bound: the task's flow limiter keeps one frame in flight and one
/// waiting (a newer frame replaces the waiting one), frames above the rate limit are dropped,
/// and at most `maxQueuedReplies` replies wait for a slow client; all three count in `dropped`.
/// A socket idle for `idleTimeout` is closed.
final class LiveSession: Sendable {
    private let task: ServedTask
    private let sink: LiveSink
    private let ledger: Ledger
    private let replies: AsyncStream<Data>
    private let configuration: ServerConfiguration
    private let logger: Logger

    /// Makes the session's task; throws what the task throws for its model or options.
    init(settings: TaskSettings, modelPath: String, configuration: ServerConfiguration, logger: Logger) throws {
        let (replies, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingOldest(configuration.maxQueuedReplies))
        let ledger = Ledger(replies: continuation)
        self.replies = replies
        self.ledger = ledger
        self.configuration = configuration
        self.logger = logger
        sink = LiveSink { result, timestamp in ledger.delivered(result, timestamp: timestamp) }
        task = try ServedTask.make(settings, modelPath: modelPath, mode: .liveStream, sink: sink)
    }

    /// Reads frames until the client closes (or idles out), then waits for the last results and
    /// sends them before returning.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let idleTimeout = configuration.idleTimeout
        let ledger = self.ledger
        let watchdog = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(250))
                if ledger.idle(longerThan: idleTimeout) {
                    try await outbound.close(.goingAway, reason: "idle for \(idleTimeout)")
                    return
                }
            }
        }
        defer { watchdog.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [replies] in
                for await reply in replies {
                    try await outbound.write(.text(String(decoding: reply, as: UTF8.self)))
                }
            }
            do {
                try await readFrames(inbound)
            } catch {
                logger.debug("live socket ended: \(error)")
            }
            let task = self.task
            _ = await WorkerPool.offloaded { task.waitUntilIdle() }
            ledger.finish()
            try await group.waitForAll()
        }
    }

    private func readFrames(_ inbound: WebSocketInboundStream) async throws {
        var recent: [UInt64] = []  // arrival times (ns) of the frames accepted in the last second
        for try await message in inbound.messages(maxSize: configuration.maxFrameBytes) {
            ledger.touch()
            guard case .binary(let buffer) = message, buffer.readableBytes > 8,
                  let timestamp = buffer.getInteger(at: buffer.readerIndex, endianness: .little, as: Int64.self) else {
                ledger.reply(error: "send binary messages: an 8-byte little-endian timestamp in milliseconds, then a JPEG or PNG image",
                             timestamp: nil)
                continue
            }
            let now = DispatchTime.now().uptimeNanoseconds
            recent.removeAll { now - $0 > 1_000_000_000 }
            guard recent.count < configuration.maxFramesPerSecond else {
                ledger.dropOne()
                continue
            }
            recent.append(now)
            let bytes = Data(buffer.readableBytesView.dropFirst(8))
            try await process(bytes, timestamp: Int(timestamp))
        }
    }

    private func process(_ bytes: Data, timestamp: Int) async throws {
        let task = self.task
        let decoded = await WorkerPool.offloaded { () throws -> MPImage in
            guard MediaSniffer.isImage(bytes) else { throw APIError(.unsupportedMediaType, "the frame is not a JPEG or PNG image") }
            return try MPImage(encodedData: bytes, name: "frame \(timestamp)")
        }
        switch decoded {
        case .failure(let error):
            // Earlier frames' results go first, so the replies stay in timestamp order.
            _ = await WorkerPool.offloaded { task.waitUntilIdle() }
            ledger.reply(error: APIError.from(error).message, timestamp: timestamp)
        case .success(let image):
            ledger.sent(timestamp)
            do {
                try task.detectAsync(image, timestamp)
            } catch {
                ledger.unsent(timestamp)
                ledger.reply(error: APIError.from(error).message, timestamp: timestamp)
            }
        }
    }
}

/// A live socket's bookkeeping, shared by the reading task and the task's delivery queue: frames
/// sent and not yet answered, frames dropped, when the last result came, when the client last
/// sent anything; and the bounded queue of replies.
private final class Ledger: Sendable {
    private struct State {
        var pending: [(timestamp: Int, sentAt: UInt64)] = []
        var dropped = 0
        var lastDelivery: UInt64 = 0
        var lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    private let state = Mutex(State())
    private let replies: AsyncStream<Data>.Continuation

    init(replies: AsyncStream<Data>.Continuation) {
        self.replies = replies
    }

    /// The client sent something now.
    func touch() {
        state.withLock { $0.lastActivity = DispatchTime.now().uptimeNanoseconds }
    }

    /// Whether the client has sent nothing for longer than `limit`.
    func idle(longerThan limit: Duration) -> Bool {
        let idle = state.withLock { DispatchTime.now().uptimeNanoseconds - $0.lastActivity }
        return Duration.nanoseconds(Int64(idle)) > limit
    }

    /// A frame went to the task.
    func sent(_ timestamp: Int) {
        state.withLock { $0.pending.append((timestamp, DispatchTime.now().uptimeNanoseconds)) }
    }

    /// The task refused the frame (its error is replied instead).
    func unsent(_ timestamp: Int) {
        state.withLock { $0.pending.removeAll { $0.timestamp == timestamp } }
    }

    /// A frame was dropped before reaching the task (over the rate limit).
    func dropOne() {
        state.withLock { $0.dropped += 1 }
    }

    /// The task's result (or error) for `timestamp`: frames sent before it that got no result were
    /// dropped by the flow limiter. `inferenceMs` is the time from when the task could start this
    /// frame (its arrival, or the previous result if later) to its result.
    func delivered(_ result: Result<Data, any Error>, timestamp: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            let sentAt = state.pending.first { $0.timestamp == timestamp }?.sentAt ?? now
            state.dropped += state.pending.filter { $0.timestamp < timestamp }.count
            state.pending.removeAll { $0.timestamp <= timestamp }
            let started = max(sentAt, state.lastDelivery)
            state.lastDelivery = now
            var fields: [String: JSONObject.Value] = ["timestampInMilliseconds": .int(timestamp)]
            switch result {
            case .success(let json):
                fields["result"] = .json(json)
                fields["inferenceMs"] = .double(Double(now - min(started, now)) / 1e6)
                fields["dropped"] = .int(state.dropped)
            case .failure(let error):
                fields["error"] = .string(APIError.from(error).message)
            }
            if case .dropped = replies.yield(JSONObject.encode(fields)) { state.dropped += 1 }
        }
    }

    /// An error reply for a frame that never reached the task (or a message that was no frame).
    func reply(error message: String, timestamp: Int?) {
        var fields: [String: JSONObject.Value] = ["error": .string(message)]
        if let timestamp { fields["timestampInMilliseconds"] = .int(timestamp) }
        state.withLock { state in
            if case .dropped = replies.yield(JSONObject.encode(fields)) { state.dropped += 1 }
        }
    }

    /// No more replies will come.
    func finish() {
        replies.finish()
    }
}

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
/// and at most `maxQueuedReplies` replies wait for a slow client (a newer reply drops the oldest
/// waiting one); all three count in `dropped`, so the last reply's count is complete. The decoded frames of all
/// sockets together hold at most `ServerConfiguration.heldLivePixels` (`LiveFrameBudget`): a frame that finds no room
/// is dropped and counted when the socket's own frames in work will make room, and answered with an error otherwise.
/// A socket idle for `idleTimeout` (no message from the client and none of its frames in work) is
/// closed; so is one whose client stopped reading, once a write to it has waited `idleTimeout`.
final class LiveSession: Sendable {
    private let task: ServedTask
    private let ledger: LiveLedger
    private let configuration: ServerConfiguration
    private let decoder: ImageDecoder
    private let logger: Logger

    /// Makes the session's task; throws what the task throws for its model or options. Frames are decoded by
    /// `decoder` and held within `budget`, both the server's.
    init(
        settings: TaskSettings, modelPath: String, configuration: ServerConfiguration, decoder: ImageDecoder,
        budget: LiveFrameBudget, logger: Logger
    ) throws {
        let ledger = LiveLedger(maxQueuedReplies: configuration.maxQueuedReplies, budget: budget)
        self.ledger = ledger
        self.configuration = configuration
        self.decoder = decoder
        self.logger = logger
        task = try ServedTask.make(
            settings, modelPath: modelPath, mode: .liveStream,
            live: { result, timestamp in ledger.delivered(result, timestamp: timestamp) })
    }

    /// Reads frames until the client closes (or idles out), then waits for the last results and
    /// sends them before returning.
    /// - Parameters:
    ///   - inbound: The client's messages.
    ///   - outbound: Where the replies go.
    ///   - connection: The client's connection: closed at once when a write (a reply or the idle close) has waited
    ///     `idleTimeout` for a client that does not read; its input is shut once the idle close is sent.
    /// - Throws: What writing to the client throws (the connection closed under a write), or what reading the client's
    /// messages threw, once the last replies are sent.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, connection: any Channel) async throws {
        let idleTimeout = configuration.idleTimeout
        let logger = self.logger
        let stalled: @Sendable () -> Void = {
            logger.debug("live socket closed: a write waited \(idleTimeout) for a client that does not read")
            connection.close(promise: nil)
        }
        let ledger = self.ledger
        try await withThrowingTaskGroup(of: Void.self) { watched in
            // A child task, not a `Task {}`: it runs where the session's tasks run (a test suite's own threads
            // too), never waiting for Swift's shared pool, which other work may hold for minutes.
            watched.addTask {
                try? await Self.closeWhenIdle(ledger, outbound, connection, idleTimeout: idleTimeout, stalled: stalled)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for await _ in ledger.wakes {
                            while let reply = ledger.nextReply() {
                                try await StallTimer.write(within: idleTimeout, onStall: stalled) {
                                    try await outbound.write(.text(String(decoding: reply, as: UTF8.self)))
                                }
                                ledger.written()
                            }
                        }
                    } catch {
                        // A reply that cannot be written (the socket closed under it: the WebSocket layer closes its
                        // output on a protocol error but reads on) ends the session: its replies would wait for good
                        // and keep the socket counted busy, so the idle close would never come.
                        logger.debug("live socket closed: a reply could not be written (\(error))")
                        connection.close(promise: nil)
                        throw error
                    }
                }
                var readError: (any Error)?
                do {
                    try await readFrames(inbound)
                } catch {
                    logger.debug("live socket ended: \(error)")
                    readError = error
                }
                let task = self.task
                _ = await WorkerPool.offloaded { task.waitUntilIdle() }
                ledger.finish()
                defer { KeptMemoryTrim.shared.requestEnded() } // the session's frames' memory back when all is idle
                try await group.waitForAll()
                // Once the last replies are out: the close carries the reading's error code (a message over
                // `maxFrameBytes`: 1009; a continuation with nothing to continue: 1002), not 1000.
                if let violation = readError as? LiveMessages.Violation {
                    try await violation.close(outbound, connection)
                } else if let readError {
                    throw readError
                }
            }
            watched.cancelAll()
        }
    }

    /// Closes the socket once it has been idle for `idleTimeout` (then returns), or runs until cancelled. Idle time
    /// is counted by ticks of at most half a second, so a server too busy to read the socket for a while never
    /// takes its own delay for a silent client.
    private static func closeWhenIdle(
        _ ledger: LiveLedger, _ outbound: WebSocketOutboundWriter, _ connection: any Channel, idleTimeout: Duration,
        stalled: @escaping @Sendable () -> Void
    ) async throws {
        let clock = ContinuousClock()
        var tick = clock.now
        while true {
            try await Task.sleep(for: .milliseconds(250))
            let now = clock.now
            let idle = ledger.idle(adding: min(now - tick, .milliseconds(500)))
            tick = now
            guard idle > idleTimeout else { continue }
            try await closeIdle(outbound, connection, idleTimeout: idleTimeout, onStall: stalled)
            return
        }
    }

    /// Sends the idle close (`goingAway`), running `onStall` should that write wait `idleTimeout`, then shuts the
    /// connection's input: a client that answers neither the close nor anything else (it stopped reading, or its
    /// machine vanished) would otherwise hold the socket for good. The refused sockets' watchdog uses it too.
    static func closeIdle(
        _ outbound: WebSocketOutboundWriter, _ connection: any Channel, idleTimeout: Duration,
        onStall: @escaping @Sendable () -> Void
    ) async throws {
        try await StallTimer.write(within: idleTimeout, onStall: onStall) {
            try await outbound.close(.goingAway, reason: "idle for \(idleTimeout)")
        }
        connection.close(mode: .input, promise: nil)
    }

    private func readFrames(_ inbound: WebSocketInboundStream) async throws {
        var rateLimit = FrameRateLimit(framesPerSecond: configuration.maxFramesPerSecond)
        var messages = LiveMessages(inbound, maxSize: configuration.maxFrameBytes)
        while let message = try await messages.next() {
            ledger.touch()
            guard case .binary(let buffer) = message, buffer.readableBytes > 8,
                let timestamp = buffer.getInteger(at: buffer.readerIndex, endianness: .little, as: Int64.self)
            else {
                await replyAfterEarlierFrames(
                    error:
                        "send binary messages: an 8-byte little-endian timestamp in milliseconds, then a JPEG or PNG image",
                    timestamp: nil)
                continue
            }
            guard rateLimit.admit(at: DispatchTime.now().uptimeNanoseconds) else {
                ledger.dropOne()
                continue
            }
            let bytes = Data(buffer.readableBytesView.dropFirst(8))
            ledger.working(true)
            defer { ledger.working(false) }
            try await process(bytes, timestamp: Int(timestamp))
        }
    }

    /// What became of a frame handed to `process`.
    private enum Outcome {
        /// It went to the task.
        case sent
        /// The server's live frames had no room for its pixels.
        case noRoom(pixels: Int)
        /// The task refused it (a timestamp not after the last one), saying this.
        case refused(String)
    }

    private func process(_ bytes: Data, timestamp: Int) async throws {
        let task = self.task, decoder = self.decoder, ledger = self.ledger
        // Decoded and handed over in one step: a frame that finds no room is freed at once, not held while it waits.
        let outcome = await WorkerPool.offloaded { () throws -> Outcome in
            guard MediaSniffer.isImage(bytes) else {
                throw APIError(.unsupportedMediaType, "the frame is not a JPEG or PNG image")
            }
            let image = try decoder.decode(bytes, name: "frame \(timestamp)")
            let pixels = image.bufferWidth * image.bufferHeight
            guard ledger.send(timestamp, pixels: pixels) else { return .noRoom(pixels: pixels) }
            do {
                try task.detectAsync(image, timestamp)
            } catch {
                ledger.unsent(timestamp)
                return .refused(APIError.from(error).message)
            }
            return .sent
        }
        switch outcome {
        case .success(.sent):
            break
        case .success(.noRoom) where ledger.hasFramesInWork:
            // Dropped and counted, as the flow limiter drops a frame: this socket's own frames' results make room.
            ledger.dropOne()
        case .success(.noRoom(let pixels)):
            ledger.reply(
                error:
                    "the live sockets' frames in work leave no room for this frame's \(pixels) pixels within the server's \(configuration.heldLivePixels) (--max-live-pixels): send it again later, or smaller",
                timestamp: timestamp)
        case .success(.refused(let message)):
            await replyAfterEarlierFrames(error: message, timestamp: timestamp)
        case .failure(let error):
            await replyAfterEarlierFrames(error: APIError.from(error).message, timestamp: timestamp)
        }
    }

    /// Replies `error` once the frames sent before it are answered, so the replies stay in the order the client sent.
    private func replyAfterEarlierFrames(error: String, timestamp: Int?) async {
        let task = self.task
        _ = await WorkerPool.offloaded { task.waitUntilIdle() }
        ledger.reply(error: error, timestamp: timestamp)
    }
}

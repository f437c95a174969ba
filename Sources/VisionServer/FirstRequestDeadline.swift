import HummingbirdCore
import Logging
import NIOCore

/// The server's connections with a bound on their first request head: it must arrive whole within `limit`
/// (`ServerConfiguration.requestHeadTimeout`) of the connection opening, or the connection is closed. Hummingbird's idle timeout starts only once a request head has
/// been read, so a client that opened connections and sent nothing (or a byte now and then) held each for good,
/// and enough of them took every file descriptor the server had.
struct FirstRequestDeadlineChannel<Base: ServerChildChannel>: ServerChildChannel {
    /// The connection handling the deadline guards (Hummingbird's HTTP/1 with WebSocket upgrades).
    let base: Base
    /// The time the first request head has to arrive in.
    let limit: TimeAmount

    /// Puts the deadline in front of `base`'s handlers, so it sees the raw bytes.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(FirstRequestDeadline(limit: limit), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger)
    }

    /// Hands the connection to `base`.
    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Closes its connection unless the bytes that end a request head ("\r\n\r\n") arrive within `limit`; once they
/// do, it leaves the pipeline (later requests are Hummingbird's idle timeout's).
final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    /// The last bytes read, up to 3, for an end of head split between reads.
    private var tail: [UInt8] = []

    /// A handler giving the head `limit`.
    init(limit: TimeAmount) { self.limit = limit }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = tail + Array(unwrapInboundIn(data).readableBytesView)
        context.fireChannelRead(data)
        guard !Self.endOfHead(in: bytes) else {
            deadline?.cancel()
            deadline = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        tail = Array(bytes.suffix(3))
    }

    /// Whether `bytes` hold "\r\n\r\n".
    static func endOfHead(in bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && (0...(bytes.count - 4)).contains { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
    }
}

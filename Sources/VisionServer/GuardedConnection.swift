import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The server's connections, their send buffer capped at `sendBufferBytes`, with `UpgradeGate` in front of the WebSocket
/// upgrade handler and three guards in front of `base`'s handlers, where they see the raw bytes:
/// - `FirstRequestDeadline`: the first request head must arrive whole within `headLimit`
///   (`ServerConfiguration.requestHeadTimeout`; Hummingbird's idle timeout starts only after a head);
/// - `StalledWriteDeadline`: an answer the client leaves unread for `writeLimit` (`ServerConfiguration.idleTimeout`)
///   closes the connection, and a close asked while answers are buffered waits for them while the client reads;
/// - `InputEndsWithOutput`: once an answer that closes the connection is written (`APIError.responseClosing`), what
///   the client sends is dropped, so no request pipelined behind the refused one is routed and run.
struct GuardedConnection<Base: ServerChildChannel>: ServerChildChannel {
    /// The connection handling the guards protect (Hummingbird's HTTP/1 with WebSocket upgrades).
    let base: Base
    /// The time the first request head has to arrive in.
    let headLimit: TimeAmount
    /// The longest a write may wait for a client that does not read.
    let writeLimit: TimeAmount
    /// Whether the server would refuse the live upgrade of a request target (`UpgradeGate`).
    let refusesUpgrade: @Sendable (String) -> Bool
    /// The most bytes any route reads of a body (`UpgradeGate`: no `100 Continue` for a longer one).
    let largestBody: Int

    /// The send buffer asked of the kernel for each connection (Linux gives twice as much). A write to a client waits
    /// until the kernel has room and wakes the writer: with Linux's autotuned buffer (up to 4 MB), a client reading a
    /// video's lines at a steady 40 KB/s left one write waiting over `idleTimeout` and lost its connection after
    /// 102 s, mid-stream; with this one it read all 23 MB in 604 s.
    static var sendBufferBytes: Int { 262_144 }

    /// Caps the send buffer and puts the guards in front of `base`'s handlers, and the gate behind its HTTP decoder.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        do {
            try channel.syncOptions?.setOption(
                .socketOption(.so_sndbuf), value: SocketOptionValue(Self.sendBufferBytes))
            try channel.pipeline.syncOperations.addHandlers(
                [
                    FirstRequestDeadline(limit: headLimit), StalledWriteDeadline(limit: writeLimit),
                    InputEndsWithOutput(),
                ],
                position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger).assumeIsolated().flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(
                UpgradeGate(refuses: refusesUpgrade, largestBody: largestBody), position: .after(decoder))
            return value
        }.nonisolated()
    }

    /// Hands the connection to `base`.
    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Drops every byte read once an answer that closes its connection has been written (`APIError.responseClosing`,
/// which sends `InputEndsWithOutput.closingAnswer` before it shuts the output). A server that answered
/// `Connection: close` processes no further request on that connection (RFC 9112, 9.6); Hummingbird would otherwise
/// read on during the lingering close and route a request pipelined behind the refused one, running its work for an
/// answer it cannot write. Nothing else sets it: a WebSocket that shuts its output after its close frame still reads
/// the client's close frame.
final class InputEndsWithOutput: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The outbound user event saying that the answer being written closes the connection.
    struct ClosingAnswer: Sendable {}
    static let closingAnswer = ClosingAnswer()

    private var dropping = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !dropping { context.fireChannelRead(data) }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ClosingAnswer else { return context.triggerUserOutboundEvent(event, promise: promise) }
        dropping = true
        promise?.succeed()
    }
}

import HummingbirdCore
import Logging
import NIOCore

/// The server's connections with two guards in front of `base`'s handlers, where they see the raw bytes:
/// - `FirstRequestDeadline`: the first request head must arrive whole within `headLimit`
///   (`ServerConfiguration.requestHeadTimeout`; Hummingbird's idle timeout starts only after a head);
/// - `InputEndsWithOutput`: once an answer has shut the output (`APIError.responseClosing`), what the client sends
///   is dropped, so no request pipelined behind the refused one is routed and run.
struct GuardedConnection<Base: ServerChildChannel>: ServerChildChannel {
    /// The connection handling the guards protect (Hummingbird's HTTP/1 with WebSocket upgrades).
    let base: Base
    /// The time the first request head has to arrive in.
    let headLimit: TimeAmount

    /// Puts the guards in front of `base`'s handlers.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        do {
            try channel.pipeline.syncOperations.addHandlers(
                [FirstRequestDeadline(limit: headLimit), InputEndsWithOutput()], position: .first)
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

/// Drops every byte read after its connection's output was shut. A server that answered `Connection: close`
/// processes no further request on that connection (RFC 9112, 9.6); Hummingbird would otherwise read on during the
/// lingering close and route a request pipelined behind the refused one, running its work for an answer it
/// cannot write.
final class InputEndsWithOutput: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var outputShut = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !outputShut { context.fireChannelRead(data) }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .output { outputShut = true }
        context.close(mode: mode, promise: promise)
    }
}

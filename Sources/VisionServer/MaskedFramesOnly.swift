import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Closes a live socket whose client sends a frame without a mask, as RFC 6455 (5.1) asks of a server: a close frame
/// with 1002 (protocol error) and the reason, then the connection; the frame goes no further. NIO's frame decoder and
/// Hummingbird read an unmasked frame as if it were masked.
final class MaskedFramesOnly: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The close frame's reason.
    static let reason = "a client's frames must be masked (RFC 6455, 5.1)"
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Once refused, nothing the client sends goes on (masked frames behind the bad one were still read).
        guard !refused else { return }
        guard unwrapInboundIn(data).maskKey == nil else { return context.fireChannelRead(data) }
        refused = true
        var payload = context.channel.allocator.buffer(capacity: 2 + Self.reason.utf8.count)
        payload.write(webSocketErrorCode: .protocolError)
        payload.writeString(Self.reason)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    /// Waits at a connection's tail for its upgrade to complete, then puts a `MaskedFramesOnly` right behind the
    /// WebSocket frame decoder the upgrade added, and leaves. `UpgradeGate` adds it to a connection that upgrades.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = Any

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard case HTTPServerUpgradeEvents.upgradeComplete = event else {
                return context.fireUserInboundEventTriggered(event)
            }
            let pipeline = context.pipeline.syncOperations
            if let decoder = try? pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self) {
                try? pipeline.addHandler(MaskedFramesOnly(), position: .after(decoder))
            }
            context.fireUserInboundEventTriggered(event)
            pipeline.removeHandler(context: context, promise: nil)
        }
    }
}

import NIOCore

/// Closes its connection once its answers have stayed unwritable for `limit` without a byte taken by the client: the
/// client stopped reading, the kernel's send buffer and NIO's outbound buffer are full, and nothing moves. A slow
/// client that still reads drains the buffer (fewer bytes buffered at each check), and its wait starts again. A plain
/// answer had no such deadline: a client that pipelined requests and never read their answers held its connection,
/// its descriptor and the answers for good (Hummingbird's idle timer waits while a request is in work). Live sockets
/// and video streams also have their own (`StallTimer`).
final class StalledWriteDeadline: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: TimeAmount
    private var check: Scheduled<Void>?

    /// A handler closing after `limit` unwritable with no progress.
    init(limit: TimeAmount) { self.limit = limit }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stop()
        } else if check == nil {
            schedule(context, buffered: Self.buffered(context))
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) { stop() }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    /// Checks in `limit` whether the bytes buffered went below `buffered`: then waits again from there, else closes.
    private func schedule(_ context: ChannelHandlerContext, buffered: Int) {
        check = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { [self] in
            check = nil
            guard !context.channel.isWritable else { return }
            let now = Self.buffered(context)
            if now < buffered { schedule(context, buffered: now) } else { context.close(promise: nil) }
        }
    }

    private func stop() {
        check?.cancel()
        check = nil
    }

    /// The bytes written to the channel and not yet taken by the socket (Int.max when the channel cannot say).
    private static func buffered(_ context: ChannelHandlerContext) -> Int {
        (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? Int.max
    }
}

import NIOCore

/// Closes its connection once the channel has stayed unwritable for `limit`: the client stopped reading, the kernel's
/// send buffer and NIO's outbound buffer are full, and the answer being written cannot move. Any drain below the low
/// watermark (a slow client that still reads) starts the wait again. A plain answer had no such deadline: a client
/// that pipelined requests and never read their answers held its connection, its descriptor and the answers for good
/// (Hummingbird's idle timer waits while a request is in work). Live sockets and video streams also have their own
/// (`StallTimer`).
final class StalledWriteDeadline: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?

    /// A handler closing after `limit` unwritable.
    init(limit: TimeAmount) { self.limit = limit }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            deadline?.cancel()
            deadline = nil
        } else if deadline == nil {
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { context.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}

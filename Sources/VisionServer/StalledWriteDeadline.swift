import NIOCore

/// Closes its connection once its answers have stayed unwritable for `limit` without a byte taken by the client: the
/// client stopped reading, the kernel's send buffer and NIO's outbound buffer are full, and nothing moves. A slow
/// client that still reads drains the buffer (fewer bytes buffered at each check), and its wait starts again. A plain
/// answer had no such deadline: a client that pipelined requests and never read their answers held its connection,
/// its descriptor and the answers for good (Hummingbird's idle timer waits while a request is in work). Live sockets
/// and video streams also have their own (`StallTimer`).
/// A close asked of the connection while answers are still buffered (Hummingbird's idle timeout, which starts when
/// an answer's end is written, not sent) waits until they are taken, as long as the client keeps reading: a slow
/// client lost the rest of a large answer, or of pipelined ones, without a word (106 of 200 at 50 KB/s, 30 s in).
final class StalledWriteDeadline: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How often a close that waits for the answers to drain looks at the bytes left.
    static let drainInterval: TimeAmount = .milliseconds(100)

    private let limit: TimeAmount
    private var check: Scheduled<Void>?
    /// A close waiting for the buffered answers to drain, with the promises of the closes asked meanwhile.
    private var waitingClose: (check: Scheduled<Void>?, promises: [EventLoopPromise<Void>])?

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

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        finishClose(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        finishClose(context)
        context.fireChannelInactive()
    }

    /// A full close waits while answers are buffered and the client takes them (`drain`); others pass at once.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if waitingClose != nil {
            if let promise { waitingClose?.promises.append(promise) }
            return
        }
        let buffered = Self.buffered(context)
        guard mode == .all, context.channel.isActive, buffered > 0, buffered < Int.max else {
            return context.close(mode: mode, promise: promise)
        }
        waitingClose = (nil, promise.map { [$0] } ?? [])
        drain(context, buffered: buffered, since: .now())
    }

    /// Closes once nothing is buffered, or the client took nothing for `limit`.
    private func drain(_ context: ChannelHandlerContext, buffered: Int, since: NIODeadline) {
        waitingClose?.check = context.eventLoop.assumeIsolated().scheduleTask(in: Self.drainInterval) { [self] in
            let now = Self.buffered(context)
            if now == 0 || !context.channel.isActive || (now >= buffered && .now() - since >= limit) {
                finishClose(context)
            } else if now < buffered {
                drain(context, buffered: now, since: .now())
            } else {
                drain(context, buffered: buffered, since: since)
            }
        }
    }

    /// Passes on the close that waited, if any.
    private func finishClose(_ context: ChannelHandlerContext) {
        guard let waiting = waitingClose else { return }
        waitingClose = nil
        waiting.check?.cancel()
        let promise = context.eventLoop.makePromise(of: Void.self)
        for other in waiting.promises { promise.futureResult.cascade(to: other) }
        context.close(mode: .all, promise: promise)
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

import HummingbirdCore
import Logging
import NIOCore

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

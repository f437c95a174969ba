import HummingbirdCore
import Logging
import NIOCore

/// Closes its connection unless the bytes that end a request head ("\r\n\r\n") arrive within `limit`; once they
/// do, it leaves the pipeline (later requests are Hummingbird's idle timeout's). A first request line whose target is
/// not a path ("GET index.html", no leading "/") is answered 400 and the connection closed: the HTTP codec cannot
/// convert it and drops it without a word, so the connection was held for good.
final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    /// The last bytes read, up to 3, for an end of head split between reads.
    private var tail: [UInt8] = []
    /// The first request line's bytes until it ends (at most `maxLineBytes`), then nil: it has been checked.
    private var firstLine: [UInt8]? = []
    private static let maxLineBytes = 8192
    /// Whether the first request was refused (what follows is dropped).
    private var refused = false

    /// A handler giving the head `limit`.
    init(limit: TimeAmount) { self.limit = limit }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { Self.close(context) }
    }

    /// The event telling the handlers behind it that the connection ends here, before its first head came whole:
    /// `UpgradeGate` then answers no error of the head's part that came (the 400 is this handler's, or none).
    struct Ended: Sendable {}

    /// Closes the connection, told first as the client's end of input: the upgrade negotiation, still waiting for a
    /// head, then ends as for a client that went away. Closed under it, it failed with an error Hummingbird logs as
    /// the server's, a line for each slow or refused client (20,000 a minute from one attacker).
    private static func close(_ context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(Ended())
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        context.close(promise: nil)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let read = Array(unwrapInboundIn(data).readableBytesView)
        if let line = firstLine {
            let taken = line + read
            if let end = taken.firstIndex(of: 10) {
                firstLine = nil
                if let target = Self.badTarget(in: taken[..<end]) { return refuse(context, target: target) }
            } else {
                firstLine = taken.count <= Self.maxLineBytes ? taken : nil
            }
        }
        let bytes = tail + read
        context.fireChannelRead(data)
        guard !Self.endOfHead(in: bytes) else {
            deadline?.cancel()
            deadline = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        tail = Array(bytes.suffix(3))
    }

    /// The target of the request line `line` when it is not a path ("/…"), "*", nor an absolute URI ("http://host/…",
    /// which RFC 9112 says a server must accept, and Hummingbird routes by its path); nil for a good one, or a line that
    /// is no request line (the HTTP decoder refuses that itself).
    static func badTarget(in line: ArraySlice<UInt8>) -> String? {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, let target = parts.dropFirst().first, let first = target.first else { return nil }
        let scheme = String(decoding: target.prefix(8), as: UTF8.self).lowercased()
        guard first != UInt8(ascii: "/"), !target.elementsEqual([UInt8(ascii: "*")]),
            !scheme.hasPrefix("http://"), !scheme.hasPrefix("https://")
        else { return nil }
        return String(decoding: target.prefix(100), as: UTF8.self)
    }

    /// Answers 400 naming `target` and closes the connection (written here, before the HTTP codec).
    private func refuse(_ context: ChannelHandlerContext, target: String) {
        let body = APIError.jsonBody("the request target \"\(target)\" is not a path; it must start with /")
        var head = context.channel.allocator.buffer(capacity: 160 + body.readableBytes)
        head.writeString(
            "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: \(body.readableBytes)\r\n\r\n")
        head.writeImmutableBuffer(body)
        refused = true
        deadline?.cancel()
        deadline = nil
        context.writeAndFlush(wrapOutboundOut(head), promise: nil)
        Self.close(context)
    }

    /// Whether `bytes` hold "\r\n\r\n".
    static func endOfHead(in bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && (0...(bytes.count - 4)).contains { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
    }
}

import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// A live socket's messages, read frame by frame: a fragmented message's frames are copied into one buffer as they
/// come, at most `maxSize` bytes in at most `maxFragments` frames. (The WebSocket layer's own collation kept every
/// frame until the last and counted only their bytes: a stream of empty continuation frames held about 20 bytes of
/// server memory per byte sent, hundreds of megabytes a socket.)
struct LiveMessages {
    /// One message: a binary one's bytes, or a text one (which the live protocol does not take).
    enum Message {
        case binary(ByteBuffer)
        case text
    }

    /// A client's breach of RFC 6455 or of the message limits: the socket is closed with `code`, saying `reason`.
    struct Violation: Error {
        let code: WebSocketErrorCode
        let reason: String

        /// Closes the socket with `code` and `reason`, then shuts `connection`'s input: a client sending on (a stream
        /// of frames) would keep a core busy until the WebSocket layer's close timeout.
        func close(_ outbound: WebSocketOutboundWriter, _ connection: any Channel) async throws {
            try await outbound.close(code, reason: reason)
            connection.close(mode: .input, promise: nil)
        }
    }

    /// The most frames one message may come in: a 4 MB image in frames of 4 KB passes.
    static let maxFragments = 1024

    private var frames: WebSocketInboundStream.AsyncIterator
    private let maxSize: Int

    /// The messages of `inbound`, each at most `maxSize` bytes.
    init(_ inbound: WebSocketInboundStream, maxSize: Int) {
        frames = inbound.makeAsyncIterator()
        self.maxSize = maxSize
    }

    /// The next whole message; nil once the client closes (or the connection ends mid-message).
    /// - Throws: `Violation` for a continuation frame with no message to continue, a new message inside a fragmented
    ///   one (1002), a message over `maxSize` bytes or `maxFragments` frames (1009), or a text message that is not
    ///   UTF-8 (1007).
    mutating func next() async throws -> Message? {
        guard let first = try await frames.next() else { return nil }
        guard first.opcode != .continuation else {
            throw Violation(code: .protocolError, reason: "a continuation frame with no message to continue")
        }
        var bytes = first.data
        if !first.fin {
            var whole = ByteBufferAllocator().buffer(capacity: bytes.readableBytes)
            whole.writeBuffer(&bytes)
            for fragments in 2... {
                guard var frame = try await frames.next() else { return nil }
                guard frame.opcode == .continuation else {
                    throw Violation(code: .protocolError, reason: "a new message began inside a fragmented one")
                }
                guard whole.readableBytes + frame.data.readableBytes <= maxSize else {
                    throw Violation(code: .messageTooLarge, reason: "a message of more than \(maxSize) bytes")
                }
                guard fragments <= Self.maxFragments else {
                    throw Violation(
                        code: .messageTooLarge, reason: "a message in more than \(Self.maxFragments) frames")
                }
                whole.writeBuffer(&frame.data)
                if frame.fin { break }
            }
            bytes = whole
        }
        guard first.opcode == .text else { return .binary(bytes) }
        guard String(validating: bytes.readableBytesView, as: UTF8.self) != nil else {
            throw Violation(code: .dataInconsistentWithMessage, reason: "a text message that is not UTF-8")
        }
        return .text
    }
}

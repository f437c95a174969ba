import Foundation
import NIOCore
import NIOHTTP1

/// Looks at each request head before the WebSocket upgrade handler does, since that handler drops without a word every
/// request whose upgrade it does not take (the connection closed with no answer). A request that will not upgrade
/// loses its `Upgrade` header and is answered as plain HTTP, by its route, with a reason and status, and the connection
/// is closed after it (the HTTP decoder parses nothing after a request it took for an upgrade):
/// - an `Upgrade` to anything but a WebSocket (`curl --http2` asks for `h2c` on every request);
/// - a WebSocket upgrade with a body (a GET with a body is refused, 400), or by another method than GET;
/// - one the server would refuse (`refuses`: no live path, an unknown task, a bad option, every live socket taken);
/// - one without one `Sec-WebSocket-Key` of one key, of another version than 13, over HTTP/1.0 or without
///   `Connection: Upgrade`: its head then carries the problem in `problemHeader` for the live route to answer (400, or
///   426 with `Sec-WebSocket-Version: 13`).
/// A connection that upgrades gets `MaskedFramesOnly` behind its frame decoder.
/// It leaves the pipeline when a connection's first request upgrades (what follows is no HTTP), and stays otherwise, so
/// that no later request brings its own `problemHeader`.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The header by which a refused WebSocket handshake reaches the live route: its status code (400 or 426), a space,
    /// the reason. A client's own is removed from every request.
    static let problemHeader = "VisionTasks-Handshake-Problem"

    /// Whether the server would refuse the live upgrade of a request target (path and query).
    private let refuses: @Sendable (String) -> Bool
    /// Whether the next head is the connection's first, the only one NIO's upgrade handler looks at.
    private var first = true
    /// Whether `FirstRequestDeadline` ended the connection before its first head came whole: the decoder's error
    /// on the part that came ("stream ended at an unexpected time") is then no client's to read.
    private var ended = false

    /// The most bytes any route reads of a body: a longer one announced is refused (413) before a byte is read, so
    /// its client is not told to send it.
    private let largestBody: Int

    /// A gate asking `refuses` of each WebSocket upgrade's target; `largestBody`: see the property.
    init(refuses: @escaping @Sendable (String) -> Bool, largestBody: Int) {
        self.refuses = refuses
        self.largestBody = largestBody
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        let isFirst = first
        first = false
        head.headers.remove(name: Self.problemHeader)
        // HTTP/1.0 closes after each answer unless asked to keep alive; Hummingbird kept the connection, so a client
        // reading the answer to its end waited for the idle timeout.
        if head.version.major == 1, head.version.minor == 0,
            !head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "keep-alive" })
        {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        let length = BodyReader.announcedLength(head.headers["content-length"].first)
        let hasBody = (length ?? 0) > 0 || head.headers.contains(name: "transfer-encoding")
        // A client asking whether to send its body (curl does for bodies over 1 MB) waited a second for an answer
        // that never came, then sent it anyway. The first request's is answered at once, unless its length is past
        // every limit (its 413 comes before a byte is read); a later one's could pass the answer to the request before
        // it, so its client waits as before.
        if isFirst, hasBody, (length ?? 0) <= largestBody, head.version.major == 1, head.version.minor >= 1,
            head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" })
        {
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        }
        guard head.headers.contains(name: "upgrade") else {
            return context.fireChannelRead(wrapInboundOut(.head(head)))
        }
        let protocols = head.headers["upgrade"].flatMap { $0.split(separator: ",") }
        let webSocket = protocols.contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" }
        if webSocket, head.method == .GET, !hasBody, !refuses(head.uri) {
            guard let problem = Self.handshakeProblem(head) else {
                if isFirst {
                    // It upgrades: what follows is no HTTP, and the client's frames must be masked.
                    try? context.pipeline.syncOperations.addHandler(MaskedFramesOnly.Installer())
                    context.fireChannelRead(data)
                    return context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                }
                // Only a first request upgrades: Hummingbird sends a later one to a new connection (307), and the
                // answer, whatever it is, closes this one.
                head.headers.replaceOrAdd(name: "connection", value: "close")
                return context.fireChannelRead(wrapInboundOut(.head(head)))
            }
            head.headers.add(name: Self.problemHeader, value: "\(problem.status.code) \(problem.reason)")
        }
        // The HTTP decoder took the request for an upgrade and parses nothing after it: its answer closes the
        // connection (a client's next request on it was never answered).
        head.headers.remove(name: "upgrade")
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// A first request head the HTTP decoder cannot read (over a thousand header lines, a malformed line) is answered
    /// here, 431 or 400, and the connection closed: the error passed NIO's upgrade handler to the pipeline's end, and
    /// the connection was held unanswered for good. A later request's error is Hummingbird's.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if ended, error is HTTPParserError { return }
        guard first, let parse = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        first = false
        let (status, reason): (HTTPResponseStatus, String) =
            parse == .headerOverflow
            ? (.requestHeaderFieldsTooLarge, "the request head is too large (too many or too long header lines)")
            : (.badRequest, "the request head could not be read (\(parse))")
        let body = APIError.jsonBody(reason)
        let headers: HTTPHeaders = [
            "Content-Type": "application/json", "Content-Length": "\(body.readableBytes)", "Connection": "close",
        ]
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))))
            .whenFailure { _ in }
        context.write(wrapOutboundOut(.body(.byteBuffer(body)))).whenFailure { _ in }
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenFailure { _ in }
        APIError.close(afterAnswer: context.channel)
    }

    /// Notes `FirstRequestDeadline.Ended` (not passed on); passes every other event.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is FirstRequestDeadline.Ended else { return context.fireUserInboundEventTriggered(event) }
        ended = true
    }

    /// What in a WebSocket upgrade's head NIO's upgrader would drop it for, or RFC 6455 (4.2.1) refuses and NIO takes
    /// (HTTP/1.0, no `Connection: Upgrade`), with the answer's status; nil for a good handshake.
    static func handshakeProblem(_ head: HTTPRequestHead) -> (status: HTTPResponseStatus, reason: String)? {
        let headers = head.headers
        guard head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) else {
            return (.badRequest, "a WebSocket upgrade needs HTTP/1.1 or later, got \(head.version)")
        }
        let connection = headers[canonicalForm: "connection"].map { $0.lowercased() }
        guard connection.contains("upgrade") else {
            let got = connection.isEmpty ? "none" : "\"\(connection.joined(separator: ", ").prefix(40))\""
            return (.badRequest, "a WebSocket upgrade needs Connection: Upgrade, got \(got)")
        }
        let versions = headers["sec-websocket-version"]
        guard versions.count == 1, versions[0].trimmingCharacters(in: .whitespaces) == "13" else {
            let got = versions.isEmpty ? "none" : versions.map { "\"\($0.prefix(20))\"" }.joined(separator: ", ")
            return (.upgradeRequired, "this server speaks WebSocket version 13 (Sec-WebSocket-Version), got \(got)")
        }
        // As NIO's upgrader reads it: one value, not empty, not a list.
        let keys = headers["sec-websocket-key"]
        guard keys.count == 1, !keys[0].trimmingCharacters(in: .whitespaces).isEmpty, !keys[0].contains(",") else {
            let got = keys.count == 1 ? "\"\(keys[0].prefix(40))\"" : "\(keys.count)"
            return (.badRequest, "a WebSocket upgrade needs one Sec-WebSocket-Key header with one key, got \(got)")
        }
        return nil
    }
}

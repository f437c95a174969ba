import Foundation
import NIOCore
import NIOHTTP1

/// Looks at each request head before the WebSocket upgrade handler does, since that handler drops without a word every
/// request whose upgrade it does not take (the connection closed with no answer). A request that
/// will not upgrade loses its `Upgrade` header and is answered as plain HTTP, by its route, with a reason and status:
/// - an `Upgrade` to anything but a WebSocket (`curl --http2` asks for `h2c` on every request);
/// - a WebSocket upgrade with a body (a GET with a body is refused, 400);
/// - one the server would refuse (`refuses`: no live path, an unknown task, a bad option, every live socket taken);
/// - one without exactly one `Sec-WebSocket-Key`, or of another version than 13: its head then carries the problem in
///   `problemHeader` for the live route to answer (400, or 426 with `Sec-WebSocket-Version: 13`).
/// It leaves the pipeline when a request upgrades: what follows is no HTTP.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// The header by which a refused WebSocket handshake reaches the live route: its status code (400 or 426), a space,
    /// the reason. A client's own is removed from every request.
    static let problemHeader = "VisionTasks-Handshake-Problem"

    /// Whether the server would refuse the live upgrade of a request target (path and query).
    private let refuses: @Sendable (String) -> Bool

    /// A gate asking `refuses` of each WebSocket upgrade's target.
    init(refuses: @escaping @Sendable (String) -> Bool) {
        self.refuses = refuses
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        head.headers.remove(name: Self.problemHeader)
        guard head.headers.contains(name: "upgrade") else {
            return context.fireChannelRead(wrapInboundOut(.head(head)))
        }
        let protocols = head.headers["upgrade"].flatMap { $0.split(separator: ",") }
        let webSocket = protocols.contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" }
        let hasBody =
            (head.headers["content-length"].first.flatMap { Int($0) } ?? 0) > 0
            || head.headers.contains(name: "transfer-encoding")
        if webSocket, !hasBody, !refuses(head.uri) {
            guard let problem = Self.handshakeProblem(head.headers) else {
                // It upgrades (a later request's upgrade is Hummingbird's to refuse): what follows is no HTTP.
                context.fireChannelRead(wrapInboundOut(.head(head)))
                return context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            }
            head.headers.add(name: Self.problemHeader, value: "\(problem.status.code) \(problem.reason)")
        }
        head.headers.remove(name: "upgrade")
        let connection = head.headers["connection"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.lowercased() != "upgrade" }
        head.headers.remove(name: "connection")
        if !connection.isEmpty { head.headers.add(name: "connection", value: connection.joined(separator: ", ")) }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// What in a WebSocket upgrade's headers NIO's upgrader would drop it for, with the answer's status; nil for a
    /// good handshake.
    static func handshakeProblem(_ headers: HTTPHeaders) -> (status: HTTPResponseStatus, reason: String)? {
        let versions = headers["sec-websocket-version"]
        guard versions.count == 1, versions[0].trimmingCharacters(in: .whitespaces) == "13" else {
            let got = versions.isEmpty ? "none" : versions.map { "\"\($0.prefix(20))\"" }.joined(separator: ", ")
            return (.upgradeRequired, "this server speaks WebSocket version 13 (Sec-WebSocket-Version), got \(got)")
        }
        let keys = headers["sec-websocket-key"].count
        guard keys == 1 else {
            return (.badRequest, "a WebSocket upgrade needs one Sec-WebSocket-Key header, got \(keys)")
        }
        return nil
    }
}

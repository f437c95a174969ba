import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The server's request context: Hummingbird's basic WebSocket context plus the client's connection, which a
/// response closes when one of its writes has waited the idle timeout for a client that stopped reading (such a
/// write waits for good, and Hummingbird's idle timeout spares a connection whose response is being written).
struct ConnectionContext: RequestContext, WebSocketRequestContext {
    /// Hummingbird's per-request storage.
    var coreContext: CoreRequestContextStorage
    /// Where the WebSocket route's upgrade handler is kept.
    let webSocket: WebSocketHandlerReference<Self>
    /// The client's connection.
    let connection: any Channel

    /// A context for a request that arrived on `source.channel`.
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        connection = source.channel
    }
}

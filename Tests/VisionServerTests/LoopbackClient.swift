import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ServiceLifecycle
import Synchronization
import VisionServer

// The server suites' own HTTP and WebSocket client, on SwiftNIO, which the server already builds: Hummingbird's test
// clients bring AsyncHTTPClient and BoringSSL with them, minutes of a first `make test` build (issue 43).

/// An answer as a test reads it: the status, the header fields and the whole body.
struct LoopbackResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer
}

/// A failure of the test client's own: no answer in time, or a connection that closed before its answer was whole.
struct LoopbackFailure: Error, CustomStringConvertible {
    let description: String
}

extension VisionServer {
    /// Serves on its configured host and port (`ServerSupport.server`'s: 127.0.0.1, a free port) while `body` runs with a client for it, then shuts the server down.
    /// - Parameters:
    ///   - logger: Where the server logs.
    ///   - body: The test, given the client.
    /// - Throws: What `body` throws, or what the server threw starting.
    func test<Value: Sendable>(
        logger: Logger = Logger(label: "test"), _ body: @escaping @Sendable (LoopbackClient) async throws -> Value
    ) async throws -> Value {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let application = makeApplication(logger: logger) { portSink.yield($0) }
        let services = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask {
                defer { portSink.finish() }
                try await services.run()
                return nil
            }
            guard let port = await ports.first(where: { _ in true }) else {
                // The server ended before it listened: its error, if any, is the test's.
                _ = try await group.next()
                throw LoopbackFailure(description: "the server ended before it listened")
            }
            // The test's end (a value or an error) shuts the server down gracefully, as SIGTERM would.
            let outcome: Result<Value, any Error>
            do {
                outcome = .success(try await body(LoopbackClient(port: port)))
            } catch {
                outcome = .failure(error)
            }
            await services.triggerGracefulShutdown()
            // The test's own error comes first: a server that then failed its shutdown must not hide it.
            do {
                try await group.waitForAll()
            } catch {
                _ = try outcome.get()
                throw error
            }
            return try outcome.get()
        }
    }
}

/// A client of a server on `127.0.0.1:port`: each request on a connection of its own, as a browser's fresh tab
/// would make it, so a request never waits on another's answer and an answer that closes its connection touches
/// no other request.
struct LoopbackClient: Sendable {
    /// The server's port, for tests that open raw sockets beside the client.
    let port: Int

    /// Sends one request and calls `check` with its whole answer.
    /// - Parameters:
    ///   - uri: The request target, sent as given.
    ///   - method: The request method.
    ///   - headers: Header fields besides `Host` and `Content-Length`, which the client sets.
    ///   - body: The request body, if any.
    ///   - seconds: The longest the answer may take.
    ///   - check: What the test does with the answer.
    /// - Throws: `LoopbackFailure` when no whole answer came within `seconds`; what `check` throws.
    @discardableResult
    func execute<Value>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        seconds: Int = 120, _ check: (LoopbackResponse) async throws -> Value
    ) async throws -> Value {
        try await check(try await response(uri: uri, method: method, headers: headers, body: body, seconds: seconds))
    }

    /// The answer to one request (see `execute`).
    private func response(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?, seconds: Int
    ) async throws -> LoopbackResponse {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        return try await Self.within(seconds, "\(method) \(uri)", closing: channel.channel) {
            try await channel.executeThenClose { inbound, outbound in
                var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: uri)
                head.headers.add(name: "Host", value: "127.0.0.1:\(port)")
                for field in headers { head.headers.add(name: field.name.rawName, value: field.value) }
                if let body { head.headers.add(name: "Content-Length", value: "\(body.readableBytes)") }
                // A server that answers before the body is whole (413) may close before the rest is written: the
                // answer is what the test wants, so a failed write is not the test's failure.
                do {
                    try await outbound.write(.head(head))
                    if let body { try await outbound.write(.body(.byteBuffer(body))) }
                    try await outbound.write(.end(nil))
                } catch {}
                var answer: (status: HTTPResponse.Status, headers: HTTPFields)?
                var collected = ByteBuffer()
                for try await part in inbound {
                    switch part {
                    case .head(let responseHead):
                        var fields = HTTPFields()
                        for (name, value) in responseHead.headers {
                            if let name = HTTPFields.Element.Name(name) {
                                fields.append(.init(name: name, value: value))
                            }
                        }
                        let status = HTTPResponse.Status(
                            code: Int(responseHead.status.code), reasonPhrase: responseHead.status.reasonPhrase)
                        // An interim answer (100 Continue) is not the answer.
                        if status.kind != .informational { answer = (status, fields) }
                    case .body(var bytes):
                        collected.writeBuffer(&bytes)
                    case .end:
                        guard let answer else { continue }
                        return LoopbackResponse(status: answer.status, headers: answer.headers, body: collected)
                    }
                }
                throw LoopbackFailure(
                    description: "\(method) \(uri): the connection closed before the answer was whole")
            }
        }
    }

    /// Opens a WebSocket to `path`, runs `body` with it, then closes it (if `body` has not) and waits for the
    /// server's close.
    /// - Parameters:
    ///   - path: The request target of the upgrade.
    ///   - seconds: The longest the upgrade may take, and then the exchange.
    ///   - body: What the test does with the socket.
    /// - Returns: The server's close (code and reason), or nil when the connection ended without one.
    /// - Throws: `LoopbackFailure` when the server does not upgrade, or the exchange outlasts `seconds`; what `body`
    ///   throws.
    @discardableResult
    func ws(
        _ path: String, seconds: Int = 120, _ body: (LiveSocket) async throws -> Void
    ) async throws -> LiveSocket.Close? {
        let port = port
        let (connection, upgrade) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?>(
                        maxFrameSize: LiveSocket.maxMessageBytes
                    ) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "127.0.0.1:\(port)")
                    headers.add(name: "Content-Length", value: "0")
                    var configuration = NIOUpgradableHTTPClientPipelineConfiguration(
                        upgradeConfiguration: NIOTypedHTTPClientUpgradeConfiguration(
                            upgradeRequestHead: HTTPRequestHead(
                                version: .http1_1, method: .GET, uri: path, headers: headers),
                            upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in
                                channel.close(promise: nil)
                                return channel.eventLoop.makeSucceededFuture(nil)
                            }))
                    configuration.leftOverBytesStrategy = .forwardBytes
                    let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: configuration)
                    return (channel, upgrade)
                }
            }
        let upgraded = try await Self.within(seconds, "the upgrade to \(path)", closing: connection) {
            try await upgrade.get()
        }
        guard let channel = upgraded else {
            throw LoopbackFailure(description: "GET \(path): the server did not upgrade to a WebSocket")
        }
        return try await Self.within(seconds, "the WebSocket to \(path)", closing: channel.channel) {
            try await channel.executeThenClose { inbound, outbound in
                let socket = LiveSocket(inbound: inbound.makeAsyncIterator(), outbound: outbound)
                try await body(socket)
                return try await socket.finish()
            }
        }
    }

    /// `work`'s value, or `LoopbackFailure` after `seconds` (then `channel` is closed, which ends `work`).
    private static func within<Value: Sendable>(
        _ seconds: Int, _ what: String, closing channel: any Channel, _ work: () async throws -> Value
    ) async throws -> Value {
        let expired = Expiry()
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            expired.mark()
            try? await channel.close()
        }
        defer { timer.cancel() }
        let late = LoopbackFailure(description: "\(what) had no whole answer within \(seconds) s")
        do {
            let value = try await work()
            if expired.marked { throw late }
            return value
        } catch {
            throw expired.marked ? late : error
        }
    }

    /// Whether a timer ran out.
    private final class Expiry: Sendable {
        private let state = Mutex(false)
        func mark() { state.withLock { $0 = true } }
        var marked: Bool { state.withLock { $0 } }
    }
}

/// A client's WebSocket: messages out (masked, as RFC 6455 asks of a client), whole messages in, pings answered.
final class LiveSocket: @unchecked Sendable {
    /// The largest message the client takes: a face mesh's JSON with its blendshapes is about 100 KB.
    static let maxMessageBytes = 1 << 22

    /// A whole message.
    enum Message: Sendable {
        case text(String)
        case binary(ByteBuffer)
    }

    /// A close frame's code and reason.
    struct Close: Sendable {
        let closeCode: WebSocketErrorCode
        let reason: String?
    }

    private var inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private var sentClose = false
    /// The server's close, once it came.
    private(set) var received: Close?

    fileprivate init(
        inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    ) {
        self.inbound = inbound
        self.outbound = outbound
    }

    /// Sends `message` as one frame.
    func send(_ message: Message) async throws {
        switch message {
        case .text(let text): try await write(.text, ByteBuffer(string: text))
        case .binary(let bytes): try await write(.binary, bytes)
        }
    }

    /// Sends a close with `code` (the server's close then ends the messages).
    func close(_ code: WebSocketErrorCode = .normalClosure) async throws {
        guard !sentClose else { return }
        sentClose = true
        var data = ByteBuffer()
        data.write(webSocketErrorCode: code)
        try await write(.connectionClose, data)
    }

    /// The next whole message, or nil once the server closed (its close is answered) or the connection ended.
    /// - Throws: `LoopbackFailure` for a message over `maxMessageBytes` or a continuation of nothing.
    func next() async throws -> Message? {
        var parts: (opcode: WebSocketOpcode, data: ByteBuffer)?
        while received == nil, let frame = try await inbound.next() {
            switch frame.opcode {
            case .ping:
                try await write(.pong, frame.unmaskedData)
            case .pong:
                continue
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readWebSocketErrorCode() ?? .unknown(1005)
                received = Close(closeCode: code, reason: data.readString(length: data.readableBytes))
                if !sentClose {
                    sentClose = true
                    try? await write(.connectionClose, frame.unmaskedData)
                }
            case .continuation, .text, .binary:
                var data = frame.unmaskedData
                if frame.opcode == .continuation {
                    guard parts != nil else { throw LoopbackFailure(description: "a continuation of no message") }
                    parts?.data.writeBuffer(&data)
                } else {
                    guard parts == nil else { throw LoopbackFailure(description: "a message inside another") }
                    parts = (frame.opcode, data)
                }
                guard let whole = parts, whole.data.readableBytes <= Self.maxMessageBytes else {
                    throw LoopbackFailure(description: "a message over \(Self.maxMessageBytes) bytes")
                }
                guard frame.fin else { continue }
                return whole.opcode == .text ? .text(String(buffer: whole.data)) : .binary(whole.data)
            default:
                throw LoopbackFailure(description: "a frame of opcode \(frame.opcode)")
            }
        }
        return nil
    }

    /// Closes (if the test has not) and reads to the server's close; returns it.
    fileprivate func finish() async throws -> Close? {
        if !sentClose, received == nil { try? await close() }
        while received == nil, try await next() != nil {}
        return received
    }

    /// Writes one final frame, masked with a fresh key.
    private func write(_ opcode: WebSocketOpcode, _ data: ByteBuffer) async throws {
        let key = WebSocketMaskingKey.random()
        try await outbound.write(WebSocketFrame(fin: true, opcode: opcode, maskKey: key, data: data))
    }
}

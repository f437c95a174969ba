import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import VisionTasks

// MARK: - Server

/// `vision-tasks serve`: the HTTP and WebSocket API over the library's tasks, and the browser app
/// (the iOS sample apps' camera and library views) served from the package's resources.
///
/// Routes: `POST /api/v1/{task}` (an image), `POST /api/v1/{task}/video`, `GET /api/v1/{task}/live`
/// (WebSocket), `GET /api/v1/tasks` (each task's options and outputs), `GET /api/v1/models`, `GET /api/v1/connections`,
/// `POST /api/v1/gesture-models` (trains a gesture model from a zip of photos and offers it) and
/// `GET /api/v1/gesture-models` (the training's options and limits), `GET /healthz`, and the page's
/// files under `/`. Every error is `{"error": "…"}` with its status.
public struct VisionServer: Sendable {
    /// The address, models folder and limits the server runs with.
    public let configuration: ServerConfiguration
    /// The models offered now, by task: the folder's at start, and each model trained since.
    public var catalog: ModelCatalog { catalogStore.catalog }
    private let catalogStore: CatalogStore
    private let page: StaticPage
    private let connections: ByteBuffer
    private let tasksJSON: ByteBuffer
    private let imagePools: ImagePools
    private let videoPool: WorkerPool
    private let liveSockets: BoundedCount
    private let decoder: ImageDecoder
    private let liveFrames: LiveFrameBudget
    private let bodies: BodyReader
    private let training: GestureModelTraining

    /// A server for `configuration`; `catalog` defaults to a scan of its models folder.
    /// - Parameters:
    ///   - configuration: The address, models folder and limits.
    ///   - catalog: The models to offer (nil: those of `configuration.modelsDirectory` that load).
    /// - Throws: `ServerError.invalidConfiguration` for a limit that is not usable or missing page resources;
    ///   `ServerError.noModels` when the models folder cannot be listed or no model in it loads; Foundation's
    ///   error when a page file cannot be read.
    public init(configuration: ServerConfiguration, catalog: ModelCatalog? = nil) throws {
        try configuration.validate()
        self.configuration = configuration
        catalogStore = try CatalogStore(catalog ?? ModelCatalog(directory: configuration.modelsDirectory))
        page = try StaticPage()
        connections = ByteBuffer(bytes: try ConnectionsJSON.encode())
        tasksJSON = ByteBuffer(bytes: TaskCatalogJSON.encode(threadsDefault: configuration.threadsPerTask))
        imagePools = ImagePools(workers: configuration.workers, queueDepth: configuration.queueDepth)
        videoPool = WorkerPool(name: "video", workers: configuration.workers, queueDepth: 0)
        liveSockets = BoundedCount(limit: configuration.maxLiveSockets)
        decoder = ImageDecoder(configuration: configuration)
        liveFrames = LiveFrameBudget(limit: configuration.heldLivePixels)
        bodies = BodyReader(configuration: configuration)
        training = GestureModelTraining(configuration: configuration, store: catalogStore)
    }

    /// The Hummingbird application serving the routes on the configured host and port.
    /// - Parameters:
    ///   - logger: Where the application logs.
    ///   - onListening: Called once the server listens, with the port it listens on (the one the system chose for
    ///     port 0).
    public func makeApplication(
        logger: Logger = Logger(label: "vision-tasks.serve"),
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let webSockets = makeWebSocketRouter().buildResponder()
        let headLimit = TimeAmount(configuration.requestHeadTimeout)
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: TimeAmount(configuration.idleTimeout)),
            ws: .init(maxFrameSize: configuration.maxFrameBytes))
        return Application(
            router: makeRouter(),
            server: HTTPServerBuilder { responder in
                GuardedConnection(
                    base: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSockets, configuration: channel),
                    headLimit: headLimit, writeLimit: TimeAmount(configuration.idleTimeout),
                    refusesUpgrade: refusesLiveUpgrade,
                    largestBody: max(configuration.maxBodyBytes, configuration.maxTrainingBodyBytes))
            },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "vision-tasks"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    // MARK: - Routes

    /// The HTTP routes. A GET route answers HEAD too; another method on a route's path gets 405 with the methods it
    /// takes in `Allow` (OPTIONS: 204 with them), not the router's 404 "nothing at this path".
    func makeRouter() -> Router<ConnectionContext> {
        let router = Router(context: ConnectionContext.self)
        router.middlewares.add(JSONErrorMiddleware())
        var methods: [String: Set<HTTPRequest.Method>] = [:]
        func on<Output: ResponseGenerator>(
            _ method: HTTPRequest.Method, _ path: String,
            use handler: @escaping @Sendable (Request, ConnectionContext) async throws -> Output
        ) {
            methods[path, default: []].insert(method)
            router.on(RouterPath(path), method: method, use: handler)
            guard method == .get else { return }
            // HEAD is the GET route's answer, its body dropped by `JSONErrorMiddleware` (which answers every HEAD);
            // registered here (not generated by the router) so that the middleware sees it first: a HEAD with a body
            // is refused and its connection closed.
            methods[path, default: []].insert(.head)
            router.on(RouterPath(path), method: .head, use: handler)
        }
        on(.get, "/healthz") { _, _ in json(ByteBuffer(string: "{\"status\":\"ok\"}")) }
        on(.get, "/api/v1/models") { _, _ in json(catalogStore.json) }
        on(.get, "/api/v1/gesture-models") { _, _ in json(training.description()) }
        on(.post, "/api/v1/gesture-models") { request, context in
            try await training.train(request, bodies: bodies, connection: context.connection, logger: context.logger)
        }
        on(.get, "/api/v1/tasks") { _, _ in json(tasksJSON) }
        on(.get, "/api/v1/connections") { _, _ in json(connections) }
        on(.post, "/api/v1/:task") { request, context in try await detectImage(request, context) }
        on(.post, "/api/v1/:task/video") { request, context in try await detectVideo(request, context) }
        on(.get, "/api/v1/:task/live") { request, context -> Response in
            // Reached when the request did not upgrade: say why.
            let marker = UpgradeGate.problemHeader.lowercased()
            if let problem = request.headers.first(where: { $0.name.canonicalName == marker })?.value,
                let space = problem.firstIndex(of: " "), let code = Int(problem[..<space]), [400, 426].contains(code)
            {
                let status = HTTPResponse.Status(code: code)
                var response = APIError.jsonResponse(status: status, message: String(problem[space...].dropFirst()))
                if status == .upgradeRequired { response.headers[.secWebSocketVersion] = "13" }
                return response
            }
            _ = try settings(request, context)
            if liveSockets.isFull {
                throw APIError(
                    .serviceUnavailable,
                    "\(configuration.maxLiveSockets) live sockets are open already; try again later")
            }
            throw APIError(.badRequest, "connect with a WebSocket (Upgrade: websocket) to stream frames")
        }
        on(.get, "/") { _, _ in try pageFile("index.html") }
        on(.get, "/:file") { _, context in try pageFile(context.parameters.get("file") ?? "") }
        for (path, taken) in methods { Self.refuseOtherMethods(on: path, taking: taken, in: router) }
        return router
    }

    /// The methods a client may send that a path does not take get 405, naming the ones it does (`Allow`); OPTIONS
    /// gets 204 with them. The answer to a request with a body closes its connection (the body is not read on), and a
    /// HEAD's has no body.
    private static func refuseOtherMethods(
        on path: String, taking taken: Set<HTTPRequest.Method>, in router: Router<ConnectionContext>
    ) {
        let allow = taken.union([.options]).map(\.rawValue).sorted().joined(separator: ", ")
        let known: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .trace, .connect]
        let webDAV = ["PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK"].compactMap {
            HTTPRequest.Method($0)
        }
        for method in known + webDAV where !taken.contains(method) {
            router.on(RouterPath(path), method: method) { request, context -> Response in
                let answer =
                    method == .options
                    ? APIError(.noContent, "")
                    : APIError(.methodNotAllowed, "\(method) is not answered here; this path takes \(allow)")
                var response =
                    JSONErrorMiddleware.hasBody(request)
                    ? answer.responseClosing(context.connection, withBody: method != .head && method != .options)
                    : method == .options
                        ? Response(status: .noContent)
                        : APIError.jsonResponse(status: answer.status, message: answer.message)
                response.headers[.allow] = allow
                return response
            }
        }
    }

    /// The WebSocket route: `GET /api/v1/{task}/live` upgrades when the task and options are good
    /// and a live socket is free. `UpgradeGate` sends any other request to the HTTP route, which gives the reason; only
    /// one that passed the gate and lost a race for the last live socket gets the WebSocket layer's bare 400.
    func makeWebSocketRouter() -> Router<ConnectionContext> {
        let router = Router(context: ConnectionContext.self)
        router.ws("/api/v1/:task/live") { request, context in
            guard (try? settings(request, context)) != nil, !liveSockets.isFull else { return .dontUpgrade }
            return .upgrade()
        } onUpgrade: { inbound, outbound, context in
            let settings = try settings(context.request, context.requestContext)
            guard liveSockets.open() else {
                try await outbound.close(.policyViolation, reason: "too many live sockets")
                return
            }
            defer { liveSockets.close() }
            let (path, configuration, logger) = (catalog.path(of: settings.model), configuration, context.logger)
            let (decoder, budget) = (self.decoder, liveFrames)
            let made = await WorkerPool.offloaded {
                try LiveSession(
                    settings: settings, modelPath: path, configuration: configuration, decoder: decoder,
                    budget: budget, logger: logger)
            }
            switch made {
            case .success(let session):
                try await session.run(
                    inbound: inbound, outbound: outbound, connection: context.requestContext.connection)
            case .failure(let error):
                try await Self.refuse(
                    inbound, outbound, connection: context.requestContext.connection,
                    reason: APIError.from(error).message, configuration: configuration)
            }
        }
        return router
    }

    /// A live socket whose task could not be made (an option only the task itself rejects): the error
    /// answers the client's first message, then the socket closes (`unacceptableData`); a client silent
    /// for the idle timeout is closed (`goingAway`). The server never speaks first: bytes sent right
    /// behind the 101 response can reach a client before it reads (HummingbirdWSClient under load then
    /// never saw the reply nor the close, and waited for ever).
    /// As in `LiveSession`, a client that leaves a write waiting `idleTimeout` loses its connection, and one silent
    /// for it is closed without waiting for its answer (its input is shut).
    private static func refuse(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, connection: any Channel,
        reason: String, configuration: ServerConfiguration
    ) async throws {
        let idleTimeout = configuration.idleTimeout
        let cut: @Sendable () -> Void = { connection.close(promise: nil) }
        try await withThrowingTaskGroup(of: Void.self) { watched in
            // A child task, as in `LiveSession`, so that it never waits for Swift's shared pool.
            watched.addTask {
                try? await Task.sleep(for: idleTimeout)
                guard !Task.isCancelled else { return }
                try? await LiveSession.closeIdle(outbound, connection, idleTimeout: idleTimeout, onStall: cut)
            }
            defer { watched.cancelAll() }
            var messages = LiveMessages(inbound, maxSize: configuration.maxFrameBytes)
            do {
                guard try await messages.next() != nil else { return }
            } catch let violation as LiveMessages.Violation {
                return try await violation.close(outbound, connection)
            }
            let reply = JSONEnvelope.encode(["error": .string(reason)])
            try await StallTimer.write(within: idleTimeout, onStall: cut) {
                try await outbound.write(.text(String(decoding: reply, as: UTF8.self)))
                try await outbound.close(.unacceptableData, reason: "the task could not be made")
            }
        }
    }

    // MARK: - Request handling

    /// The task and options a request names (404 for an unknown task or model, 400 for a bad option).
    private func settings(_ request: Request, _ context: some RequestContext) throws -> TaskSettings {
        try settings(task: context.parameters.get("task") ?? "", uri: request.uri)
    }

    /// `uri`'s query parameters, names and values percent-decoded (Hummingbird decodes the values only:
    /// `min%2Ddetection%2Dconfidence` was an unknown option).
    static func queryPairs(_ uri: URI) -> [(String, String)] {
        uri.queryParameters.map { (String($0.key).removingPercentEncoding ?? String($0.key), String($0.value)) }
    }

    /// The settings the URL `uri` asks of the task named `name`.
    private func settings(task name: String, uri: URI) throws -> TaskSettings {
        guard let task = TaskKind(rawValue: name) else {
            let known = TaskKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError(.notFound, "unknown task \"\(name)\" (tasks: \(known))")
        }
        let parameters = Self.queryPairs(uri)
        return try TaskSettings(
            task: task, parameters: parameters, catalog: catalog,
            defaultThreads: configuration.threadsPerTask)
    }

    /// Whether a WebSocket upgrade of the request target `target` would be refused: one that is no live socket's
    /// path (`/api/v1/{task}/live`), names an unknown task or a bad option, or finds every live socket taken. The
    /// HTTP routes then answer it with the reason (`UpgradeGate`).
    @Sendable func refusesLiveUpgrade(_ target: String) -> Bool {
        let uri = URI(target)
        let parts = uri.path.split(separator: "/")
        guard parts.count == 4, parts[0] == "api", parts[1] == "v1", parts[3] == "live" else { return true }
        return (try? settings(task: String(parts[2]), uri: uri)) == nil || liveSockets.isFull
    }

    /// Runs `use` on the request body, at most `maxBodyBytes` (413 beyond), held within `heldBodyBytes`.
    private func withBody<T>(
        _ request: Request, _ context: ConnectionContext, _ use: (Data) async throws -> T
    ) async throws -> T {
        try await bodies.withBody(
            request, connection: context.connection, limit: configuration.maxBodyBytes, flag: "--max-body", use)
    }

    /// `POST /api/v1/{task}`: the image's result, as the CLI's `result` JSON.
    private func detectImage(_ request: Request, _ context: ConnectionContext) async throws -> Response {
        let settings = try settings(request, context)
        let result = try await withBody(request, context) { data in
            guard MediaSniffer.isImage(data) else {
                throw APIError(.unsupportedMediaType, "the body is not a JPEG or PNG image")
            }
            let path = catalog.path(of: settings.model), decoder = self.decoder
            return try await imagePools[settings.task].run { worker in
                // The task first: an option it rejects is reported before the image is looked at.
                let task = try worker.task(for: settings) {
                    try ServedTask.make(settings, modelPath: path, mode: .image, live: nil)
                }
                return try task.detectImage(try decoder.decode(data, name: "request body"))
            }
        }
        return json(ByteBuffer(bytes: result))
    }

    /// `POST /api/v1/{task}/video`: one JSON line per frame, streamed as frames are processed.
    private func detectVideo(_ request: Request, _ context: ConnectionContext) async throws -> Response {
        let settings = try settings(request, context)
        // The video is held until it is written to the file the stream reads.
        let (worker, stream) = try await withBody(request, context) { data in
            guard MediaSniffer.isVideo(data) else {
                throw APIError(
                    .unsupportedMediaType, "the body is not a video (MP4, MOV, WebM, Matroska, AVI, MPEG-TS or Y4M)")
            }
            let worker = try await videoPool.acquire()
            do {
                return (
                    worker,
                    try await VideoStream.open(
                        data, settings: settings, modelPath: catalog.path(of: settings.model),
                        maxPixelCount: configuration.maxImagePixels, maxFrames: configuration.maxVideoFrames)
                )
            } catch {
                await videoPool.release(worker)
                throw APIError.from(error)
            }
        }
        let lease = WorkerLease(worker, of: videoPool) { stream.close() }
        // A client that stops reading gives up the worker and its connection after the idle timeout (see
        // `WorkerLease.write`).
        let (stall, connection) = (configuration.idleTimeout, context.connection)
        let cut: @Sendable () -> Void = { connection.close(promise: nil) }
        let body = ResponseBody { writer in
            do {
                while let line = await stream.nextLine() {
                    try await lease.write(within: stall, onStall: cut) {
                        try await writer.write(ByteBuffer(bytes: line))
                    }
                }
                try await lease.write(within: stall, onStall: cut) { try await writer.finish(nil) }
            } catch {
                await lease.end()
                throw error
            }
            await lease.end()
        }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: body)
    }

    private func pageFile(_ name: String) throws -> Response {
        guard let file = page.files[name] else { throw APIError(.notFound, "no such page file") }
        return Response(
            status: .ok, headers: [.contentType: file.contentType, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: file.data)))
    }
}

// MARK: - Responses, pools and limits

/// A `200` JSON response.
private func json(_ body: ByteBuffer) -> Response {
    Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
}

/// One worker pool per task for image requests.
struct ImagePools: Sendable {
    private let pools: [TaskKind: WorkerPool]

    init(workers: Int, queueDepth: Int) {
        pools = Dictionary(
            uniqueKeysWithValues: TaskKind.allCases.map {
                ($0, WorkerPool(name: $0.rawValue, workers: workers, queueDepth: queueDepth))
            })
    }

    /// The pool of `task`.
    subscript(task: TaskKind) -> WorkerPool {
        // Every TaskKind has a pool: `pools` is made from `TaskKind.allCases`, the only TaskKinds there are.
        pools[task]!
    }
}

/// How many of something are open (live sockets, trainings, bytes of request bodies), against a limit.
final class BoundedCount: Sendable {
    private let count = Mutex(0)
    /// The most that may be open at once.
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Whether no more may open.
    var isFull: Bool { !isFree(1) }

    /// Whether `amount` more may open now.
    func isFree(_ amount: Int) -> Bool { count.withLock { amount <= limit - $0 } }

    /// Counts `amount` in; false, counting nothing, when that would pass the limit.
    func open(_ amount: Int = 1) -> Bool {
        count.withLock { value in
            guard amount <= limit - value else { return false }
            value += amount
            return true
        }
    }

    /// Counts `amount` out.
    func close(_ amount: Int = 1) { count.withLock { $0 -= amount } }
}

// MARK: - Running

extension VisionServer {
    /// Runs the server until the process is interrupted (SIGINT/SIGTERM end it gracefully).
    /// - Parameter onListening: Called once the server listens, with its port.
    /// - Throws: `ServerError.cannotListen` when the address cannot be listened on (a port in use, a host that is
    ///   not this machine's).
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let listening = Listening()
        do {
            try await makeApplication { port in
                listening.state.withLock { $0 = true }
                await onListening(port)
            }.runService()
        } catch  where !listening.state.withLock({ $0 }) {
            throw ServerError.cannotListen(
                address: "\(configuration.urlHost):\(configuration.port)", reason: Self.listenFailure(error))
        }
    }

    /// Whether the server came to listen.
    private final class Listening: Sendable {
        let state = Mutex(false)
    }

    /// Why listening failed, in the words a user acts on.
    static func listenFailure(_ error: any Error) -> String {
        if error is SocketAddressError || error is SocketAddressError.UnknownHost {
            return "no address of that name (--host: an IP address or a host name)"
        }
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE:
            return "the port is in use (another program listens on it: give another --port, or 0 for any free one)"
        case EACCES: return "permission denied (a port below 1024 needs privileges: give another --port)"
        case EADDRNOTAVAIL: return "no network interface of this machine has that address (--host)"
        default: return "\(error)"
        }
    }
}

import FixtureSupport
import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing
import VisionServer
import VisionTasks

/// The HTTP API over a loopback socket (`LoopbackClient`): every endpoint, every error status,
/// and results byte-for-byte equal to the library's on the fixture photos (tolerance: none, the
/// same JSON; the library's own agreement with MediaPipe is checked in VisionTasksTests).
@Suite(.serverThreads) struct HTTPAPITests {
    private func body(_ response: LoopbackResponse) -> String { String(buffer: response.body) }

    @Test func healthModelsAndConnections() async throws {
        let app = try ServerSupport.server()
        try await app.test { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect(body($0) == #"{"status":"ok"}"#) }
            try await client.execute(uri: "/api/v1/models", method: .get) { response in
                #expect(response.status == .ok)
                let models = try JSONDecoder().decode([String: [String]].self, from: Data(buffer: response.body))
                #expect(models["face-detector"]?.first == "blaze_face_short_range.tflite")
                #expect(models["face-detector"]?.contains("face_detection_full_range_sparse.tflite") == true)
                #expect(models["face-landmarker"] == ["face_landmarker.task"])
                #expect(models["hand-landmarker"]?.first == "hand_landmarker.task")
                #expect(models["gesture-recognizer"] == ["gesture_recognizer.task", "operations.task"])
            }
            try await client.execute(uri: "/api/v1/connections", method: .get) { response in
                let lists = try JSONDecoder().decode(
                    [String: [String: [Connection]]].self, from: Data(buffer: response.body))
                #expect(lists["face"]?["tesselation"] == FaceLandmarksConnections.tesselation)
                #expect(lists["face"]?["leftIris"] == FaceLandmarksConnections.leftIris)
                #expect(lists["hand"]?["hand"] == HandLandmarksConnections.hand)
            }
        }
    }

    /// `GET /api/v1/tasks` describes every task's options with the defaults the options classes
    /// have, and a request that names no option gets exactly those (the results test below).
    @Test func theTaskCatalogIsServedWithTheLibrarysDefaults() async throws {
        let app = try ServerSupport.server()
        try await app.test { client in
            try await client.execute(uri: "/api/v1/tasks", method: .get) { response in
                #expect(response.status == .ok)
                let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                let tasks = try #require(object?["tasks"] as? [[String: Any]])
                #expect(tasks.compactMap { $0["name"] as? String } == TaskDescription.all.map(\.name))
                let defaults: [String: VisionTaskOptions] = [
                    "face-detector": FaceDetectorOptions(), "face-landmarker": FaceLandmarkerOptions(),
                    "hand-landmarker": HandLandmarkerOptions(), "gesture-recognizer": GestureRecognizerOptions(),
                    "pose-landmarker": PoseLandmarkerOptions(), "image-segmenter": ImageSegmenterOptions(),
                ]
                for task in tasks {
                    let name = try #require(task["name"] as? String)
                    let options = try #require(task["options"] as? [[String: Any]])
                    let library = try #require(TaskDescription.named(name))
                    #expect(options.compactMap { $0["name"] as? String } == library.options.map(\.name) + ["threads"])
                    #expect(task["outputs"] as? [String] == library.outputs)
                    let instance = try #require(defaults[name])
                    for served in options where served["name"] as? String != "threads" {
                        let option = try #require(library.option(named: served["name"] as? String ?? ""))
                        #expect(served["type"] as? String == option.type.rawValue)
                        switch try #require(option.value(in: instance)) {
                        case .float(let value):
                            #expect((served["default"] as? NSNumber)?.floatValue == value, "\(name) \(option.name)")
                        case .int(let value):
                            #expect((served["default"] as? NSNumber)?.intValue == value, "\(name) \(option.name)")
                        case .bool(let value): #expect(served["default"] as? Bool == value, "\(name) \(option.name)")
                        case .list(let value):
                            #expect(served["default"] as? [String] == value, "\(name) \(option.name)")
                        case .string(let value):
                            #expect(served["default"] as? String == value, "\(name) \(option.name)")
                        case .unset: #expect(served["default"] is NSNull, "\(name) \(option.name)")
                        }
                        #expect((served["min"] as? NSNumber)?.doubleValue == option.minimum)
                        #expect((served["max"] as? NSNumber)?.doubleValue == option.maximum)
                        #expect(served["modelOf"] as? String == option.modelOf, "\(name) \(option.name)")
                    }
                    let threads = try #require(options.last)
                    #expect(threads["default"] as? Int == ServerConfiguration().threadsPerTask)
                    #expect(threads["min"] as? Int == 1)
                }
            }
        }
    }

    static let imageCases: [(String, String, String)] = [
        ("face-detector", "astronaut.png", ""),
        (
            "face-landmarker", "astronaut.png",
            "num-faces=2&output-face-blendshapes=true&output-facial-transformation-matrixes=true"
        ),
        ("hand-landmarker", "woman_sitting.jpg", "num-hands=2"),
        ("gesture-recognizer", "hand_thumb_up.jpg", ""),
        (
            "face-landmarker", "woman_sitting.jpg",
            "num-faces=2&face-detector-model=face_detection_full_range_sparse.tflite"
        ),
        ("pose-landmarker", "woman_sitting.jpg", "output-segmentation-masks=true&output-joint-angles=true"),
        ("image-segmenter", "woman_sitting.jpg", "output-category-mask=true"),
    ]

    @Test func imageResultsEqualTheLibrarys() async throws {
        #expect(Set(Self.imageCases.map(\.0)) == Set(TaskDescription.all.map(\.name)), "a task the test misses")
        let app = try ServerSupport.server()
        try await app.test { client in
            for (task, photo, query) in Self.imageCases {
                let options = Dictionary(
                    uniqueKeysWithValues: query.split(separator: "&").map {
                        let pair = $0.split(separator: "=")
                        return (String(pair[0]), String(pair[1]))
                    })
                let expected = try ServerSupport.libraryJSON(task, photo: photo, options: options)
                let uri = "/api/v1/\(task)" + (query.isEmpty ? "" : "?" + query)
                try await client.execute(
                    uri: uri, method: .post, body: ByteBuffer(data: try ServerSupport.photo(photo))
                ) { response in
                    #expect(response.status == .ok, "\(task): \(body(response))")
                    #expect(body(response) == expected, "\(task) on \(photo)")
                }
            }
        }
    }

    @Test func aModelIsChosenByName() async throws {
        let expected = try ServerSupport.libraryJSON(
            "gesture-recognizer", photo: "hand_thumb_up.jpg", options: ["model": "operations.task"])
        #expect(expected.contains("\"categoryName\""))
        let app = try ServerSupport.server()
        try await app.test { client in
            try await client.execute(
                uri: "/api/v1/gesture-recognizer?model=operations.task", method: .post,
                body: ByteBuffer(data: try ServerSupport.photo("hand_thumb_up.jpg"))
            ) { response in
                #expect(body(response) == expected)
            }
        }
    }

    @Test func aModelThatNoLongerLoadsIsA500NamingItsFileNotTheFolder() async throws {
        // The catalog offers a file that was a model when the server scanned it and is garbage now.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("face.tflite")
        try FileManager.default.copyItem(
            atPath: ServerSupport.modelsDirectory + "/blaze_face_short_range.tflite", toPath: model.path)
        try FileManager.default.copyItem(
            atPath: ServerSupport.modelsDirectory + "/face_landmarker.task",
            toPath: folder.appendingPathComponent("face_landmarker.task").path)
        // Given with a trailing "/" (`--models m/`), the catalog's paths read "m//face.tflite".
        let catalog = try ModelCatalog(directory: folder.path + "/")
        try Data(repeating: 7, count: 1000).write(to: model)
        let app = try ServerSupport.server({ $0.modelsDirectory = folder.path + "/" }, catalog: { catalog })

        try await app.test { client in
            try await client.execute(
                uri: "/api/v1/face-detector?model=face.tflite", method: .post,
                body: ByteBuffer(data: try ServerSupport.photo("hand_thumb_up.jpg"))
            ) { response in
                #expect(response.status == .internalServerError)
                let message = ServerSupport.errorMessage(response)
                #expect(message.contains("Invalid model: face.tflite "), "\(message)")
                #expect(!message.contains(folder.path), "\(message)")
            }
            // The same model chosen by an option of another task (it named the folder there still).
            try await client.execute(
                uri: "/api/v1/face-landmarker?face-detector-model=face.tflite", method: .post,
                body: ByteBuffer(data: try ServerSupport.photo("hand_thumb_up.jpg"))
            ) { response in
                #expect(response.status == .internalServerError)
                let message = ServerSupport.errorMessage(response)
                #expect(message.contains("face.tflite") && !message.contains(folder.path), "\(message)")
            }
        }
    }

    @Test func clientErrorsAreJSONWithTheirStatus() async throws {
        let app = try ServerSupport.server { $0.maxBodyBytes = 50_000 }
        let photo = ByteBuffer(data: try ServerSupport.photo("hand_thumb_up.jpg"))
        let small = ByteBuffer(data: try ServerSupport.photo("hand_thumb_up.jpg").prefix(40_000))
        try await app.test { client in
            let cases: [(String, HTTPRequest.Method, ByteBuffer?, HTTPResponse.Status, String)] = [
                (
                    "/api/v1/face-landmarker", .post, ByteBuffer(bytes: [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]), .badRequest,
                    "Invalid image"
                ),
                (
                    "/api/v1/face-landmarker?num-faces=two", .post, small, .badRequest,
                    "num-faces must be a whole number"
                ),
                ("/api/v1/face-landmarker?num-faces=0", .post, small, .badRequest, "num-faces"),
                (
                    "/api/v1/face-landmarker?min-face-detection-confidence=1.5", .post, small, .badRequest,
                    "min-face-detection-confidence"
                ),
                ("/api/v1/face-landmarker?output-face-blendshapes=maybe", .post, small, .badRequest, "true or false"),
                ("/api/v1/face-landmarker?colour=red", .post, small, .badRequest, "unknown option \"colour\""),
                // A percent-encoded name is the option it spells (it was "unknown option").
                (
                    "/api/v1/face-landmarker?min%2Dface%2Ddetection%2Dconfidence=1.5", .post, small, .badRequest,
                    "min-face-detection-confidence must"
                ),
                ("/api/v1/face-landmarker/live", .get, nil, .badRequest, "WebSocket"),
                ("/api/v1/face-recognizer", .post, small, .notFound, "unknown task \"face-recognizer\""),
                ("/api/v1/face-landmarker?model=hand_landmarker.task", .post, small, .notFound, "no model named"),
                ("/api/v1/face-landmarker?model=../../etc/passwd", .post, small, .notFound, "no model named"),
                // A model file option takes a name the catalog offers for its task, never a path.
                (
                    "/api/v1/face-landmarker?face-detector-model=hand_landmarker.task", .post, small, .notFound,
                    "no model named"
                ),
                (
                    "/api/v1/face-landmarker?face-detector-model=/work/models/face_detection_full_range_sparse.tflite",
                    .post, small, .notFound, "no model named"
                ),
                ("/../../etc/passwd", .get, nil, .notFound, "nothing at this path"),
                ("/etc/passwd", .get, nil, .notFound, "nothing at this path"),
                // Another method on a route's path is 405, not "nothing at this path" (Allow: checked below).
                (
                    "/api/v1/face-detector", .get, nil, .methodNotAllowed,
                    "GET is not answered here; this path takes OPTIONS, POST"
                ),
                ("/api/v1/tasks", .put, nil, .methodNotAllowed, "this path takes GET, HEAD, OPTIONS"),
                ("/api/v1/tasks", .post, small, .methodNotAllowed, "POST is not answered here"),
                ("/healthz", .delete, nil, .methodNotAllowed, "this path takes GET, HEAD, OPTIONS"),
                ("/nothing.js", .get, nil, .notFound, "no such page file"),
                ("/api/v1/hand-landmarker", .post, photo, .contentTooLarge, "limit of 50000 bytes"),
                (
                    "/api/v1/hand-landmarker", .post, ByteBuffer(string: "hello, this is text"), .unsupportedMediaType,
                    "not a JPEG or PNG"
                ),
                (
                    "/api/v1/hand-landmarker/video", .post, ByteBuffer(string: "hello, this is text"),
                    .unsupportedMediaType, "not a video"
                ),
            ]
            for (uri, method, requestBody, status, message) in cases {
                try await client.execute(uri: uri, method: method, body: requestBody) { response in
                    #expect(response.status == status, "\(uri): \(body(response))")
                    #expect(ServerSupport.errorMessage(response).contains(message), "\(uri): \(body(response))")
                    if status == .methodNotAllowed { #expect(response.headers[.allow] != nil, "\(uri)") }
                }
            }
            // HEAD answers as GET without the body; OPTIONS names the methods.
            try await client.execute(uri: "/healthz", method: .head) { response in
                #expect(response.status == .ok && response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/api/v1/face-detector/video", method: .options) { response in
                #expect(response.status == .noContent && response.headers[.allow] == "OPTIONS, POST")
            }
        }
    }

    @Test func busyWorkersAndAFullQueueAnswer503() async throws {
        let app = try ServerSupport.server {
            $0.workers = 1
            $0.queueDepth = 0
        }
        let photo = ByteBuffer(data: try ServerSupport.photo("woman_sitting.jpg"))
        try await app.test { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await client.execute(uri: "/api/v1/hand-landmarker", method: .post, body: photo) {
                            response in
                            if response.status == .serviceUnavailable {
                                #expect(ServerSupport.errorMessage(response).contains("busy"))
                            }
                            return response.status
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 8)
            #expect(statuses.allSatisfy { $0 == .ok || $0 == .serviceUnavailable })
            #expect(statuses.contains(.ok))
            #expect(statuses.contains(.serviceUnavailable))
        }
    }

    /// `maxImagePixels` (`serve --max-image-pixels`) bounds what a client may make the server decode: a posted
    /// photo and a posted video's frames over it are 400s naming the limit, before any pixel memory is taken.
    /// A connection that sends no request, or never finishes its head, is closed after `requestHeadTimeout`:
    /// Hummingbird's idle timeout starts only after a head, and such connections were held for good (enough of them
    /// took every file descriptor). A connection that sends its request in time is served.
    @Test func aConnectionWithoutARequestIsClosedAfterTheHeadTimeout() async throws {
        // Nothing is logged as an error for it: the client's doing, one line each ("Error handling upgrade result").
        let logs = CapturedLogs()
        let app = try ServerSupport.server { $0.requestHeadTimeout = .seconds(2) }
        defer { #expect(logs.errors.isEmpty, "\(logs.errors)") }
        try await app.test(logger: Logger(label: "test") { _ in logs }) { client in
            let port = client.port
            let silent = try await StallingClient.connectSilently(port: port)
            let start = ContinuousClock.now
            #expect(await silent.closedByTheServer(within: 30), "a silent connection was kept for 30 s")
            #expect(ContinuousClock.now - start > .seconds(1), "closed before its time")
            _ = try await StallingClient.connect(port: port, path: "/api/v1/face-detector/live")
            // A head whose target has no leading "/": the HTTP codec dropped it without a word, and the connection
            // was held for good. It is answered 400 and closed.
            let unrouted = try await StallingClient.connectSilently(port: port)
            #expect(await unrouted.sendBody(Array("GET healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
            let refusal = await unrouted.statusLine(within: 20)
            #expect(refusal.hasPrefix("HTTP/1.1 400"), "\(refusal)")
            #expect(await unrouted.closedByTheServer(within: 10), "an unroutable head's connection was kept")
            // The same target in two reads gets that one answer (the decoder's own 400 on the cut line came after it).
            let split = try await StallingClient.connectSilently(port: port)
            #expect(await split.sendBody(Array("GET index".utf8)))
            try await Task.sleep(for: .milliseconds(300))
            #expect(await split.sendBody(Array(".html HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
            let splitAnswer = await split.answer(within: 20)
            let after = await split.answer(within: 5)
            #expect(splitAnswer.hasPrefix("HTTP/1.1 400") && splitAnswer.contains("is not a path"), "\(splitAnswer)")
            let answers = (splitAnswer + after).components(separatedBy: "HTTP/1.1 ").count - 1
            #expect(answers == 1, "\(answers) answers: \(splitAnswer)\(after)")
            // A head cut at the deadline is closed without an answer (a 400 said the stream ended: the server did).
            let cut = try await StallingClient.connectSilently(port: port)
            #expect(await cut.sendBody(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8)))
            #expect(await cut.answer(within: 20).isEmpty)
            // An absolute URI is routed by its path, as a first request too (it was refused as no path, while a later
            // one was served). A later bad target is Hummingbird's bare 400, and its connection is closed.
            let absolute = try await StallingClient.connectSilently(port: port)
            #expect(await absolute.sendBody(Array("GET http://x/healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
            #expect(await absolute.answer(within: 20).contains(#"{"status":"ok"}"#))
            #expect(await absolute.sendBody(Array("GET index.html HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
            #expect(await absolute.statusLine(within: 20).hasPrefix("HTTP/1.1 400"))
            #expect(await absolute.closedByTheServer(within: 10), "an unroutable head's connection was kept")
            // A request whose head came keeps its connection past the head's deadline: its body may come later.
            let slow = try await StallingClient.startPost(
                port: port, path: "/api/v1/face-detector", contentType: "image/jpeg", contentLength: 4)
            try await Task.sleep(for: .seconds(3))
            #expect(await slow.sendBody([1, 2, 3, 4]))
            let answer = await slow.statusLine(within: 20)
            #expect(answer.hasPrefix("HTTP/1.1 415"), "a request was cut at the first head's deadline: \(answer)")
        }
    }

    /// NIO's upgrade handler dropped, without a word, every first request whose upgrade it did not take: `curl --http2`
    /// (an `h2c` upgrade) got an empty reply from every route, and a WebSocket handshake of another version, without
    /// a key, with a body, or to an unknown task got none or a bare 400. Each is now answered with its reason.
    @Test func requestsThatDoNotUpgradeAreAnsweredWithTheirReason() async throws {
        let app = try ServerSupport.server()
        try await app.test { client in
            let port = client.port
            let webSocket =
                "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            let cases: [(head: String, answer: [String])] = [
                (
                    "GET /healthz HTTP/1.1\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n",
                    ["HTTP/1.1 200", #"{"status":"ok"}"#]
                ),
                (
                    "GET /api/v1/face-detector/live HTTP/1.1\r\n\(webSocket)Sec-WebSocket-Version: 8\r\n",
                    [
                        "HTTP/1.1 426", "sec-websocket-version: 13",
                        "speaks WebSocket version 13 (Sec-WebSocket-Version), got \\\"8\\\"",
                    ]
                ),
                (
                    "GET /api/v1/face-detector/live HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n",
                    ["HTTP/1.1 400", "needs one Sec-WebSocket-Key header with one key, got 0"]
                ),
                (
                    "GET /api/v1/face-detector/live HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: a,b\r\n",
                    ["HTTP/1.1 400", "needs one Sec-WebSocket-Key header with one key, got \\\"a,b\\\""]
                ),
                (
                    "GET /api/v1/face-detector/live HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: \r\n",
                    ["HTTP/1.1 400", "needs one Sec-WebSocket-Key header with one key"]
                ),
                // RFC 6455 (4.2.1) asks for HTTP/1.1 and `Connection: Upgrade`; NIO upgraded without either.
                (
                    "GET /api/v1/face-detector/live HTTP/1.0\r\n\(webSocket)Sec-WebSocket-Version: 13\r\n",
                    [" 400 ", "needs HTTP/1.1 or later, got HTTP/1.0"]
                ),
                (
                    "GET /api/v1/face-detector/live HTTP/1.1\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n",
                    ["HTTP/1.1 400", "needs Connection: Upgrade, got none"]
                ),
                (
                    "GET /api/v1/face-detector/live HTTP/1.1\r\nUpgrade: websocket\r\nConnection: keep-alive\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n",
                    ["HTTP/1.1 400", "needs Connection: Upgrade, got \\\"keep-alive\\\""]
                ),
                (
                    "POST /api/v1/face-detector/live HTTP/1.1\r\n\(webSocket)Sec-WebSocket-Version: 13\r\n",
                    ["HTTP/1.1 405", "allow: get, head, options"]
                ),
                (
                    "GET /api/v1/face-recognizer/live HTTP/1.1\r\n\(webSocket)Sec-WebSocket-Version: 13\r\n",
                    ["HTTP/1.1 404", "unknown task"]
                ),
                (
                    "GET /api/v1/face-detector/live?min-detection-confidence=2 HTTP/1.1\r\n\(webSocket)Sec-WebSocket-Version: 13\r\n",
                    ["HTTP/1.1 400", "min-detection-confidence"]
                ),
                (
                    "GET /api/v1/face-detector/live HTTP/1.1\r\n\(webSocket)Sec-WebSocket-Version: 13\r\nContent-Length: 5\r\n",
                    ["HTTP/1.1 400", "takes no body"]
                ),
                // A length past Int.max (the parser takes up to 2^64 - 1) read as no body: the upgrade went unanswered
                // and the connection was held for good; a GET was served and its "body" read on.
                (
                    "GET /api/v1/face-detector/live HTTP/1.1\r\n\(webSocket)Sec-WebSocket-Version: 13\r\nContent-Length: 18446744073709551615\r\n",
                    ["HTTP/1.1 400", "takes no body"]
                ),
                (
                    "GET /healthz HTTP/1.1\r\nContent-Length: 9223372036854775808\r\n",
                    ["HTTP/1.1 400", "takes no body"]
                ),
                (
                    "POST /api/v1/face-detector HTTP/1.1\r\nContent-Type: image/png\r\nContent-Length: 18446744073709551615\r\n",
                    ["HTTP/1.1 413", "connection: close"]
                ),
                // A HEAD with a body is refused without a body and closed, and another method with a body gets its 405
                // and is closed: neither is read on (under the router's own HEAD the closing was lost, and a 405
                // read a 100 GB body for as long as it came).
                ("HEAD /healthz HTTP/1.1\r\nContent-Length: 5\r\n", ["HTTP/1.1 400", "connection: close"]),
                (
                    "PUT /healthz HTTP/1.1\r\nContent-Length: 5\r\n",
                    ["HTTP/1.1 405", "allow: get, head, options", "connection: close"]
                ),
                // The header by which the gate tells the route of a bad handshake is not the client's to send.
                (
                    "GET /api/v1/face-detector/live HTTP/1.1\r\nVisionTasks-Handshake-Problem: 426 forged\r\n",
                    ["HTTP/1.1 400", "connect with a WebSocket"]
                ),
            ]
            for (head, expected) in cases {
                let connection = try await StallingClient.connectSilently(port: port)
                let body = head.contains("Content-Length: 5") ? "hello" : ""
                #expect(await connection.sendBody(Array("\(head)Host: x\r\n\r\n\(body)".utf8)))
                let answer = await connection.answer(within: 30)
                for part in expected {
                    #expect(answer.lowercased().contains(part.lowercased()), "\(head): \(answer)")
                }
                // The HTTP decoder parses nothing after a request it took for an upgrade: the answer closes the
                // connection (a keep-alive client's next request used to wait for the idle timeout, unanswered).
                if head.hasPrefix("HEAD") { #expect(!answer.contains("{"), "a body answered a HEAD: \(answer)") }
                if head.contains("Upgrade:") || head.contains("Content-Length: 1") || head.contains("Content-Length: 9")
                    || head.contains("Content-Length: 5")
                {
                    #expect(await connection.closedByTheServer(within: 10), "\(head): the connection was kept")
                }
            }
            // A later request on a kept connection cannot bring the gate's marker either.
            let kept = try await StallingClient.connectSilently(port: port)
            #expect(await kept.sendBody(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
            #expect(await kept.answer(within: 30).contains(#"{"status":"ok"}"#))
            let forged =
                "GET /api/v1/face-detector/live HTTP/1.1\r\nHost: x\r\nVisionTasks-Handshake-Problem: 426 forged\r\n\r\n"
            #expect(await kept.sendBody(Array(forged.utf8)))
            let second = await kept.answer(within: 30)
            #expect(second.hasPrefix("HTTP/1.1 400") && second.contains("connect with a WebSocket"), "\(second)")
            // HTTP/1.0 closes after its answer unless asked to keep alive (the connection was kept: a client reading
            // to the end waited for the idle timeout).
            for (keepAlive, closed) in [("", true), ("Connection: keep-alive\r\n", false)] {
                let old = try await StallingClient.connectSilently(port: port)
                #expect(await old.sendBody(Array("GET /healthz HTTP/1.0\r\nHost: x\r\n\(keepAlive)\r\n".utf8)))
                #expect(await old.answer(within: 30).contains(#"{"status":"ok"}"#))
                #expect(await old.closedByTheServer(within: 5) == closed, "HTTP/1.0 \(keepAlive)")
            }
            // A first head the decoder cannot read went unanswered, its connection held for good: 431 or 400 now.
            let heads = [
                (
                    "GET /healthz HTTP/1.1\r\nHost: x\r\n" + (0..<1000).map { "X-H\($0): v\r\n" }.joined(),
                    "HTTP/1.1 431"
                ),
                ("GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n", "HTTP/1.1 400"),
            ]
            for (head, status) in heads {
                let unread = try await StallingClient.connectSilently(port: port)
                #expect(await unread.sendBody(Array("\(head)\r\n".utf8)))
                let answer = await unread.answer(within: 30)
                #expect(answer.hasPrefix(status) && answer.contains("the request head"), "\(answer)")
                #expect(await unread.closedByTheServer(within: 10), "an unreadable head's connection was kept")
            }
            // A client asking whether to send its body (curl, over 1 MB) is told at once: it waited a second before.
            let photo = try ServerSupport.photo("hand_thumb_up.jpg")
            let asking = try await StallingClient.connectSilently(port: port)
            let head =
                "POST /api/v1/face-detector HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\n"
                + "Content-Length: \(photo.count)\r\nExpect: 100-continue\r\n\r\n"
            #expect(await asking.sendBody(Array(head.utf8)))
            #expect(await asking.statusLine(within: 5) == "HTTP/1.1 100 Continue")
            _ = await asking.statusLine(within: 5) // the blank line ending the interim answer
            #expect(await asking.sendBody([UInt8](photo)))
            let answered = await asking.answer(within: 30)
            #expect(answered.hasPrefix("HTTP/1.1 200") && answered.contains(#""detections""#), "\(answered)")
            // One past every body limit is refused at once, not told to send (it sent megabytes before its 413).
            let tooLong = try await StallingClient.connectSilently(port: port)
            let longHead = head.replacingOccurrences(
                of: "Content-Length: \(photo.count)", with: "Content-Length: 999999999999")
            #expect(await tooLong.sendBody(Array(longHead.utf8)))
            #expect(await tooLong.statusLine(within: 5).hasPrefix("HTTP/1.1 413"))
            // A good handshake still upgrades, Firefox's too (`Connection: keep-alive, Upgrade`).
            _ = try await StallingClient.connect(port: port, path: "/api/v1/face-detector/live")
            let firefox = try await StallingClient.connectSilently(port: port)
            let firefoxHead =
                "GET /api/v1/face-detector/live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                + "Connection: keep-alive, Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n"
            #expect(await firefox.sendBody(Array(firefoxHead.utf8)))
            #expect(await firefox.statusLine(within: 30).hasPrefix("HTTP/1.1 101"))
        }
    }

    @Test func bodiesBeingReadHoldAtMostTheirBudgetTogether() async throws {
        let app = try ServerSupport.server {
            $0.maxBodyBytes = 4096
            $0.maxTrainingBodyBytes = 4096
            $0.maxHeldBodyBytes = 8192
        }
        try await app.test { client in
            let port = client.port
            func post(_ count: Int) async throws -> (HTTPResponse.Status, String) {
                try await client.execute(
                    uri: "/api/v1/face-detector", method: .post, body: ByteBuffer(repeating: 0xFF, count: count)
                ) { ($0.status, ServerSupport.errorMessage($0)) }
            }
            /// Posts until the answer is `status`, for at most 30 s; the last answer.
            func post(_ count: Int, until status: HTTPResponse.Status) async throws -> (HTTPResponse.Status, String) {
                let deadline = ContinuousClock.now + .seconds(30)
                var answer = try await post(count)
                while answer.0 != status, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                    answer = try await post(count)
                }
                return answer
            }
            // A Content-Length over --max-body is answered before a byte of the body comes.
            let announced = try await StallingClient.startPost(
                port: port, path: "/api/v1/face-detector", contentType: "image/jpeg", contentLength: 5000)
            let status = await announced.statusLine(within: 20)
            #expect(status.hasPrefix("HTTP/1.1 413"), "\(status)")
            // ... and the connection closes, not waiting for the rest (which a client could drip for good).
            #expect(await announced.closedByTheServer(within: 10), "the refused body's connection was kept")
            // So does a request refused before its body is looked at, whatever the route, and a GET with a body.
            let refusals = [
                ("POST", "/api/v1/no-such-task"), ("POST", "/api/v1/face-detector?num-faces=0"),
                ("POST", "/api/v1/gesture-models"), ("GET", "/healthz"),
            ]
            for (method, path) in refusals {
                let refused = try await StallingClient.startPost(
                    port: port, path: path, contentType: "image/jpeg", contentLength: 100_000, method: method)
                let answer = await refused.statusLine(within: 20)
                #expect(answer.hasPrefix("HTTP/1.1 4"), "\(path): \(answer)")
                #expect(await refused.closedByTheServer(within: 10), "\(path): the connection was kept")
            }
            // Two bodies of which 3,000 bytes each have come hold 6,000 of the 8,192 bytes: a third of 3,000 waits
            // for them (503), and goes through (415: not an image) once they are gone.
            var holders: [StallingClient] = []
            for _ in 0..<2 {
                let holder = try await StallingClient.startPost(
                    port: port, path: "/api/v1/face-detector", contentType: "image/jpeg", contentLength: 4096)
                #expect(await holder.sendBody([UInt8](repeating: 0xFF, count: 3000)))
                holders.append(holder)
            }
            let refused = try await post(3000, until: .serviceUnavailable)
            #expect(refused.0 == .serviceUnavailable)
            #expect(refused.1.contains("--max-held-bodies"), "\(refused.1)")
            #expect(try await post(2000).0 == .unsupportedMediaType, "2,000 bytes still fit")
            holders.removeAll()
            #expect(try await post(3000, until: .unsupportedMediaType).0 == .unsupportedMediaType)
        }
        #expect(throws: (any Error).self) {
            try ServerSupport.server {
                $0.maxBodyBytes = 4096
                $0.maxHeldBodyBytes = 4095
            }
        }
    }

    @Test func aTrainingUploadGoingOnPastTwiceItsLimitLosesItsConnection() async throws {
        let app = try ServerSupport.server { $0.maxTrainingBodyBytes = 10_000 }
        try await app.test { client in
            let port = client.port
            // A length over the limit is refused before the body is read.
            let announced = try await StallingClient.startPost(
                port: port, path: "/api/v1/gesture-models?name=announced", contentType: "application/zip",
                contentLength: 50_000_000)
            let status = await announced.statusLine(within: 20)
            #expect(status.hasPrefix("HTTP/1.1 413"), "\(status)")
            // A chunked body over its limit is read to its end for the 413; one that goes on and on is cut.
            let upload = try await StallingClient.startPost(
                port: port, path: "/api/v1/gesture-models?name=endless", contentType: "application/zip",
                contentLength: nil)
            var sent = 0, closed = false
            while !closed, sent < 50_000_000 {
                closed = await !upload.sendChunk([UInt8](repeating: 0, count: 100_000))
                sent += 100_000
            }
            // A send that waited 2 s also ends the loop: the server must have closed, and early.
            #expect(closed && sent < 40_000_000, "\(sent) bytes were taken")
            #expect(await upload.closedByTheServer(within: 10))
        }
    }

    /// A client that pipelines requests and never reads their answers loses its connection once a write has waited
    /// the idle timeout: it kept it, its descriptor and the unsent answers for good (Hummingbird's idle timer waits
    /// while a request is in work), so one client could pile up connections until the server ran out of descriptors.
    @Test func aClientThatPipelinesAndNeverReadsLosesItsConnection() async throws {
        let app = try ServerSupport.server { $0.idleTimeout = .seconds(2) }
        try await app.test { client in
            let port = client.port
            let unread = try await StallingClient.connectSilently(port: port)
            // 2,000 requests for a 15 KB file: 30 MB of answers, far more than the socket buffers hold.
            let request = Array("GET /overlays.js HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            _ = await unread.sendBody(Array((0..<2000).map { _ in request }.joined()))
            try await Task.sleep(for: .seconds(6))
            // Reading now: a server that kept the connection sends on, and 30 MB take the client's reads (a byte
            // each) far longer than the 20 s given; one that closed it is at its end within them.
            #expect(await unread.closedByTheServer(within: 20), "the connection of a client that never reads was kept")
        }
    }

    /// An answer still buffered when Hummingbird's idle timeout closes the connection (the timeout starts when the
    /// answer's end is written, not sent) goes out whole to a client that keeps reading: a client reading a 1.8 MB
    /// answer at 27 KB/s got 0.9 MB of it (the idle timeout 30 s then), without a word.
    @Test func aSlowReaderGetsAWholeLargeAnswer() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("slow-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A large noisy photo: its confidence mask's PNG does not compress (a 1.8 MB answer).
        let photo = scratch.appendingPathComponent("big.jpg")
        try Tool.ffmpeg([
            "-i", Fixture.path("images/woman_sitting.jpg"), "-vf",
            "scale=6000:4000,noise=alls=40:allf=t", "-q:v", "3", photo.path,
        ])
        let jpeg = [UInt8](try Data(contentsOf: photo))
        let app = try ServerSupport.server { $0.idleTimeout = .seconds(3) }
        try await app.test { client in
            let port = client.port
            let post = try await StallingClient.startPost(
                port: port, path: "/api/v1/image-segmenter?output-confidence-masks=true&output-category-mask=true",
                contentType: "image/jpeg", contentLength: jpeg.count)
            #expect(await post.sendBody(jpeg))
            // The client's tiny receive buffer keeps it slow: longer than the idle timeout for the answer, though it
            // takes a part of it every second.
            let started = ContinuousClock.now
            let answer = await post.readSlowly(pause: 0.001, within: 120)
            #expect(ContinuousClock.now - started > .seconds(4), "read faster than the test means to")
            let text = String(decoding: answer, as: UTF8.self)
            let head = try #require(text.range(of: "\r\n\r\n"), "an answer came")
            let length = try #require(
                text[..<head.lowerBound].split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) })
            #expect(text.hasPrefix("HTTP/1.1 200"))
            #expect(
                length > 1_000_000 && text[head.upperBound...].utf8.count == length,
                "\(answer.count) bytes of \(length)")
        }
    }

    @Test func aBodySentSlowerThanTheLeastRateLosesItsConnection() async throws {
        let app = try ServerSupport.server {
            $0.idleTimeout = .seconds(2)
            $0.minBodyBytesPerSecond = 1000
        }
        try await app.test { client in
            let port = client.port
            let routes = [
                ("/api/v1/face-detector", "image/jpeg"), ("/api/v1/gesture-models?name=slow", "application/zip"),
            ]
            for (path, type) in routes {
                let drip = try await StallingClient.startPost(
                    port: port, path: path, contentType: type, contentLength: 1_000_000)
                // 10 bytes every 0.2 s: 50 bytes per second, each gap well inside the idle timeout.
                let start = ContinuousClock.now
                var closed = false
                while !closed, ContinuousClock.now - start < .seconds(30) {
                    closed = await !drip.sendBody([UInt8](repeating: 0, count: 10))
                    try await Task.sleep(for: .milliseconds(200))
                }
                #expect(closed, "\(path): a body dripped at 50 bytes/s was still being read after 30 s")
                #expect(ContinuousClock.now - start > .seconds(2), "\(path): closed within the grace")
            }
            // The training slot is free (the dripped upload never had it: it never arrived whole).
            let deadline = ContinuousClock.now + .seconds(10)
            var training = true
            while training, ContinuousClock.now < deadline {
                training = try await ServerSupport.training(client)
                if training { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(!training, "the slow upload still held the training slot")
        }
    }

    @Test func anUploadStillComingHoldsNoTrainingSlot() async throws {
        let app = try ServerSupport.server()
        try await app.test { client in
            let port = client.port
            // An upload of which a tenth has come (as at 16 KB/s, 100 MB would take 1.7 hours)...
            let slow = try await StallingClient.startPost(
                port: port, path: "/api/v1/gesture-models?name=slow", contentType: "application/zip",
                contentLength: 100_000)
            #expect(await slow.sendBody([UInt8](repeating: 0, count: 10_000)))
            try await Task.sleep(for: .milliseconds(500))
            // ... holds no training slot: another upload, whole, is read and trained from (here refused for its
            // zip, a 400, not the 503 of a training running).
            #expect(try await ServerSupport.training(client) == false, "an upload still coming holds the training slot")
            try await client.execute(
                uri: "/api/v1/gesture-models?name=whole", method: .post, headers: [.contentType: "application/zip"],
                body: ByteBuffer(string: "not a zip")
            ) { response in
                #expect(response.status == .badRequest, "\(response.status): \(ServerSupport.errorMessage(response))")
                #expect(ServerSupport.errorMessage(response).contains("zip"), "\(ServerSupport.errorMessage(response))")
            }
            #expect(await slow.sendBody([UInt8](repeating: 0, count: 10_000)), "the slow upload was cut")
        }
    }

    @Test func imagesAndFramesOverThePixelLimitAre400() async throws {
        let app = try ServerSupport.server { $0.maxImagePixels = 10_000 }
        let photo = ByteBuffer(data: try ServerSupport.photo("hand_thumb_up.jpg"))
        let video = ByteBuffer(data: try ServerSupport.panVideo(photo: "astronaut.png", frames: 2))
        try await app.test { client in
            for (uri, body) in [("/api/v1/hand-landmarker", photo), ("/api/v1/hand-landmarker/video", video)] {
                try await client.execute(uri: uri, method: .post, body: body) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(ServerSupport.errorMessage(response).contains("10000 pixels"), "\(uri)")
                }
            }
        }
        #expect(throws: (any Error).self) { try ServerSupport.server { $0.maxImagePixels = 0 } }
    }

    @Test func aVideoLongerThanTheFrameLimitEndsWithAnErrorLine() async throws {
        let video = ByteBuffer(data: try ServerSupport.panVideo(photo: "astronaut.png", frames: 5))
        let app = try ServerSupport.server { $0.maxVideoFrames = 3 }
        try await app.test { client in
            try await client.execute(uri: "/api/v1/face-detector/video", method: .post, body: video) { response in
                #expect(response.status == .ok)
                let lines = body(response).split(separator: "\n").map(String.init)
                try #require(lines.count == 4, "\(lines)")
                #expect(lines.prefix(3).allSatisfy { $0.contains("\"result\":") })
                #expect(lines[3].contains("\"frame\":3") && lines[3].contains("more than 3 frames"), "\(lines[3])")
                #expect(lines[3].contains("--max-video-frames"))
            }
        }
        #expect(throws: (any Error).self) { try ServerSupport.server { $0.maxVideoFrames = 0 } }
    }

    @Test func aCutVideoOfNoAnnouncedLengthEndsWithAWarningLine() async throws {
        // An MPEG-TS cut in half: ffmpeg decodes what is there and logs errors, as the CLI's `warning:` line says.
        let mp4 = try ServerSupport.panVideo(photo: "astronaut.png", frames: 20)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (source, full) = (dir.appendingPathComponent("a.mp4"), dir.appendingPathComponent("a.ts"))
        try mp4.write(to: source)
        try Tool.ffmpeg(["-i", source.path, "-c", "copy", "-f", "mpegts", full.path])
        let whole = try Data(contentsOf: full)
        let app = try ServerSupport.server()
        try await app.test { client in
            for (video, cut) in [(whole, false), (whole.prefix(whole.count / 2), true)] {
                try await client.execute(
                    uri: "/api/v1/face-detector/video", method: .post, body: ByteBuffer(data: Data(video))
                ) { response in
                    #expect(response.status == .ok)
                    let lines = body(response).split(separator: "\n").map(String.init)
                    try #require(lines.count >= 2, "\(lines)")
                    #expect(lines.dropLast().allSatisfy { $0.contains("\"result\":") }, "\(lines)")
                    let last = try #require(lines.last)
                    if cut {
                        #expect(last.hasPrefix("{\"warning\":\"ffmpeg reported errors while decoding the posted video"))
                        #expect(!last.contains("vision-tasks-"), "\(last)")
                    } else {
                        #expect(lines.count == 20 && last.contains("\"result\":"), "\(lines.count): \(last)")
                    }
                }
            }
        }
    }

    @Test func framesOfAVideoFasterThan1000PerSecondThatShareAMillisecondSaySo() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        try Tool.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=96x64:r=2000", "-frames:v", "4", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            url.path,
        ])
        let video = ByteBuffer(data: try Data(contentsOf: url))
        let app = try ServerSupport.server()
        try await app.test { client in
            try await client.execute(uri: "/api/v1/face-detector/video", method: .post, body: video) { response in
                let lines = body(response).split(separator: "\n").map(String.init)
                try #require(lines.count == 4, "\(lines)")
                #expect([0, 1, 3].allSatisfy { lines[$0].contains("\"result\":") }, "\(lines)")
                #expect(
                    lines[2].contains("frame 2 of the posted video is at 1 ms, not after frame 1 (1 ms)"),
                    "\(lines[2])")
            }
        }
    }

    @Test func aVideoOfLargeFramesStopsAtTheFramesPixelsOf1080p() async throws {
        // Three frames of 1440p: their pixels pass those of three 1080p frames at the second.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        try Tool.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=2560x1440:rate=10", "-frames:v", "3", "-c:v", "libx264", "-pix_fmt",
            "yuv420p", url.path,
        ])
        let video = ByteBuffer(data: try Data(contentsOf: url))
        let app = try ServerSupport.server { $0.maxVideoFrames = 3 }
        try await app.test { client in
            try await client.execute(uri: "/api/v1/face-detector/video", method: .post, body: video) { response in
                let lines = body(response).split(separator: "\n").map(String.init)
                try #require(lines.count == 2, "\(lines)")
                #expect(lines[0].contains("\"result\":"))
                #expect(lines[1].contains("\"frame\":1") && lines[1].contains("pixels in all"), "\(lines[1])")
            }
        }
    }

    @Test func aVideoStreamsOneLinePerFrameEqualToTheLibrarysVideoMode() async throws {
        let video = try ServerSupport.panVideo(photo: "astronaut.png", frames: 5)
        let app = try ServerSupport.server()
        try await app.test { client in
            try await client.execute(uri: "/api/v1/face-landmarker/video", method: .post, body: ByteBuffer(data: video))
            { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-ndjson")
                let lines = body(response).split(separator: "\n")
                #expect(lines.count == 5)
                // The same frames through the library in video mode.
                let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "server-\(UUID().uuidString).mp4")
                try video.write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let frames = try VideoFrames.read(file.path)
                let task = try FaceLandmarker(
                    options: FaceLandmarkerOptions(
                        baseOptions: BaseOptions(
                            modelAssetPath: ServerSupport.modelsDirectory + "/face_landmarker.task", numThreads: 1),
                        runningMode: .video))
                #expect(frames.count == 5)
                for (line, frame) in zip(lines, frames) {
                    let expected = String(
                        decoding: try ResultJSON.encode(
                            try task.detect(videoFrame: frame.image, timestampInMilliseconds: frame.timestamp)),
                        as: UTF8.self)
                    #expect(line.hasPrefix("{\"frame\":\(frame.index),\"inferenceMs\":"))
                    #expect(line.hasSuffix(",\"result\":\(expected),\"timestampInMilliseconds\":\(frame.timestamp)}"))
                }
            }
            let notAVideo = Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [UInt8](repeating: 7, count: 400))
            try await client.execute(
                uri: "/api/v1/face-landmarker/video", method: .post, body: ByteBuffer(data: notAVideo)
            ) { response in
                #expect(response.status == .badRequest, "\(body(response))")
                // The error names what the client sent, not the server's temporary file.
                let message = ServerSupport.errorMessage(response)
                #expect(message.contains("the posted video") && !message.contains("vision-tasks-"), "\(message)")
            }
        }
    }
}

/// A log handler keeping the messages at error level and above.
private struct CapturedLogs: LogHandler {
    private final class Box: @unchecked Sendable {
        let lock = NSLock()
        var errors: [String] = []
    }
    private let box = Box()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    /// The error messages logged so far.
    var errors: [String] { box.lock.withLock { box.errors } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.level >= .error else { return }
        box.lock.withLock { box.errors.append("\(event.message) \(event.metadata ?? [:])") }
    }
}

import Foundation
import NIOCore
import NIOWebSocket
import Synchronization
import Testing
import VisionTasks

@testable import VisionServer

/// `GET /api/v1/{task}/live` over a real loopback socket: replies in timestamp order, frames sent
/// faster than they are processed dropped and counted, errors per frame, limits.
@Suite(.serverThreads) struct LiveSocketTests {
    /// One binary frame message: the 8-byte little-endian timestamp, then the image.
    static func frame(_ timestamp: Int64, _ image: Data) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(timestamp, endianness: .little)
        buffer.writeBytes(image)
        return buffer
    }

    /// The JSON object of a text reply.
    static func object(_ message: LiveSocket.Message?) throws -> [String: Any] {
        guard case .text(let text) = message else { throw ReplyError.notText(String(describing: message)) }
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    enum ReplyError: Error { case notText(String) }

    @Test func aFloodIsAnsweredInOrderWithEveryFrameAnsweredOrCountedDropped() async throws {
        try await Deadline.run("aFloodIsAnsweredInOrderWithEveryFrameAnsweredOrCountedDropped") {
            // A 54 KB photo: the client masks and the server unmasks every byte it sends, slowly in a
            // debug build and on the event loop the suite's other sockets share; 30 copies of the
            // 790 KB astronaut held those sockets' first frames back past their idle limits.
            let sent = 30
            let photo = try ServerSupport.photo("hand_thumb_up.jpg")
            let app = try ServerSupport.server()
            _ = try await app.test { client in
                try await client.ws("/api/v1/hand-landmarker/live") { socket in
                    for t in 1...sent { try await socket.send(.binary(Self.frame(Int64(t * 33), photo))) }
                    var replies: [[String: Any]] = []
                    while let message = try await socket.next() {
                        let reply = try Self.object(message)
                        replies.append(reply)
                        if reply["timestampInMilliseconds"] as? Int == sent * 33 { break }
                    }
                    try await socket.close()
                    let timestamps = replies.compactMap { $0["timestampInMilliseconds"] as? Int }
                    #expect(timestamps == timestamps.sorted() && Set(timestamps).count == timestamps.count)
                    #expect(replies.allSatisfy { $0["error"] == nil })
                    let dropped = try #require(replies.last?["dropped"] as? Int)
                    #expect(dropped > 0, "30 frames sent at once: the flow limiter must drop some")
                    let summary = "\(replies.map { ($0["timestampInMilliseconds"] ?? "-", $0["dropped"] ?? "-") })"
                    #expect(
                        replies.count + dropped == sent, "every frame is answered or counted as dropped: \(summary)")
                    let hands = try #require((replies.last?["result"] as? [String: Any])?["landmarks"] as? [[Any]])
                    #expect(hands.first?.count == 21)
                    #expect(replies.allSatisfy { ($0["inferenceMs"] as? Double ?? -1) >= 0 })
                }
            }
        }
    }

    @Test func badFramesAndBackwardTimestampsGetErrorReplies() async throws {
        try await Deadline.run("badFramesAndBackwardTimestampsGetErrorReplies") {
            let photo = try ServerSupport.photo("hand_thumb_up.jpg")
            let app = try ServerSupport.server()
            _ = try await app.test { client in
                try await client.ws("/api/v1/gesture-recognizer/live?num-hands=2") { socket in
                    try await socket.send(.binary(Self.frame(100, photo)))
                    let first = try Self.object(try await socket.next())
                    let gestures = try #require((first["result"] as? [String: Any])?["gestures"] as? [[[String: Any]]])
                    #expect(gestures.first?.first?["categoryName"] as? String == "Thumb_Up")
                    try await socket.send(.binary(Self.frame(50, photo)))
                    let backwards = try Self.object(try await socket.next())
                    #expect(backwards["timestampInMilliseconds"] as? Int == 50)
                    #expect((backwards["error"] as? String)?.contains("timestamp") == true, "\(backwards)")
                    // Past `FrameContext.timestampRange`: refused. The hand tracker's nanoseconds used to overflow
                    // on it, and the trap ended the server.
                    try await socket.send(.binary(Self.frame(Int64.max, photo)))
                    let far = try Self.object(try await socket.next())
                    #expect((far["error"] as? String)?.contains("within ±4000000000000 ms") == true, "\(far)")
                    try await socket.send(.binary(Self.frame(200, Data([0xFF, 0xD8, 0xFF, 0, 1, 2, 3]))))
                    let undecodable = try Self.object(try await socket.next())
                    #expect(undecodable["timestampInMilliseconds"] as? Int == 200)
                    #expect((undecodable["error"] as? String)?.contains("Invalid image") == true, "\(undecodable)")
                    try await socket.send(.text("hello"))
                    let text = try Self.object(try await socket.next())
                    #expect((text["error"] as? String)?.contains("binary") == true)
                    // Sent together, answered in the order sent: a refused frame's error, or a text message's, used
                    // to pass the results of the frames before it still in work.
                    for stamp: Int64 in [1000, 2000, 2000, 1500] {
                        try await socket.send(.binary(Self.frame(stamp, photo)))
                    }
                    try await socket.send(.text("hello"))
                    try await socket.send(.binary(Self.frame(3000, photo)))
                    var order: [String] = []
                    for _ in 0..<6 {
                        let reply = try Self.object(try await socket.next())
                        let stamp = (reply["timestampInMilliseconds"] as? Int).map(String.init) ?? "-"
                        order.append("\(stamp)\(reply["error"] == nil ? "" : " error")")
                    }
                    // (1000 in work and 2000 waiting: nothing newer is accepted to replace it before the text's reply.)
                    #expect(order == ["1000", "2000", "2000 error", "1500 error", "- error", "3000"], "\(order)")
                    try await socket.close()
                }
            }
        }
    }

    @Test func framesAboveTheRateLimitAreDroppedAndCounted() async throws {
        try await Deadline.run("framesAboveTheRateLimitAreDroppedAndCounted") {
            // One frame a second. Frame 1 is answered first (the session and its task are up); then 12
            // tiny frames go at once, and a text message after them: its error reply shows that the
            // server has read all 12 (it reads a socket's messages in order). Frame 14 follows 1.5 s
            // after that reply, so it is admitted however late the server read the burst, and its
            // reply counts every drop. FrameRateLimit's exact window is tested in LiveLedgerTests.
            let tiny = try ServerSupport.photo("png-variants/gray8.png")
            let app = try ServerSupport.server { $0.maxFramesPerSecond = 1 }
            _ = try await app.test { client in
                try await client.ws("/api/v1/face-detector/live") { socket in
                    let clock = ContinuousClock()
                    let start = clock.now
                    try await socket.send(.binary(Self.frame(1, tiny)))
                    var replies = [try Self.object(try await socket.next())]
                    for t in 2...13 { try await socket.send(.binary(Self.frame(Int64(t), tiny))) }
                    try await socket.send(.text("after frame 13"))
                    while replies.last?["error"] == nil, let message = try await socket.next() {
                        replies.append(try Self.object(message))
                    }
                    try await Task.sleep(for: .milliseconds(1500))
                    try await socket.send(.binary(Self.frame(14, tiny)))
                    while replies.last?["timestampInMilliseconds"] as? Int != 14,
                        let message = try await socket.next()
                    {
                        replies.append(try Self.object(message))
                    }
                    let elapsed = clock.now - start
                    try await socket.close()
                    let summary =
                        "\(replies.map { ($0["timestampInMilliseconds"] ?? "-", $0["dropped"] ?? $0["error"] ?? "-") }) in \(elapsed)"
                    let results = replies.filter { $0["error"] == nil }
                    #expect(replies.count == results.count + 1, "one error, for the text message: \(summary)")
                    let last = try #require(results.last, "\(summary)")
                    #expect(last["timestampInMilliseconds"] as? Int == 14, "\(summary)")
                    // Admissions are at least a second apart, all within `elapsed`.
                    #expect(Double(results.count) <= elapsed / .seconds(1) + 1, "\(summary)")
                    let dropped = last["dropped"] as? Int ?? 0
                    #expect(dropped > 0, "12 frames sent at once at 1 frame/s: \(summary)")
                    #expect(results.count + dropped == 14, "every frame is answered or counted as dropped: \(summary)")
                }
            }
        }
    }

    @Test func aSilentSocketIsClosedAfterItsLastReply() async throws {
        try await Deadline.run("aSilentSocketIsClosedAfterItsLastReply") {
            let tiny = try ServerSupport.photo("png-variants/gray8.png")
            // 3 s: a test process busy starting the other suites' tasks may read the frame late.
            let app = try ServerSupport.server { $0.idleTimeout = .seconds(3) }
            try await app.test { client in
                let close = try await client.ws("/api/v1/face-detector/live") { socket in
                    try await socket.send(.binary(Self.frame(1, tiny)))
                    var replies: [[String: Any]] = []
                    while let message = try await socket.next() {
                        replies.append(try Self.object(message))
                    }
                    #expect(replies.map { $0["timestampInMilliseconds"] as? Int } == [1], "\(replies)")
                }
                #expect(close?.closeCode == .goingAway)
                #expect(close?.reason?.contains("idle") == true, "\(String(describing: close))")
            }
        }
    }

    @Test func anIdleCloseWaitsForTheRepliesToTheLastFrames() async throws {
        try await Deadline.run("anIdleCloseWaitsForTheRepliesToTheLastFrames") {
            // The idle limit is shorter than two gesture-recognizer frames with a hand take in a debug
            // build (about 1.5 s each): the socket is not idle while its frames are processed, so the
            // replies arrive before the close. A tiny frame 1 is answered first, so the session is up.
            let tiny = try ServerSupport.photo("png-variants/gray8.png")
            let photo = try ServerSupport.photo("hand_thumb_up.jpg")
            let app = try ServerSupport.server { $0.idleTimeout = .seconds(2) }
            try await app.test { client in
                let close = try await client.ws("/api/v1/gesture-recognizer/live") { socket in
                    try await socket.send(.binary(Self.frame(1, tiny)))
                    var replies = [try Self.object(try await socket.next())]
                    try await socket.send(.binary(Self.frame(2, photo)))
                    try await socket.send(.binary(Self.frame(3, photo)))
                    while let message = try await socket.next() { replies.append(try Self.object(message)) }
                    // Frame 2 may be dropped for frame 3 when frame 3 arrives before its work starts (an optimised
                    // build's frame 1 ends at once); every frame is answered or counted dropped, frame 3 answered.
                    let summary = "\(replies.map { $0["error"] ?? $0["timestampInMilliseconds"] ?? "-" })"
                    let stamps = replies.map { $0["timestampInMilliseconds"] as? Int }
                    #expect(stamps == [1, 2, 3] || stamps == [1, 3], "\(summary)")
                    let dropped = replies.last?["dropped"] as? Int ?? 0
                    #expect(replies.count + dropped == 3, "every frame is answered or counted dropped: \(summary)")
                    let gestures = replies.dropFirst().map {
                        (($0["result"] as? [String: Any])?["gestures"] as? [[[String: Any]]])?.first?.first?[
                            "categoryName"]
                            as? String
                    }
                    #expect(!gestures.isEmpty && gestures.allSatisfy { $0 == "Thumb_Up" }, "\(gestures)")
                }
                #expect(close?.closeCode == .goingAway)
            }
        }
    }

    /// A server with one live socket in all, which a client not reading holds for at most 2 s of a waiting write
    /// or of idleness.
    static func oneLiveSocket() throws -> VisionServer {
        try ServerSupport.server {
            $0.maxLiveSockets = 1
            $0.idleTimeout = .seconds(2)
            $0.maxFramesPerSecond = 1000
        }
    }

    /// Opens live sockets to `path` until one is let in and answers a frame, for 60 s at most.
    static func nextClientIsAnswered(_ client: LoopbackClient, _ path: String) async throws {
        let tiny = try ServerSupport.photo("png-variants/gray8.png")
        let answered = Mutex<Int?>(nil)
        let start = ContinuousClock.now
        var attempts: [String] = []
        while answered.withLock({ $0 }) == nil {
            try #require(
                ContinuousClock.now - start < .seconds(60),
                "the silent client kept the only live socket for 60 s; attempts: \(attempts.suffix(8))")
            // Each attempt at most 20 s: a client waiting on a reply that never comes must not hold the loop.
            do {
                try await Deadline.run("a live socket attempt", seconds: 20) {
                    try await client.ws(path) { socket in
                        try await socket.send(.binary(Self.frame(1, tiny)))
                        let reply = try Self.object(try await socket.next())
                        answered.withLock { $0 = reply["timestampInMilliseconds"] as? Int }
                        try await socket.close()
                    }
                }
                attempts.append("answered at \(ContinuousClock.now - start)")
            } catch {
                attempts.append("\(error) at \(ContinuousClock.now - start)")
                try await Task.sleep(for: .milliseconds(200)) // refused while the socket is held
            }
        }
        #expect(answered.withLock { $0 } == 1)
    }

    @Test func aClientThatStopsReadingLosesItsSocket() async throws {
        try await Deadline.run("aClientThatStopsReadingLosesItsSocket", seconds: 300) {
            // Face meshes of about 100 KB each, as fast as the server makes them, soon fill the server's socket
            // buffer (up to 4 MB) and the client's (made tiny): then a write waits, and 2 s later the server
            // closes the connection, which ends the client's sending. Before, the session waited on that write
            // for good, holding the socket. (About 3 s alone; a full test run's other suites slow the server.)
            let path = "/api/v1/face-landmarker/live?output-face-blendshapes=true"
            let face = try [UInt8](
                MPImage(contentsOfFile: ServerSupport.images.appendingPathComponent("astronaut.png").path)
                    .jpegData(quality: 80))
            let app = try Self.oneLiveSocket()
            try await app.test { client in
                let stalled = try await StallingClient.connect(port: client.port, path: path)
                let clock = ContinuousClock()
                let start = clock.now
                var sent = 0
                while clock.now - start < .seconds(150),
                    await stalled.send(
                        withUnsafeBytes(of: Int64(sent + 1).littleEndian, Array.init) + face, binary: true)
                {
                    sent += 1
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(clock.now - start < .seconds(150), "the server took \(sent) frames and never closed")
                try await Self.nextClientIsAnswered(client, path)
                withExtendedLifetime(stalled) {}
            }
        }
    }

    @Test func aClientThatBreaksTheProtocolLosesItsSocket() async throws {
        try await Deadline.run("aClientThatBreaksTheProtocolLosesItsSocket", seconds: 300) {
            // A frame with a reserved bit set: the WebSocket layer sends its close (1002) and shuts its output but
            // reads on; the next message's reply then could not be written, and the session counted itself busy
            // for good, so neither the idle close nor anything else ended it: the socket was held.
            let path = "/api/v1/face-detector/live"
            let app = try Self.oneLiveSocket()
            try await app.test { client in
                let broken = try await StallingClient.connect(port: client.port, path: path)
                #expect(await broken.sendBody([0xC2, 0x80 | 4, 0, 0, 0, 0, 1, 2, 3, 4])) // FIN, RSV1, binary
                _ = await broken.send(Array("hello".utf8), binary: false)
                try await Self.nextClientIsAnswered(client, path)
                withExtendedLifetime(broken) {}
            }
        }
    }

    @Test func aClientThatNeverAnswersTheIdleCloseLosesItsSocket() async throws {
        try await Deadline.run("aClientThatNeverAnswersTheIdleCloseLosesItsSocket") {
            // A client that sends one message and then nothing, reading nothing (it vanished): the idle close
            // goes unanswered. Before, the session went on waiting for the client's messages, holding the socket.
            let path = "/api/v1/face-detector/live"
            let app = try Self.oneLiveSocket()
            // Milestones on stdout, so a run that hangs says where (this test hung twice in full fresh-clone runs).
            let start = ContinuousClock.now
            @Sendable func mark(_ step: String) {
                print("aClientThatNeverAnswersTheIdleCloseLosesItsSocket: \(step) at \(ContinuousClock.now - start)")
            }
            try await app.test { client in
                mark("server up")
                let silent = try await StallingClient.connect(port: client.port, path: path)
                mark("silent client upgraded")
                #expect(await silent.send(Array("hello".utf8), binary: false))
                mark("silent client sent")
                try await Self.nextClientIsAnswered(client, path)
                mark("next client answered")
                withExtendedLifetime(silent) {}
            }
            mark("server down")
        }
    }

    @Test func aSilentClientOfARefusedSocketLosesIt() async throws {
        try await Deadline.run("aSilentClientOfARefusedSocketLosesIt") {
            // Options only the task rejects upgrade, then the error answers the client's first message. A client
            // that sends none, and answers nothing, is cut off after the idle timeout; before, the refusal waited
            // for its message for good, holding the socket.
            let refused =
                "/api/v1/gesture-recognizer/live?canned-gestures-allowlist=Thumb_Up&canned-gestures-denylist=None"
            let app = try Self.oneLiveSocket()
            try await app.test { client in
                let silent = try await StallingClient.connect(port: client.port, path: refused)
                try await Self.nextClientIsAnswered(client, "/api/v1/face-detector/live")
                withExtendedLifetime(silent) {}
            }
        }
    }

    /// A message over `maxFrameBytes` or `LiveMessages.maxFragments` frames, sent in frames under the limit, closes the
    /// socket with 1009 (message too big), a continuation with no message to continue with 1002 (protocol error), and
    /// a text message that is not UTF-8 with 1007, and an unmasked frame with 1002, as RFC 6455 asks; the session ended
    /// its reading there and the close said 1000, a normal end (the unmasked frame was read as if masked).
    @Test func aMessageOverTheLimitOrOutOfOrderClosesTheSocketWithItsCode() async throws {
        try await Deadline.run("aMessageOverTheLimitOrOutOfOrderClosesTheSocketWithItsCode") {
            let app = try ServerSupport.server { $0.maxFrameBytes = 1000 }
            _ = try await app.test { client in
                let port = client.port
                let tooBig = try await StallingClient.connect(port: port, path: "/api/v1/face-detector/live")
                #expect(await tooBig.sendFrame([UInt8](repeating: 0, count: 600), opcode: 2, fin: false))
                #expect(await tooBig.sendFrame([UInt8](repeating: 0, count: 600), opcode: 0, fin: true))
                #expect(await tooBig.closeCode(within: 30) == 1009)
                let stray = try await StallingClient.connect(port: port, path: "/api/v1/face-detector/live")
                #expect(await stray.sendFrame([1, 2, 3], opcode: 0, fin: true))
                #expect(await stray.closeCode(within: 30) == 1002)
                // A message in more frames than a message may take (empty ones, which the byte limit never met: each
                // was kept, some 20 bytes of server memory per byte sent), and a text message that is not UTF-8.
                let shredded = try await StallingClient.connect(port: port, path: "/api/v1/face-detector/live")
                #expect(await shredded.sendFrame([1], opcode: 2, fin: false))
                for _ in 0..<LiveMessages.maxFragments {
                    guard await shredded.sendFrame([], opcode: 0, fin: false) else { break }
                }
                #expect(await shredded.closeCode(within: 30) == 1009)
                let garbled = try await StallingClient.connect(port: port, path: "/api/v1/face-detector/live")
                #expect(await garbled.sendFrame([0xC3, 0x28], opcode: 1, fin: true))
                #expect(await garbled.closeCode(within: 30) == 1007)
                // A frame without a mask, which a client may not send (RFC 6455, 5.1): it was read as if masked.
                let unmasked = try await StallingClient.connect(port: port, path: "/api/v1/face-detector/live")
                #expect(await unmasked.sendFrame(Array(#"{"type":"hello"}"#.utf8), opcode: 1, fin: true, masked: false))
                #expect(await unmasked.closeCode(within: 30) == 1002)
                // A socket whose task could not be made (it answers the first message with the reason, then closes):
                // a first message that breaks the protocol gets its code too (it closed with 1000, reading on).
                let refused = try await StallingClient.connect(
                    port: port,
                    path:
                        "/api/v1/gesture-recognizer/live?canned-gestures-allowlist=Thumb_Up&canned-gestures-denylist=None"
                )
                #expect(await refused.sendFrame([1, 2, 3], opcode: 0, fin: true))
                #expect(await refused.closeCode(within: 30) == 1002)
            }
        }
    }

    @Test func unknownTasksAndBadOptionsDoNotUpgrade() async throws {
        try await Deadline.run("unknownTasksAndBadOptionsDoNotUpgrade") {
            let app = try ServerSupport.server()
            try await app.test { client in
                // Unknown task, malformed value, value out of range: known before the upgrade, refused with the HTTP error.
                let refused = [
                    "/api/v1/face-recognizer/live", "/api/v1/face-landmarker/live?num-faces=x",
                    "/api/v1/face-landmarker/live?num-faces=0",
                ]
                for path in refused {
                    await #expect(throws: (any Error).self, "\(path)") {
                        try await client.ws(path) { _ in }
                    }
                }
                try await client.execute(uri: "/api/v1/face-recognizer/live", method: .get) { response in
                    #expect(response.status == .notFound)
                }
                try await client.execute(uri: "/api/v1/face-landmarker/live?num-faces=0", method: .get) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains("num-faces must be at least 1, got 0"))
                }
                // Options only the task rejects are known once it is made: the error answers the first message,
                // then the close. (The server never speaks first: what it sent right behind the 101 response
                // this client lost under load, and waited for ever.)
                let close = try await client.ws(
                    "/api/v1/gesture-recognizer/live?canned-gestures-allowlist=Thumb_Up&canned-gestures-denylist=None"
                ) { socket in
                    try await socket.send(.binary(Self.frame(33, try ServerSupport.photo("hand_thumb_up.jpg"))))
                    let reply = try Self.object(try await socket.next())
                    #expect((reply["error"] as? String)?.contains("mutually exclusive") == true, "\(reply)")
                }
                #expect(close?.closeCode == .unacceptableData)
            }
        }
    }
}

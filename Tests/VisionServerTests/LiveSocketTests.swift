import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Testing
import VisionServer
import VisionTasks

/// `GET /api/v1/{task}/live` over a real loopback socket: replies in timestamp order, frames sent
/// faster than they are processed dropped and counted, errors per frame, limits.
@Suite struct LiveSocketTests {
    /// One binary frame message: the 8-byte little-endian timestamp, then the image.
    static func frame(_ timestamp: Int64, _ image: Data) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(timestamp, endianness: .little)
        buffer.writeBytes(image)
        return buffer
    }

    /// The JSON object of a text reply.
    static func object(_ message: WebSocketMessage?) throws -> [String: Any] {
        guard case .text(let text) = message else { throw ReplyError.notText(String(describing: message)) }
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    enum ReplyError: Error { case notText(String) }

    /// A test client that takes replies as large as a face mesh's JSON.
    static let client = WebSocketClientConfiguration(maxFrameSize: 1 << 22)

    @Test func aFloodIsAnsweredInOrderWithEveryFrameAnsweredOrCountedDropped() async throws {
        let sent = 30
        let photo = try ServerSupport.photo("astronaut.png")
        let app = try ServerSupport.server().makeApplication()
        try await app.test(.live) { client in
            try await client.ws("/api/v1/face-landmarker/live", configuration: Self.client) { inbound, outbound, _ in
                for t in 1...sent { try await outbound.write(.binary(Self.frame(Int64(t * 33), photo))) }
                var replies: [[String: Any]] = []
                for try await message in inbound.messages(maxSize: 10_000_000) {
                    let reply = try Self.object(message)
                    replies.append(reply)
                    if reply["timestampInMilliseconds"] as? Int == sent * 33 { break }
                }
                try await outbound.close(.normalClosure, reason: nil)
                let timestamps = replies.compactMap { $0["timestampInMilliseconds"] as? Int }
                #expect(timestamps == timestamps.sorted() && Set(timestamps).count == timestamps.count)
                #expect(replies.allSatisfy { $0["error"] == nil })
                let dropped = try #require(replies.last?["dropped"] as? Int)
                #expect(dropped > 0, "30 frames sent at once: the flow limiter must drop some")
                #expect(replies.count + dropped == sent, "every frame is answered or counted as dropped")
                let faces = try #require((replies.last?["result"] as? [String: Any])?["faceLandmarks"] as? [[Any]])
                #expect(faces.first?.count == 478)
                #expect(replies.allSatisfy { ($0["inferenceMs"] as? Double ?? -1) >= 0 })
            }
        }
    }

    @Test func unknownTasksAndBadOptionsDoNotUpgrade() async throws {
        let app = try ServerSupport.server().makeApplication()
        try await app.test(.live) { client in
            for path in ["/api/v1/face-recognizer/live", "/api/v1/face-landmarker/live?num-faces=x"] {
                await #expect(throws: (any Error).self, "\(path)") {
                    try await client.ws(path) { _, _, _ in }
                }
            }
            try await client.execute(uri: "/api/v1/face-recognizer/live", method: .get) { response in
                #expect(response.status == .notFound)
            }
            // An option the task itself rejects is known only once the task is made: an error reply, then the close.
            let close = try await client.ws("/api/v1/face-landmarker/live?num-faces=0") { inbound, _, _ in
                var replies = inbound.messages(maxSize: 100_000).makeAsyncIterator()
                let reply = try Self.object(try await replies.next())
                #expect((reply["error"] as? String)?.contains("numFaces") == true, "\(reply)")
            }
            #expect(close?.closeCode == .unacceptableData)
        }
    }
}

import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The test client's own bounds: against a listener that never answers, a request and a WebSocket upgrade fail after
/// their `seconds`, so no server test waits for good on an answer that never comes.
@Suite(.serverThreads) struct LoopbackClientTests {
    @Test func aServerThatNeverAnswersFailsTheRequestInTime() async throws {
        try await Deadline.run("aServerThatNeverAnswersFailsTheRequestInTime", seconds: 60) {
            let listener = try SilentListener()
            defer { listener.close() }
            let client = LoopbackClient(port: listener.port)
            await #expect(throws: LoopbackFailure.self) {
                try await client.execute(uri: "/healthz", method: .get, seconds: 1) { _ in }
            }
            await #expect(throws: LoopbackFailure.self) {
                try await client.ws("/api/v1/face-detector/live", seconds: 1) { _ in }
            }
        }
    }
}

/// A loopback TCP listener that accepts nothing: the kernel completes connections into its backlog, and nobody reads.
private final class SilentListener: Sendable {
    let fd: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
            throw LoopbackFailure(description: "the silent listener: errno \(errno)")
        }
        fd = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(fd) }
}

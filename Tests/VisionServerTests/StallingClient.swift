import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client on a raw loopback socket that sends and never reads, as a client that stopped reading (or
/// whose machine vanished) leaves a server: its receive buffer is made tiny, so the server's replies soon fill it
/// and the server's writes wait.
final class StallingClient: @unchecked Sendable {
    /// What went wrong with the client's own socket.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32
    /// Where the client's blocking calls run, one client's after another: off the threads the server's and the
    /// test's tasks need, and apart from other clients' (tests run in parallel, and a 30-s wait of one would
    /// hold the others' sends).
    private let queue = DispatchQueue(label: "StallingClient")
    /// Where clients connect: each connection on a thread of its own.
    private static let connecting = DispatchQueue(label: "StallingClient.connect", attributes: .concurrent)

    /// Connects to `127.0.0.1:port` and upgrades `path` to a WebSocket.
    /// - Throws: `Failure` when the socket cannot connect or the server does not answer 101.
    static func connect(port: Int, path: String) async throws -> StallingClient {
        try await withCheckedThrowingContinuation { continuation in
            connecting.async { continuation.resume(with: Result { try StallingClient(port: port, path: path) }) }
        }
    }

    /// Connects to `127.0.0.1:port` and sends nothing, not even a request.
    static func connectSilently(port: Int) async throws -> StallingClient {
        try await withCheckedThrowingContinuation { continuation in
            connecting.async { continuation.resume(with: Result { try StallingClient(port: port, path: nil) }) }
        }
    }

    /// Connects to `127.0.0.1:port` and sends the head of a `method` (POST) request to `path` whose body is
    /// `contentLength` bytes of `contentType`, and none of the body: `sendBody` sends it, as slowly as the test likes.
    static func startPost(
        port: Int, path: String, contentType: String, contentLength: Int?, method: String = "POST"
    ) async throws -> StallingClient {
        let client = try await connectSilently(port: port)
        let length = contentLength.map { "Content-Length: \($0)" } ?? "Transfer-Encoding: chunked"
        let head =
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: \(contentType)\r\n"
            + "\(length)\r\n\r\n"
        guard await client.sendBody(Array(head.utf8)) else { throw Failure(description: "the head could not be sent") }
        return client
    }

    /// The status line of the server's answer ("HTTP/1.1 413 Content Too Large"), or "" when none came whole within
    /// `seconds`.
    func statusLine(within seconds: Int) async -> String {
        await withCheckedContinuation { continuation in
            queue.async {
                let deadline = DispatchTime.now() + .seconds(seconds)
                var line: [UInt8] = [], byte: UInt8 = 0
                while DispatchTime.now() < deadline, line.last != 10 {
                    let n = recv(self.fd, &byte, 1, 0) // each wait at most 2 s (SO_RCVTIMEO)
                    if n == 1 { line.append(byte) } else if n == 0 || (errno != EAGAIN && errno != EINTR) { break }
                }
                continuation.resume(
                    returning: line.last == 10
                        ? String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "")
            }
        }
    }

    /// The server's whole answer, head and body (as long as its Content-Length says), or what came of it within
    /// `seconds` before the connection closed.
    func answer(within seconds: Int) async -> String {
        await withCheckedContinuation { continuation in
            queue.async {
                let deadline = DispatchTime.now() + .seconds(seconds)
                var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
                func whole() -> Bool {
                    let text = String(decoding: bytes, as: UTF8.self)
                    guard let end = text.range(of: "\r\n\r\n") else { return false }
                    let length = text[..<end.lowerBound].split(separator: "\r\n")
                        .first { $0.lowercased().hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                    return text[end.upperBound...].utf8.count >= (length ?? 0)
                }
                while DispatchTime.now() < deadline, !whole() {
                    let n = recv(self.fd, &chunk, chunk.count, 0) // each wait at most 2 s (SO_RCVTIMEO)
                    if n > 0 { bytes += chunk[..<n] } else if n == 0 || (errno != EAGAIN && errno != EINTR) { break }
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    /// Everything the server sends until it closes the connection or `seconds` pass, read 4 KB at a time with `pause`
    /// seconds between reads: a slow client.
    func readSlowly(pause: Double, within seconds: Int) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            queue.async {
                let deadline = DispatchTime.now() + .seconds(seconds)
                var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
                while DispatchTime.now() < deadline {
                    let n = recv(self.fd, &chunk, chunk.count, 0) // each wait at most 2 s (SO_RCVTIMEO)
                    if n > 0 { bytes += chunk[..<n] } else if n == 0 || (errno != EAGAIN && errno != EINTR) { break }
                    usleep(UInt32(pause * 1e6))
                }
                continuation.resume(returning: bytes)
            }
        }
    }

    /// Sends `bytes` as they are; false when the send failed or waited 2 s (the server closed, or stopped reading).
    func sendBody(_ bytes: [UInt8]) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.send(bytes)) }
        }
    }

    /// Sends `bytes` as one chunk of a chunked body (`startPost` without a length); false as `sendBody`.
    func sendChunk(_ bytes: [UInt8]) async -> Bool {
        await sendBody(Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10])
    }

    /// Whether the server closes the connection within `seconds` (the client reading, without sending).
    func closedByTheServer(within seconds: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async {
                let deadline = DispatchTime.now() + .seconds(seconds)
                var byte: UInt8 = 0
                while DispatchTime.now() < deadline {
                    let n = recv(self.fd, &byte, 1, 0) // each wait at most 2 s (SO_RCVTIMEO)
                    if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
                        return continuation.resume(returning: true)
                    }
                }
                continuation.resume(returning: false)
            }
        }
    }

    private init(port: Int, path: String?) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var receiveBuffer: Int32 = 1024
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
        // No call of the client waits long: a send the server does not take in 2 s, or a handshake answer
        // that does not come, fails instead.
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect: errno \(errno)")
        }
        guard let path else { return }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard send(Array(request.utf8)) else {
            close(fd)
            throw Failure(description: "the handshake could not be sent")
        }
        // The head only: the server never speaks first after its 101, so nothing follows it yet. A loaded server
        // (a full test run) may take tens of seconds to answer: the head's wait is 60 s, later reads' 2 s again.
        setReceiveTimeout(seconds: 60)
        defer { setReceiveTimeout(seconds: 2) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)), head.count < 4096, recv(fd, &byte, 1, 0) == 1 {
            head.append(byte)
        }
        let status = String(decoding: head, as: UTF8.self)
        guard status.hasPrefix("HTTP/1.1 101") else {
            close(fd)
            throw Failure(description: "the upgrade was refused: \(status)")
        }
    }

    private func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends one message (`binary` or text), masked with a zero key, so its payload goes unchanged.
    /// - Returns: False when the send failed or waited 2 s (the server stopped reading, or closed the connection).
    func send(_ payload: [UInt8], binary: Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.sendNow(payload, binary: binary)) }
        }
    }

    /// Sends one frame of `opcode` (2: binary, 0: a continuation), the last of its message when `fin`, masked with a
    /// zero key unless `masked` is false (which a client's frame may not be); false as `send`.
    func sendFrame(_ payload: [UInt8], opcode: UInt8, fin: Bool, masked: Bool = true) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.sendNow(payload, opcode: opcode, fin: fin, masked: masked))
            }
        }
    }

    /// The code of the close frame the server sends within `seconds` (its replies before it are passed over); nil
    /// when none comes.
    func closeCode(within seconds: Int) async -> Int? {
        await withCheckedContinuation { continuation in
            queue.async {
                let deadline = DispatchTime.now() + .seconds(seconds)
                var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
                while DispatchTime.now() < deadline {
                    // Whole frames first: 2 head bytes, the length's, the payload (the server's are not masked).
                    while bytes.count >= 2 {
                        let short = Int(bytes[1] & 0x7F)
                        let extra = short == 126 ? 2 : short == 127 ? 8 : 0
                        guard bytes.count >= 2 + extra else { break }
                        let length = extra == 0 ? short : bytes[2..<2 + extra].reduce(0) { $0 << 8 | Int($1) }
                        guard bytes.count >= 2 + extra + length else { break }
                        if bytes[0] & 0x0F == 8 {
                            let payload = bytes[(2 + extra)...]
                            return continuation.resume(
                                returning: length >= 2
                                    ? Int(payload.first!) << 8 | Int(payload.dropFirst().first!) : nil)
                        }
                        bytes.removeFirst(2 + extra + length)
                    }
                    let n = recv(self.fd, &chunk, chunk.count, 0) // each wait at most 2 s (SO_RCVTIMEO)
                    if n > 0 { bytes += chunk[..<n] } else if n == 0 || (errno != EAGAIN && errno != EINTR) { break }
                }
                continuation.resume(returning: nil)
            }
        }
    }

    private func sendNow(_ payload: [UInt8], binary: Bool) -> Bool {
        sendNow(payload, opcode: binary ? 2 : 1, fin: true)
    }

    private func sendNow(_ payload: [UInt8], opcode: UInt8, fin: Bool, masked: Bool = true) -> Bool {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: frame.append(mask | UInt8(payload.count))
        case ..<65536: frame += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [mask | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        return send(frame + (masked ? [0, 0, 0, 0] : []) + payload)
    }

    /// Writes all of `bytes`; false when a send fails or times out (never SIGPIPE: the server may have closed).
    private func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Ends the connection at once, as a client that went away does (the descriptor itself is closed at deinit).
    func hangUp() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    deinit {
        close(fd)
    }
}

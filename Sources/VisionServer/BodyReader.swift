import Foundation
import Hummingbird
import NIOCore

/// Reads request bodies within the server's limits, so that no client can grow the server's memory or hold a
/// slot by sending slowly:
/// - each body at most its own limit (413 beyond, told by `Content-Length` before a byte is read when it says so);
/// - image, video and training bodies, while read and until their request is done with them, at most
///   `heldBodyBytes` together, all clients (503 beyond);
/// - every body it reads at least `minBodyBytesPerSecond` over each `idleTimeout` window: a slower one loses its
///   connection (Hummingbird's idle timeout restarts on every byte, so a drip never meets it; a window, not the
///   average since the start, so that a fast start buys no slow tail).
///
/// A body refused before its end (413, 503), like any refused request with a body, closes its connection once the
/// answer is written (`JSONErrorMiddleware`): Hummingbird would read its rest otherwise, for as long as the client
/// sent it.
struct BodyReader: Sendable {
    /// The bytes the bodies being read or used hold now.
    private let held: BoundedCount
    private let minBytesPerSecond: Int
    private let window: Duration

    /// A reader with `configuration`'s limits.
    init(configuration: ServerConfiguration) {
        held = BoundedCount(limit: configuration.heldBodyBytes)
        minBytesPerSecond = configuration.minBodyBytesPerSecond
        window = configuration.idleTimeout
    }

    /// Runs `use` on `request`'s body, at most `limit` bytes (413 beyond, naming `flag`), counted among the held
    /// bytes until `use` returns.
    func withBody<T>(
        _ request: Request, connection: any Channel, limit: Int, flag: String, _ use: (Data) async throws -> T
    ) async throws -> T {
        try admit(request, limit: limit, flag: flag)
        return try await withBody(request.body, connection: connection, limit: limit, flag: flag, draining: false, use)
    }

    /// Refuses `request` before a byte of its body is read when its `Content-Length` passes `limit` (413, naming
    /// `flag`) or would take the held bytes past their budget now (503).
    func admit(_ request: Request, limit: Int, flag: String) throws {
        guard let length = Self.announcedLength(request.headers[.contentLength]) else { return }
        if length > limit { throw Self.tooLarge(limit, flag) }
        guard held.isFree(length) else { throw busy }
    }

    /// The body length a `Content-Length` value announces: its number, `Int.max` for a number past `Int.max` (the
    /// parser takes up to 2^64 - 1, and such a body must meet every limit, not pass as none); nil when there is none.
    static func announcedLength(_ value: String?) -> Int? {
        guard let value, !value.isEmpty else { return nil }
        if let length = Int(value) { return length }
        return value.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ? Int.max : nil
    }

    /// Runs `use` on `body`'s bytes, at most `limit` (413 beyond, naming `flag`), counted among the held bytes
    /// until `use` returns. When `draining` (a route whose answer waits for the body's end), a body refused midway
    /// (past its limit, or past the held budget: 503) is read on to its end, its bytes dropped and no longer
    /// counted; one going on past twice the limit closes `connection` (an endless chunked upload would hold it).
    func withBody<T>(
        _ body: RequestBody, connection: any Channel, limit: Int, flag: String, draining: Bool,
        _ use: (Data) async throws -> T
    ) async throws -> T {
        var taken = 0
        defer { held.close(taken) }
        let data = try await read(body, connection: connection, limit: limit, flag: flag, draining: draining) { part in
            guard let part else {
                held.close(taken)
                taken = 0
                return
            }
            guard held.open(part) else { throw busy }
            taken += part
        }
        return try await use(data)
    }

    /// The body's bytes up to `limit`; `take` is told each part's size before it is kept, and nil when what was kept
    /// is dropped. Past the limit (or when `take` throws), the error at once, or at the body's end when `draining`
    /// (the bytes from there dropped). A body slower than the least rate closes `connection` (the 408 thrown is for
    /// the log: the client is gone); a body whose connection fails under it (a reset) is a 400, the client's doing.
    private func read(
        _ body: RequestBody, connection: any Channel, limit: Int, flag: String, draining: Bool,
        take: (Int?) throws -> Void
    ) async throws -> Data {
        // Both bounded by `validate()`: at most 1 GB/s over a day.
        let least = Int((Double(minBytesPerSecond) * (window / .seconds(1))).rounded(.up))
        var windowStart = ContinuousClock.now, inWindow = 0
        var collected = ByteBuffer(), refusal: APIError?, received = 0
        do {
            for try await part in body {
                inWindow += part.readableBytes
                received += part.readableBytes
                if ContinuousClock.now - windowStart >= window {
                    guard inWindow >= least else {
                        connection.close(promise: nil)
                        throw APIError(
                            .requestTimeout,
                            "the body came slower than \(minBytesPerSecond) bytes per second; connection closed")
                    }
                    (windowStart, inWindow) = (.now, 0)
                }
                if refusal == nil {
                    do {
                        if collected.readableBytes + part.readableBytes > limit { throw Self.tooLarge(limit, flag) }
                        try take(part.readableBytes)
                        collected.writeImmutableBuffer(part)
                        continue
                    } catch let error as APIError {
                        guard draining else { throw error }
                        refusal = error
                        collected = ByteBuffer()
                        try take(nil)
                    }
                }
                if received > 2 * limit {
                    connection.close(promise: nil)
                    throw APIError(.contentTooLarge, "the body went on past twice its limit; connection closed")
                }
            }
        } catch let error as APIError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw APIError(.badRequest, "the body could not be read: \(error)")
        }
        if let refusal { throw refusal }
        return Data(collected.readableBytesView)
    }

    private var busy: APIError {
        APIError(
            .serviceUnavailable,
            "this body would take the request bodies being read past \(held.limit) bytes (--max-held-bodies); try again later"
        )
    }

    private static func tooLarge(_ limit: Int, _ flag: String) -> APIError {
        APIError(
            .contentTooLarge, "the body is larger than the limit of \(limit) bytes (\(flag))")
    }
}

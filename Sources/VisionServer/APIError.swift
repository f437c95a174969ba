import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import VisionTasks

/// An error answered to the client as `{"error": "…"}` with its HTTP status.
struct APIError: Error, HTTPResponseError {
    /// The HTTP status (400, 404, 413, 415, 503, …).
    let status: HTTPResponse.Status
    /// What went wrong, for the client.
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The same error with every mention of `path` (a temporary file the server made) read as `name`.
    func naming(_ path: String, as name: String) -> APIError {
        APIError(status, message.replacingOccurrences(of: path, with: name))
    }

    /// The JSON response.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        Self.jsonResponse(status: status, message: message)
    }

    /// `{"error": message}` with `status`.
    static func jsonResponse(status: HTTPResponse.Status, message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: jsonBody(message)))
    }

    /// `{"error": message}`.
    static func jsonBody(_ message: String) -> ByteBuffer {
        ByteBuffer(bytes: (try? ResultJSON.encode(["error": message])) ?? Data("{\"error\":\"error\"}".utf8))
    }

    /// How long a connection closed after an answer goes on taking (and dropping) what the client still sends: a
    /// close with the client's bytes unread would reset the connection, and the client could lose the answer.
    static let linger: TimeAmount = .seconds(2)

    /// The answer to this error, after which `connection` closes: its output at once, the whole `linger` later.
    /// Without `withBody` (the answer to a HEAD, a 204) it has no body.
    func responseClosing(_ connection: any Channel, withBody: Bool = true) -> Response {
        let body = withBody ? Self.jsonBody(message) : ByteBuffer()
        return Response(
            status: status,
            headers: withBody ? [.contentType: "application/json", .connection: "close"] : [.connection: "close"],
            body: ResponseBody(contentLength: body.readableBytes) { writer in
                if body.readableBytes > 0 { try await writer.write(body) }
                try await writer.finish(nil)
                Self.close(afterAnswer: connection)
            })
    }

    /// Closes `connection` once its answer is written: what the client sends from now on is dropped
    /// (`InputEndsWithOutput`), the output is shut at once, and the whole connection `linger` later.
    static func close(afterAnswer connection: any Channel) {
        connection.triggerUserOutboundEvent(InputEndsWithOutput.closingAnswer, promise: nil)
        connection.close(mode: .output, promise: nil)
        connection.eventLoop.scheduleTask(in: linger) { connection.close(promise: nil) }
    }

    /// The JSON answer to `error`, thrown by the route of `request` (logged when it is the server's own failure).
    static func response(to error: any Error, of request: Request, logger: Logger) -> Response {
        let api = logged(error, of: request, logger: logger)
        return jsonResponse(status: api.status, message: api.message)
    }

    /// `from(error)`, logged when it is the server's own failure.
    static func logged(_ error: any Error, of request: Request, logger: Logger) -> APIError {
        let api = from(error)
        if api.status == .internalServerError {
            logger.error("\(request.method) \(request.uri.path): \(api.message)")
        }
        return api
    }

    /// The status and message a library error gets when a request caused it: what a client sent
    /// (image, option, timestamp, video, a request cut short) is a 400; anything else is the server's own failure.
    static func from(_ error: any Error) -> APIError {
        if let error = error as? APIError { return error }
        if let error = error as? HTTPParserError {
            return APIError(.badRequest, "the request could not be read: \(error)")
        }
        if error is CancellationError {
            return APIError(.badRequest, "the request was cancelled: its client went away")
        }
        if let error = error as? VisionTasksError {
            switch error {
            case .invalidImage, .invalidOption, .invalidArgument, .invalidTimestamp, .invalidVideo:
                return APIError(.badRequest, error.description)
            default:
                return APIError(.internalServerError, error.description)
            }
        }
        if let error = error as? HTTPError {
            if error.status == .notFound, error.body == nil { return APIError(.notFound, "nothing at this path") }
            return APIError(error.status, error.body ?? error.status.reasonPhrase)
        }
        if let error = error as? any HTTPResponseError {
            return APIError(error.status, error.status.reasonPhrase)
        }
        return APIError(.internalServerError, String(describing: error))
    }
}

/// Turns every error a route throws (including the router's own 404 and the body limit's 413)
/// into the JSON error body; any error of a request with a body (a body refused before its end included) closes the
/// connection once it is written (`responseClosing`), and so does a GET or HEAD with a body (400), which no route reads.
struct JSONErrorMiddleware: RouterMiddleware {
    /// Whether `request` announces a body (a length above 0, or chunks).
    static func hasBody(_ request: Request) -> Bool {
        (BodyReader.announcedLength(request.headers[.contentLength]) ?? 0) > 0
            || request.headers[.transferEncoding] != nil
    }

    func handle(
        _ request: Request, context: ConnectionContext,
        next: (Request, ConnectionContext) async throws -> Response
    ) async throws -> Response {
        let hasBody = Self.hasBody(request)
        // No GET route reads a body: one sent would be read on after the answer, for as long as the client sent it.
        if hasBody, request.method == .get || request.method == .head {
            return APIError(.badRequest, "a \(request.method) request takes no body").responseClosing(
                context.connection, withBody: request.method == .get)
        }
        do {
            let response = try await next(request, context)
            // An answer to HEAD has no body (a route's own 405, say).
            return request.method == .head && response.body.contentLength != 0
                ? response.createHeadResponse() : response
        } catch {
            let refusal = APIError.logged(error, of: request, logger: context.logger)
            // A body refused before its end, or any body of a refused request (its rest unread): Hummingbird would
            // read on for as long as the client sent it.
            guard hasBody else {
                let response = APIError.jsonResponse(status: refusal.status, message: refusal.message)
                return request.method == .head ? response.createHeadResponse() : response
            }
            return refusal.responseClosing(context.connection, withBody: request.method != .head)
        }
    }
}

import Foundation
import Hummingbird
import Logging
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
        let body = (try? ResultJSON.encode(["error": message])) ?? Data("{\"error\":\"error\"}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The JSON answer to `error`, thrown by the route of `request` (logged when it is the server's own failure).
    static func response(to error: any Error, of request: Request, logger: Logger) -> Response {
        let api = from(error)
        if api.status == .internalServerError {
            logger.error("\(request.method) \(request.uri.path): \(api.message)")
        }
        return jsonResponse(status: api.status, message: api.message)
    }

    /// The status and message a library error gets when a request caused it: what a client sent
    /// (image, option, timestamp, video, a request cut short) is a 400; anything else is the server's own failure.
    static func from(_ error: any Error) -> APIError {
        if let error = error as? APIError { return error }
        if let error = error as? HTTPParserError {
            return APIError(.badRequest, "the request could not be read: \(error)")
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
/// into the JSON error body.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            return APIError.response(to: error, of: request, logger: context.logger)
        }
    }
}

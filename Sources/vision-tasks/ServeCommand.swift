import ArgumentParser
import Foundation
import VisionServer

/// `vision-tasks serve`: the browser app (camera and library views of the five tasks) and the
/// HTTP/WebSocket API, on loopback unless `--host` says otherwise.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the browser app and the HTTP/WebSocket API (POST /api/v1/{task}, /video, /live).",
        discussion: "Listens on 127.0.0.1 unless --host names another address; prints the URL to open.")

    @Option(help: "The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface).")
    var host: String = "127.0.0.1"

    @Option(help: "The TCP port.")
    var port: Int = 8080

    @Option(help: ArgumentHelp("The folder of models offered, by task (.task and .tflite files).", valueName: "dir"))
    var models: String = "models"

    @Option(help: "Task instances per task for HTTP requests (default: the core count).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("The largest request body: bytes, or with KB/MB (20MB).", valueName: "size"))
    var maxBody: String = "20MB"

    func run() async throws {
        try await reportingErrorsAsync {
            var configuration = ServerConfiguration()
            configuration.host = host
            configuration.port = port
            configuration.modelsDirectory = models
            configuration.workers = workers
            configuration.maxBodyBytes = try Self.bytes(maxBody)
            let server = try VisionServer(configuration: configuration)
            let offered = server.catalog.models.filter { !$0.value.isEmpty }.map(\.key.rawValue).sorted()
            print("vision-tasks serve: models for \(offered.joined(separator: ", ")) from \(models)")
            print("open http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)/ in a browser (Ctrl-C stops)")
            try await server.run()
        }
    }

    /// "20MB" → 20_000_000, "512KB" → 512_000, "1000" → 1000.
    static func bytes(_ text: String) throws -> Int {
        let upper = text.trimmingCharacters(in: .whitespaces).uppercased()
        let (digits, scale) = upper.hasSuffix("MB") ? (upper.dropLast(2), 1_000_000)
            : upper.hasSuffix("KB") ? (upper.dropLast(2), 1_000) : (Substring(upper), 1)
        guard let value = Int(digits), value > 0, value <= Int.max / scale else {
            throw ValidationError("--max-body \(text): give bytes (20000000) or a size with KB or MB (20MB)")
        }
        return value * scale
    }
}

/// `reportingErrors` for async commands: a failure to start prints one `error: ...` line and exits 1.
func reportingErrorsAsync(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch let error as ValidationError {
        throw error
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode.failure
    }
}

import ArgumentParser
import Foundation
import VisionServer

/// `vision-tasks serve`: the browser app (camera and library views of every task) and the
/// HTTP/WebSocket API, on loopback unless `--host` says otherwise.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Serve the browser app and the HTTP/WebSocket API (POST /api/v1/{task}, /video, /live, gesture-models).",
        discussion: "Listens on 127.0.0.1 unless --host names another address; once listening, prints the URL to open.")

    @Option(help: "The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface).")
    var host: String = "127.0.0.1"

    // Unconditional: `--port -1` is the port's mistake, not a missing value.
    @Option(parsing: .unconditional, help: "The TCP port (0: any free one, shown in the URL printed once listening).")
    var port: Int = 8080

    @Option(help: ArgumentHelp("The folder of models offered, by task (.task and .tflite files).", valueName: "dir"))
    var models: String = "models"

    @Option(help: "Task instances per task for HTTP requests (default: the core count).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("The largest request body: bytes, or with KB/MB.", valueName: "size"))
    var maxBody: String = Self.sizeText(ServerConfiguration().maxBodyBytes)

    @Option(
        help: ArgumentHelp(
            "The most bytes the image, video and training bodies being read or waiting may hold, all clients: bytes, or with KB/MB (default: \(Self.sizeText(ServerConfiguration().heldBodyBytes)), or --max-body or --max-training-body when larger).",
            valueName: "size"))
    var maxHeldBodies: String?

    @Option(
        help: ArgumentHelp(
            "The largest training upload (POST /api/v1/gesture-models, a zip): bytes, or with KB/MB.",
            valueName: "size"))
    var maxTrainingBody: String = Self.sizeText(ServerConfiguration().maxTrainingBodyBytes)

    @Option(
        help: ArgumentHelp(
            "The most bytes a training upload's photos may unpack to, in all: bytes, or with KB/MB.",
            valueName: "size"))
    var maxTrainingUnpacked: String = Self.sizeText(ServerConfiguration().maxTrainingUnpackedBytes)

    @OptionGroup var imageLimit: ImageLimitOptions

    @Option(
        help: ArgumentHelp(
            "The most pixels the decoded frames of all live sockets may hold together; a frame that does not fit is dropped (default: twice --max-image-pixels).",
            valueName: "pixels"))
    var maxLivePixels: Int?

    @Option(help: "The most frames of a posted video processed; a longer one's lines end with an error line.")
    var maxVideoFrames: Int = ServerConfiguration().maxVideoFrames

    @Option(help: "The most photos in one training upload.")
    var maxTrainingPhotos: Int = ServerConfiguration().maxTrainingPhotos

    @Option(help: ArgumentHelp("The longest a training may run; a longer one is stopped.", valueName: "seconds"))
    var maxTrainingTime: Int = ServerConfiguration().maxTrainingSeconds

    @Option(
        help: ArgumentHelp(
            "The most bytes the models folder may take with a new trained model in it: bytes, or with KB/MB.",
            valueName: "size"))
    var maxModelsFolder: String = Self.sizeText(ServerConfiguration().maxModelsFolderBytes)

    @Option(help: "Threads a training searches its photos for hands with (one training runs at a time).")
    var trainingThreads: Int = ServerConfiguration().trainingThreads

    func run() async throws {
        try await reportingErrorsAsync {
            var configuration = ServerConfiguration()
            // "[::1]", as a URL writes it, is the address ::1.
            configuration.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            configuration.port = port
            configuration.modelsDirectory = models
            configuration.workers = workers
            configuration.maxBodyBytes = try Self.bytes(maxBody, flag: "--max-body")
            configuration.maxHeldBodyBytes = try maxHeldBodies.map { try Self.bytes($0, flag: "--max-held-bodies") }
            configuration.maxTrainingBodyBytes = try Self.bytes(maxTrainingBody, flag: "--max-training-body")
            configuration.maxTrainingUnpackedBytes = try Self.bytes(
                maxTrainingUnpacked, flag: "--max-training-unpacked")
            configuration.maxTrainingPhotos = maxTrainingPhotos
            configuration.maxVideoFrames = maxVideoFrames
            configuration.maxImagePixels = imageLimit.maxImagePixels
            configuration.maxLivePixels = maxLivePixels
            configuration.trainingThreads = trainingThreads
            configuration.maxTrainingSeconds = maxTrainingTime
            configuration.maxModelsFolderBytes = try Self.bytes(maxModelsFolder, flag: "--max-models-folder")
            let server = try VisionServer(configuration: configuration)
            let offered = server.catalog.models.filter { !$0.value.isEmpty }.map(\.key.rawValue).sorted()
            print("vision-tasks serve: models for \(offered.joined(separator: ", ")) from \(models)")
            fflush(nil) // before the server's log lines and errors on stderr, which is unbuffered
            // Said once the server listens, with the port it got (the system's choice for --port 0); standard output
            // into a file or a pipe is block-buffered, so it is flushed, or the URL would wait for the server's end.
            // An address of every interface is opened at this machine's loopback.
            let shownHost = ["0.0.0.0": "127.0.0.1", "::": "[::1]"][configuration.host] ?? configuration.urlHost
            try await server.run { port in
                print("open http://\(shownHost):\(port)/ in a browser (Ctrl-C stops)")
                fflush(nil)
            }
        }
    }

    /// "20MB" → 20_000_000, "512KB" → 512_000, "1000" → 1000; a malformed size is a usage error naming `flag`.
    static func bytes(_ text: String, flag: String) throws -> Int {
        let upper = text.trimmingCharacters(in: .whitespaces).uppercased()
        let (digits, scale) =
            upper.hasSuffix("MB")
            ? (upper.dropLast(2), 1_000_000)
            : upper.hasSuffix("KB") ? (upper.dropLast(2), 1_000) : (Substring(upper), 1)
        guard let value = Int(digits), value > 0, value <= Int.max / scale else {
            throw ValidationError("\(flag) \(text): give bytes (20000000) or a size with KB or MB (20MB)")
        }
        return value * scale
    }

    /// A byte count as `bytes` reads it back, in MB or KB when whole: 20_000_000 → "20MB".
    static func sizeText(_ bytes: Int) -> String {
        bytes % 1_000_000 == 0 ? "\(bytes / 1_000_000)MB" : bytes % 1_000 == 0 ? "\(bytes / 1_000)KB" : String(bytes)
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
        Console.error(errorLine(error))
        throw ExitCode.failure
    }
}

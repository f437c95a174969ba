import Foundation
import Hummingbird
import Logging
import NIOCore
import TFLite
import Training
import VisionTasks

/// `POST /api/v1/gesture-models?name=NAME` trains the Gesture Recognizer's custom classifier on an uploaded zip
/// of label folders (`GestureUpload`), from the models folder's default gesture recognizer bundle, and offers
/// the result as `NAME.task`; `GET /api/v1/gesture-models` describes the training (its options and limits,
/// and whether one is running).
///
/// One training runs at a time (another is answered 503), on the trainer's own thread and
/// `trainingThreads` threads, so detection requests keep their workers; a client that goes away cancels its
/// training. The new file never replaces one: it is written beside its name as a hidden file, must load as a
/// gesture recognizer, and is then linked to its name, which fails if anything took the name meanwhile (409).
struct GestureModelTraining: Sendable {
    /// The longest model name, without its `.task`.
    static let maxNameLength = 64

    private let configuration: ServerConfiguration
    private let store: CatalogStore
    private let running = BoundedCount(limit: 1)

    /// Trains with `configuration`'s limits into its models folder, adding each model to `store`.
    init(configuration: ServerConfiguration, store: CatalogStore) {
        self.configuration = configuration
        self.store = store
    }

    /// `GET /api/v1/gesture-models`: `{"options": […], "limits": {…}, "baseModel": …, "training": …}`; the
    /// options as `GET /api/v1/tasks` describes a task's.
    func description() -> ByteBuffer {
        let options = GestureTrainingOptions.declaredOptions.map { JSONEnvelope.encode(TaskCatalogJSON.fields($0)) }
        let limits = JSONEnvelope.encode([
            "maxBodyBytes": .int(configuration.maxTrainingBodyBytes),
            "maxUnpackedBytes": .int(configuration.maxTrainingUnpackedBytes),
            "maxPhotos": .int(configuration.maxTrainingPhotos), "maxLabels": .int(GestureSamples.maxLabels),
            "maxNameLength": .int(Self.maxNameLength), "maxSeconds": .int(configuration.maxTrainingSeconds),
            "maxModelsFolderBytes": .int(configuration.maxModelsFolderBytes), "maxEntries": .int(ZipArchive.maxEntries),
        ])
        let base = (try? baseModel()).map { JSONEnvelope.Value.string($0) } ?? .null
        return ByteBuffer(
            bytes: JSONEnvelope.encode([
                "options": .json(JSONEnvelope.array(options)), "limits": .json(limits), "baseModel": base,
                "training": .bool(running.isFull),
            ]))
    }

    /// `POST /api/v1/gesture-models`: checks the request, reads the body with `bodies` (counted among the held bodies,
    /// read to its end even when refused), then takes the training slot, trains and answers 201 with the report. The
    /// slot is taken only once the upload is whole, so a slow upload holds none; a request while a training runs is
    /// refused before its body is read. Once the body is being read, the client going away cancels the training (the
    /// trainer stops at its next photo or step) and frees the slot.
    func train(
        _ request: Request, bodies: BodyReader, connection: any Channel, logger: Logger
    ) async throws -> Response {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
            .lowercased()
        guard type == "application/zip" || type == "application/x-zip-compressed" else {
            throw APIError(
                .unsupportedMediaType,
                "send the photos as a zip of label folders with Content-Type: application/zip"
                    + " (got \(type.map { "\"\($0)\"" } ?? "none"))")
        }
        let (fileName, options) = try settings(VisionServer.queryPairs(request.uri))
        let base = try store.catalog.path(of: baseModel())
        if running.isFull { throw Self.busy }
        let (limit, flag) = (configuration.maxTrainingBodyBytes, "--max-training-body")
        try bodies.admit(request, limit: limit, flag: flag)
        // Hummingbird's watch on the connection waits for the body to be read to its end (hence `draining`) and reads
        // on past it, so the connection closes after the answer: every answer says so, errors included, or a client
        // could send its next request on a connection being closed.
        return try await request.body.consumeWithCancellationOnInboundClose { body in
            var response: Response
            do {
                // The zip is held (and counted) until its photos are out; the slot from then to the training's end.
                let samples = try await bodies.withBody(
                    body, connection: connection, limit: limit, flag: flag, draining: true
                ) { zip in
                    guard running.open() else { throw Self.busy }
                    do { return try await self.samples(zip) } catch {
                        running.close()
                        throw error
                    }
                }
                defer { running.close() }
                response = try await train(samples, as: fileName, options: options, base: base, logger: logger)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                response = APIError.response(to: error, of: request, logger: logger)
            }
            response.headers[.connection] = "close"
            return response
        }
    }

    /// The answer to a training request while another trains.
    private static let busy = APIError(
        .serviceUnavailable, "a gesture model is being trained already; one trains at a time, try again when it ends")

    /// Trains on `samples` from the bundle at `base`, writes the model as `fileName` and answers 201.
    private func train(
        _ samples: GestureSamples, as fileName: String, options: [(TaskOption, String)], base: String, logger: Logger
    ) async throws -> Response {
        let (configuration, directory) = (self.configuration, store.catalog.directory)
        let trainer = try await WorkerPool.offloaded {
            try Self.trainer(
                base: base, options: options, numThreads: configuration.trainingThreads,
                decoding: ImageDecodingOptions(maxPixelCount: configuration.maxImagePixels))
        }.get()
        logger.info("training \(fileName) on \(samples.photos.count) photos of \(samples.labels.count) labels")
        let outcome: GestureTrainingOutcome
        let seconds = configuration.maxTrainingSeconds
        do {
            // The training against the clock: the first to end cancels the other.
            let finished = try await withThrowingTaskGroup(of: GestureTrainingOutcome?.self) { group in
                group.addTask {
                    try await trainer.train(samples) { progress in
                        logger.debug(
                            "training \(fileName): \(progress.stage.rawValue) \(progress.completed)/\(progress.total)")
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(seconds))
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let finished else {
                logger.info("training \(fileName) stopped after \(seconds) s")
                throw APIError(
                    .unprocessableContent,
                    "the training ran longer than the server's \(seconds) s (--max-training-time) and was stopped:"
                        + " try fewer photos, fewer epochs or narrower layer-widths")
            }
            outcome = finished
            try checkRoom(for: outcome.task.count, in: directory)
            // A client gone by now gets no model placed: the name would be taken by a model nobody asked for any more.
            try Task.checkCancellation()
        } catch is CancellationError {
            logger.info("training \(fileName) cancelled: its client went away")
            throw CancellationError()
        }
        let tasks = try await WorkerPool.offloaded { try Self.place(outcome, as: fileName, in: directory) }.get()
        try store.add(fileName, for: tasks)
        logger.info("trained \(fileName): offered to \(tasks.map(\.rawValue).joined(separator: ", "))")
        let location = "/api/v1/\(Self.gestureTask?.rawValue ?? "gesture-recognizer")?model=\(fileName)"
        return Response(
            status: .created, headers: [.contentType: "application/json", .location: location],
            body: .init(byteBuffer: ByteBuffer(bytes: try outcome.report.jsonData())))
    }

    /// Throws 507 when a model of `bytes` would take the models folder `directory` past `maxModelsFolderBytes`: the
    /// disk its files take (allocated blocks, so a sparse file counts what it holds), subfolders included.
    private func checkRoom(for bytes: Int, in directory: String) throws {
        let limit = configuration.maxModelsFolderBytes
        let held = Self.diskBytes(below: directory)
        guard bytes <= limit - min(held, limit) else {
            throw APIError(
                HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
                "the trained model's \(bytes) bytes would take the models folder past the server's \(limit)"
                    + " (--max-models-folder; it holds \(held)): remove models it no longer needs")
        }
    }

    /// The bytes of disk the files below `directory` take, at most `Int.max`.
    static func diskBytes(below directory: String) -> Int {
        var total = 0
        let paths = [directory] + (FileManager.default.subpaths(atPath: directory) ?? []).map { directory + "/" + $0 }
        for path in paths {
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let (bytes, tooMany) = Int(info.st_blocks).multipliedReportingOverflow(by: 512)
            let (sum, overflow) = total.addingReportingOverflow(bytes)
            total = tooMany || overflow ? Int.max : sum
        }
        return total
    }

    /// The photos of the uploaded `zip`, read off the event loop; the zip itself is let go once they are out.
    private func samples(_ zip: Data) async throws -> GestureSamples {
        let configuration = self.configuration
        return try await WorkerPool.offloaded {
            try GestureUpload.samples(
                zip, maxPhotos: configuration.maxTrainingPhotos,
                maxUnpackedBytes: configuration.maxTrainingUnpackedBytes)
        }.get()
    }

    /// The Gesture Recognizer's task kind (nil if the library had none).
    private static let gestureTask = TaskKind(rawValue: GestureRecognizer.taskDescription.name)

    /// The model trainings start from: the catalog's default gesture recognizer (404 when it has none).
    private func baseModel() throws -> String {
        guard let task = Self.gestureTask else {
            throw APIError(.notFound, "this server does not run the gesture recognizer")
        }
        return try store.catalog.model(named: nil, for: task)
    }

    /// The model's file name (`name` and `.task`) and the training options from the query, each with its text:
    /// `name` is required and plain (400) and free (409); every other parameter is a declared training option
    /// (400 when unknown or malformed; ranges are checked when the trainer is made).
    private func settings(_ parameters: [(String, String)]) throws -> (
        fileName: String, options: [(TaskOption, String)]
    ) {
        var fileName: String?
        var options: [(TaskOption, String)] = []
        for (name, value) in parameters {
            if name == "name" {
                fileName = try Self.fileName(value)
                continue
            }
            options.append(
                (
                    try TaskSettings.option(
                        name, value, in: GestureTrainingOptions.declaredOptions, besides: ["name"],
                        of: "gesture training"), value
                ))
        }
        guard let fileName else {
            throw APIError(.badRequest, "name the new model: ?name=NAME (it is offered as NAME.task)")
        }
        let catalog = store.catalog
        if catalog.models.values.contains(where: { $0.contains(fileName) })
            || FileManager.default.fileExists(atPath: catalog.path(of: fileName))
        {
            throw APIError(.conflict, "the models folder has a \(fileName) already; choose another name")
        }
        return (fileName, options)
    }

    /// `name` as a model file name: 1 to `maxNameLength` ASCII letters, digits, `-`, `_` and `.`, not starting with `.`,
    /// then `.task` (given or added). Anything else is a 400, so no name can reach outside the models folder.
    static func fileName(_ name: String) throws -> String {
        let stem = name.hasSuffix(".task") ? String(name.dropLast(5)) : name
        guard stem.allSatisfy(nameCharacters.contains), !stem.isEmpty, stem.count <= maxNameLength, !stem.hasPrefix(".")
        else {
            throw APIError(
                .badRequest,
                "the model name \"\(name)\" is not a plain file name: use 1 to \(maxNameLength) letters, digits, "
                    + "-, _ or ., not starting with . (it is offered as NAME.task)")
        }
        return stem + ".task"
    }

    private static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

    /// A trainer from `base` with the default options but `options` (each set from its text); an option out of
    /// range is a 400 naming it as the query did (`learning-rate`, not `learningRate`).
    private static func trainer(
        base: String, options: [(TaskOption, String)], numThreads: Int, decoding: ImageDecodingOptions
    ) throws -> GestureTrainer {
        let trainingOptions = GestureTrainingOptions()
        do {
            for (option, text) in options { try option.apply(text: text, to: trainingOptions) }
            return try GestureTrainer(
                baseModelPath: base, options: trainingOptions, numThreads: numThreads, decoding: decoding)
        } catch VisionTasksError.invalidOption(let name, let reason) {
            let option = GestureTrainingOptions.declaredOptions.first { $0.names(name) }
            throw APIError(.badRequest, "\(option?.name ?? name) \(reason)")
        }
    }

    /// Writes `outcome` into `directory` as a hidden file, checks that it loads as a gesture recognizer, links it
    /// to `fileName` (never replacing a file: 409 if the name was taken meanwhile) and returns the tasks that load it.
    static func place(_ outcome: GestureTrainingOutcome, as fileName: String, in directory: String) throws -> [TaskKind]
    {
        let hidden = ".training-\(UUID().uuidString).task"
        let (hiddenPath, path) = (directory + "/" + hidden, directory + "/" + fileName)
        try outcome.write(to: hiddenPath)
        defer { unlink(hiddenPath) }
        var tasks: [TaskKind] = []
        for task in TaskKind.allCases {
            switch ModelCatalog.load(hidden, in: directory, as: task) {
            case .success: tasks.append(task)
            case .failure(let error) where task == gestureTask:
                // Named as the client named it, not by the hidden file's path.
                let reason = APIError.from(error).message.replacingOccurrences(of: hidden, with: fileName)
                throw APIError(
                    .internalServerError,
                    "the trained model \(fileName) does not load as a gesture recognizer: \(reason)")
            case .failure: break
            }
        }
        guard link(hiddenPath, path) == 0 else {
            let code = errno
            if code == EEXIST {
                throw APIError(.conflict, "the models folder has a \(fileName) already; choose another name")
            }
            throw APIError(
                .internalServerError,
                "cannot write \(fileName) in the models folder: \(String(cString: strerror(code)))")
        }
        return tasks
    }
}

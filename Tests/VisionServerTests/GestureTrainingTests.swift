import Foundation
import Hummingbird
import NIOCore
import TFLite
import Testing
import Training
import VisionServer
import VisionTasks

/// `POST /api/v1/gesture-models`: a zip of label folders trained into a model the server then offers, the same
/// model bytes and report as the Training library's for the same photos and options; and every hostile or wrong
/// upload refused with its status and message, leaving every file where it was.
///
/// Each test works in a scratch folder of its own holding a models folder with a copy of the gesture recognizer
/// bundle (the trained model is written there, never into the project's models folder).
@Suite(.serverThreads) struct GestureTrainingTests {
    /// A scratch folder `root` with `root/models` holding the project's `gesture_recognizer.task`.
    struct Folder {
        let root: URL
        var models: URL { root.appendingPathComponent("models") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "gesture-training-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("models"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: ServerSupport.modelsDirectory + "/gesture_recognizer.task",
                toPath: root.appendingPathComponent("models/gesture_recognizer.task").path)
        }

        /// Every path below `root`, a file's with its size, sorted: what a request must leave as it was.
        func tree() throws -> [String] {
            let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
            return try enumerator.compactMap { $0 as? String }.map { path in
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: root.appendingPathComponent(path).path)
                guard attributes[.type] as? FileAttributeType == .typeRegular else { return path }
                return "\(path) \(attributes[.size] as? Int ?? -1)"
            }.sorted()
        }

        /// A server over this models folder (scanned), with the default limits changed by `change`.
        func server(_ change: (inout ServerConfiguration) -> Void = { _ in }) throws -> VisionServer {
            try ServerSupport.server { configuration in
                configuration.modelsDirectory = models.path
                change(&configuration)
            } catalog: {
                try ModelCatalog(directory: models.path)
            }
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    private static let zipType: HTTPFields = [.contentType: "application/zip"]

    /// A zip of `entries` (name, bytes), stored.
    private static func zip(_ entries: [(String, Data)]) -> ByteBuffer {
        ByteBuffer(data: ZipWriter.archive(entries.map { ZipWriter.Entry.stored($0.0, $0.1) }))
    }

    /// A zip whose training searches 16 photos for hands and then fails (no hand in the thumb label): long enough
    /// to be seen running, and its end does not depend on the model writer.
    private static func slowZip() throws -> ByteBuffer {
        let astronaut = try ServerSupport.photo("astronaut.png")
        return zip(
            [("none/a.jpg", try ServerSupport.photo("hand_thumb_up.jpg"))]
                + (0..<15).map { ("thumb/\($0).png", astronaut) })
    }

    /// The first `count` photos (by name) of each of `labels` in Tests/Fixtures/gestures (HandsDataset), as
    /// `label/file` entries.
    private static func gesturePhotos(_ labels: [String], count: Int) throws -> [(String, Data)] {
        try labels.flatMap { label in
            let folder = ServerSupport.gestures.appendingPathComponent(label)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }
                .sorted()
            #expect(names.count >= count, "\(label): \(names.count) photos")
            return try names.prefix(count).map {
                ("\(label)/\($0)", try Data(contentsOf: folder.appendingPathComponent($0)))
            }
        }
    }

    /// Photos of two labels for the requests that do not train: `none` three copies of two_thumbs_up.jpg, `thumb`
    /// three of hand_thumb_up.jpg.
    private static func photos() throws -> [(String, Data)] {
        let none = try ServerSupport.photo("two_thumbs_up.jpg"), thumb = try ServerSupport.photo("hand_thumb_up.jpg")
        return ["a", "b", "c"].map { ("none/\($0).jpg", none) } + ["a", "b", "c"].map { ("thumb/\($0).jpg", thumb) }
    }

    @Test func aZipOfLabelFoldersTrainsAModelTheServerOffersAndRuns() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let before = try folder.tree()
        // Six photos of each of three labels; a photo of `five` not among them is recognized afterwards. A file
        // beside the label folders and one in a folder inside a label are skipped and listed, as the CLI lists them.
        let photos = try Self.gesturePhotos(["none", "one", "five"], count: 6)
        let strays = [("README.md", Data("my gestures".utf8)), ("five/more/a.jpg", photos[0].1)]
        let heldOut = try #require(
            try FileManager.default.contentsOfDirectory(
                atPath: ServerSupport.gestures.appendingPathComponent("five").path
            )
            .filter { $0.hasSuffix(".jpg") }.sorted().last)
        let heldOutPhoto = try Data(contentsOf: ServerSupport.gestures.appendingPathComponent("five/" + heldOut))
        let app = try folder.server()
        let report = try await app.test { client in
            let report = try await client.execute(
                uri: "/api/v1/gesture-models?name=my-gestures&epochs=5&seed=3", method: .post,
                headers: Self.zipType, body: Self.zip(photos + strays)
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                #expect(response.headers[.location] == "/api/v1/gesture-recognizer?model=my-gestures.task")
                // The route watches the connection to the end, so it closes after the answer, and says so.
                #expect(response.headers[.connection] == "close")
                return try JSONDecoder().decode(GestureTrainingReport.self, from: Data(buffer: response.body))
            }
            try await client.execute(uri: "/api/v1/models", method: .get) { response in
                let models = try JSONDecoder().decode([String: [String]].self, from: Data(buffer: response.body))
                #expect(models["gesture-recognizer"] == ["gesture_recognizer.task", "my-gestures.task"])
            }
            let recognizer = try GestureRecognizer(
                options: GestureRecognizerOptions(
                    baseOptions: BaseOptions(modelAssetPath: folder.models.path + "/my-gestures.task", numThreads: 1)))
            let expected = try await recognizer.recognize(image: try MPImage(encodedData: heldOutPhoto, name: heldOut))
            let expectedJSON = String(decoding: try ResultJSON.encode(expected), as: UTF8.self)
            try await client.execute(
                uri: "/api/v1/gesture-recognizer?model=my-gestures.task", method: .post,
                body: ByteBuffer(data: heldOutPhoto)
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(String(buffer: response.body) == expectedJSON)
                // The trained label, from the custom classifier (the canned one has no "five").
                #expect(expected.gestures.first?.first?.categoryName == "five", "\(String(buffer: response.body))")
            }
            // The name is taken now.
            try await client.execute(
                uri: "/api/v1/gesture-models?name=my-gestures.task", method: .post,
                headers: Self.zipType, body: Self.zip(photos)
            ) { response in
                #expect(response.status == .conflict)
                #expect(ServerSupport.errorMessage(response).contains("has a my-gestures.task already"))
            }
            return report
        }
        // The same photos and options through the library: the same model bytes and report (but the times).
        let options = GestureTrainingOptions(epochs: 5, seed: 3)
        let samples = try GestureSamples(
            photos: photos.map {
                GestureSamples.Photo(label: String($0.0.prefix { $0 != "/" }), name: $0.0, data: $0.1)
            },
            ignored: strays.map(\.0), source: "the upload")
        let library = try await GestureTrainer(
            baseModelPath: folder.models.path + "/gesture_recognizer.task", options: options,
            numThreads: 1
        ).train(samples)
        #expect(try Data(contentsOf: folder.models.appendingPathComponent("my-gestures.task")) == library.task)
        var served = report
        served.steps = library.report.steps
        served.search?.seconds = library.report.search?.seconds ?? 0
        #expect(served == library.report)
        #expect(served.ignored == ["README.md", "five/more/a.jpg"])
        // The settings search ran (epochs and seed given, fixed), on the server as in the library.
        #expect(served.search?.fixed == ["epochs", "seed"] && served.search?.chosen != nil)
        #expect(served.search?.candidates.allSatisfy { $0.settings["epochs"] == "5" } == true)
        #expect(served.labels.map(\.exportedName) == ["None", "five", "one"])
        #expect(served.labels.map(\.photos) == [6, 6, 6])
        #expect(served.confusion.count == 3)
        // Only the model was added: no hidden file is left.
        #expect(try folder.tree() == (before + ["models/my-gestures.task \(library.task.count)"]).sorted())
    }

    /// A training that runs past `maxTrainingSeconds` is stopped (422), so no request holds the one training slot for
    /// hours; a model that would take the models folder past `maxModelsFolderBytes` is not placed (507), so trainings
    /// cannot fill the disk. Neither leaves a file.
    @Test func aTrainingPastItsTimeOrTheFolderBudgetIsRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let before = try folder.tree()
        let base = try #require(
            try FileManager.default.attributesOfItem(atPath: folder.models.path + "/gesture_recognizer.task")[.size]
                as? Int)
        let photos = try Self.gesturePhotos(["none", "one"], count: 4)
        let timed = try folder.server { $0.maxTrainingSeconds = 1 }
        try await timed.test { client in
            let started = ContinuousClock.now
            try await client.execute(
                uri: "/api/v1/gesture-models?name=long&layer-widths=4096,4096&epochs=300&search=off", method: .post,
                headers: Self.zipType, body: Self.zip(photos)
            ) { response in
                #expect(response.status == .unprocessableContent, "\(String(buffer: response.body))")
                #expect(
                    ServerSupport.errorMessage(response).contains("longer than the server's 1 s (--max-training-time)"))
            }
            #expect(ContinuousClock.now - started < .seconds(60), "stopped at its limit, not run to its end")
        }
        // The base model and 100 KB: a trained bundle is megabytes.
        let full = try folder.server { $0.maxModelsFolderBytes = base + 100_000 }
        try await full.test { client in
            try await client.execute(
                uri: "/api/v1/gesture-models?name=big&epochs=1&search=off", method: .post, headers: Self.zipType,
                body: Self.zip(photos)
            ) { response in
                #expect(response.status.code == 507, "\(String(buffer: response.body))")
                #expect(ServerSupport.errorMessage(response).contains("(--max-models-folder; it holds "))
            }
        }
        #expect(try folder.tree() == before)
    }

    /// Every upload a client gets wrong, one server: the status and message of each, and afterwards every file
    /// where it was, no file where an entry name pointed, and no model added.
    @Test func hostileAndWrongUploadsAreRefusedAndWriteNothing() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let before = try folder.tree()
        let hand = try ServerSupport.photo("hand_thumb_up.jpg")
        let good = Array(try Self.photos().prefix(4)) // none ×3, thumb ×1: within the 4 photos allowed
        let outside = "/tmp/gesture-training-escape-\(UUID().uuidString).jpg"
        let app = try folder.server {
            $0.maxTrainingBodyBytes = 1_000_000
            $0.maxTrainingUnpackedBytes = 4_000_000
            $0.maxTrainingPhotos = 4
        }
        let bomb = ZipWriter.archive([.stored("none/a.jpg", hand), try ZipWriter.zeros("thumb/b.jpg", mebibytes: 64)])
        // A bomb that declares 1000 bytes and inflates to 8 MiB: stopped at its declared size.
        let liar = ZipWriter.archive([
            .stored("none/a.jpg", hand), try ZipWriter.zeros("thumb/b.jpg", mebibytes: 8, declaredSize: 1000),
        ])
        // Wrong requests with good photos, then wrong bodies of a good request (name=m).
        let requests: [(query: String, headers: HTTPFields, status: HTTPResponse.Status, message: String)] = [
            ("name=m", [:], .unsupportedMediaType, "Content-Type: application/zip (got none)"),
            ("name=m", [.contentType: "image/jpeg"], .unsupportedMediaType, "(got \"image/jpeg\")"),
            ("", Self.zipType, .badRequest, "name the new model: ?name=NAME"),
            ("name=../evil", Self.zipType, .badRequest, "\"../evil\" is not a plain file name"),
            ("name=.hidden", Self.zipType, .badRequest, "not a plain file name"),
            ("name=a/b", Self.zipType, .badRequest, "not a plain file name"),
            ("name=%2Ftmp%2Fevil", Self.zipType, .badRequest, "\"/tmp/evil\" is not a plain file name"),
            ("name=caf%C3%A9", Self.zipType, .badRequest, "not a plain file name"),
            ("name=" + String(repeating: "x", count: 65), Self.zipType, .badRequest, "1 to 64 letters"),
            ("name=.task", Self.zipType, .badRequest, "not a plain file name"),
            ("name=gesture_recognizer", Self.zipType, .conflict, "has a gesture_recognizer.task already"),
            ("name=gesture_recognizer.task", Self.zipType, .conflict, "has a gesture_recognizer.task already"),
            (
                "name=m&colour=red", Self.zipType, .badRequest,
                "unknown option \"colour\" for gesture training (known: name, layer-widths"
            ),
            ("name=m&epochs=many", Self.zipType, .badRequest, "epochs must be a whole number, got \"many\""),
            ("name=m&epochs=0", Self.zipType, .badRequest, "epochs must be in [1, 1000], got 0"),
            ("name=m&learning-rate=2", Self.zipType, .badRequest, "learning-rate must be in"),
        ]
        let junk = Data("x".utf8)
        let bodies: [(body: ByteBuffer, status: HTTPResponse.Status, message: String)] = [
            (ByteBuffer(string: "not a zip at all"), .badRequest, "the upload: not a zip archive"),
            (
                ByteBuffer(repeating: 0, count: 1_000_001), .contentTooLarge,
                "larger than the limit of 1000000 bytes (--max-training-body)"
            ),
            (ByteBuffer(data: bomb), .contentTooLarge, "unpack to more than 4000000 bytes (--max-training-unpacked)"),
            (ByteBuffer(data: liar), .badRequest, "inflates to more than its declared 1000 bytes"),
            (Self.zip(good + [("../evil.jpg", hand)]), .badRequest, "entry \"../evil.jpg\" has a . or .. part"),
            (Self.zip(good + [("none/../../evil.jpg", hand)]), .badRequest, "has a . or .. part"),
            (Self.zip(good + [(outside, hand)]), .badRequest, "is an absolute path"),
            (Self.zip(good + [("C:/evil.jpg", hand)]), .badRequest, "is an absolute path (or names a drive)"),
            (Self.zip(good + [("none\\..\\evil.jpg", hand)]), .badRequest, "has a backslash"),
            (Self.zip(good + [("none//a.jpg", hand)]), .badRequest, "entry \"none//a.jpg\" has an empty part"),
            (Self.zip(good + [("no\u{1}ne/a.jpg", hand)]), .badRequest, "has a control character"),
            (
                Self.zip(Array(good.prefix(3)) + [("thumb/a.txt", Data("hello".utf8))]), .unsupportedMediaType,
                "entry \"thumb/a.txt\" is not a JPEG or PNG image (every file in a folder is a photo of the label the "
                    + "folder names, here \"thumb\")"
            ),
            (Self.zip(good + [("thumb/z.jpg", hand)]), .contentTooLarge, "more than 4 photos (--max-training-photos)"),
            (Self.zip([("none/a.jpg", hand), ("none/a.jpg", hand)]), .badRequest, "two entries named \"none/a.jpg\""),
            (Self.zip([("thumb/a.jpg", hand), ("fist/a.jpg", hand)]), .badRequest, "has no \"none\" label"),
            (Self.zip([("none/a.jpg", hand), ("NONE/b.jpg", hand)]), .badRequest, "more than one none label"),
            (Self.zip([("none/a.jpg", hand), ("none/b.jpg", hand)]), .badRequest, "has only the none label"),
            (Self.zip([]), .badRequest, "holds no photos"),
            // A zip of the data folder itself (a file manager's "compress"): its one top folder is read past (here
            // leaving only the none label, the README skipped); entries in two top folders are no photos of a label.
            (
                Self.zip([("my_gestures/none/a.jpg", hand), ("my_gestures/none/b.jpg", hand)]), .badRequest,
                "has only the none label"
            ),
            (
                Self.zip([("my_gestures/none/a.jpg", hand), ("theirs/thumb/a.jpg", hand)]), .badRequest,
                "holds no photos"
            ),
            (
                Self.zip([("my_gestures/none/a.jpg", hand), ("my_gestures/README.md", junk)]), .badRequest,
                "has only the none label"
            ),
            // A file or an empty folder beside the data folder is skipped too (every photo was lost: "no photos").
            (
                Self.zip([("my_gestures/none/a.jpg", hand), ("notes.txt", junk), ("other/", Data())]), .badRequest,
                "has only the none label"
            ),
            // A label that would show as another: "None " is not the background label.
            (Self.zip([("none/a.jpg", hand), ("None /a.jpg", hand)]), .badRequest, "begins or ends with white space"),
            // Hidden entries and macOS's __MACOSX folder are skipped, not photos.
            (
                Self.zip([("none/.DS_Store", junk), ("__MACOSX/none/._a.jpg", junk), (".hidden/a.jpg", junk)]),
                .badRequest, "holds no photos"
            ),
        ]
        let cases =
            requests.map { ($0.query, $0.headers, Self.zip(good), $0.status, $0.message) }
            + bodies.map { ("name=m", Self.zipType, $0.body, $0.status, $0.message) }
        #expect(requests.count == 16 && bodies.count == 24)
        try await app.test { client in
            for (query, headers, body, status, expected) in cases {
                try await client.execute(
                    uri: "/api/v1/gesture-models?" + query, method: .post, headers: headers, body: body
                ) { response in
                    #expect(response.status == status, "\(query): \(String(buffer: response.body))")
                    #expect(response.headers[.contentType] == "application/json")
                    #expect(
                        ServerSupport.errorMessage(response).contains(expected),
                        "\(query): \(String(buffer: response.body))")
                }
            }
            try await client.execute(uri: "/api/v1/models", method: .get) { response in
                let models = try JSONDecoder().decode([String: [String]].self, from: Data(buffer: response.body))
                #expect(models["gesture-recognizer"] == ["gesture_recognizer.task"])
            }
        }
        #expect(try folder.tree() == before)
        #expect(!FileManager.default.fileExists(atPath: outside))
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.root.deletingLastPathComponent().appendingPathComponent("evil.jpg").path))
    }

    /// A label none of whose photos shows a hand is the client's mistake (400), found once the hands are searched.
    @Test func aLabelWithoutAHandIsA400() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let before = try folder.tree()
        let app = try folder.server()
        let body = Self.zip([
            ("none/a.jpg", try ServerSupport.photo("hand_thumb_up.jpg")),
            ("thumb/a.png", try ServerSupport.photo("astronaut.png")),
        ])
        try await app.test { client in
            try await client.execute(
                uri: "/api/v1/gesture-models?name=m", method: .post, headers: Self.zipType, body: body
            ) { response in
                #expect(response.status == .badRequest, "\(String(buffer: response.body))")
                #expect(
                    ServerSupport.errorMessage(response).contains("label \"thumb\": none of its 1 photos shows a hand"))
            }
        }
        #expect(try folder.tree() == before)
    }

    /// A request pipelined behind a refused one with a body (whose answer closes the connection) is not run.
    @Test func aRequestPipelinedBehindARefusedOneIsNotRun() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let app = try folder.server()
        let zip = try Self.slowZip()
        try await app.test { client in
            let port = client.port
            // A refused request with a body (answered Connection: close), and a training pipelined behind it.
            let refused = "POST /api/v1/no-such-task HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
            let pipelined =
                "POST /api/v1/gesture-models?name=pipelined HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/zip\r\nContent-Length: \(zip.readableBytes)\r\n\r\n"
            let connection = try await StallingClient.connectSilently(port: port)
            _ = await connection.sendBody(Array((refused + pipelined).utf8) + Array(zip.readableBytesView))
            let status = await connection.statusLine(within: 20)
            #expect(status.hasPrefix("HTTP/1.1 404"), "\(status)")
            // The server processes nothing after its closing answer: the training never starts.
            let end = ContinuousClock.now + .seconds(3)
            var started = false
            while !started, ContinuousClock.now < end {
                started = try await ServerSupport.training(client)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(!started, "the training pipelined behind a closing answer was run")
            #expect(await connection.closedByTheServer(within: 10))
        }
    }

    /// While one training runs, another is answered 503, and `GET /api/v1/gesture-models` says one is running;
    /// once it ends, trainings are admitted again.
    @Test func aSecondTrainingWhileOneRunsIs503() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let app = try folder.server()
        let slow = try Self.slowZip()
        try await app.test { client in
            #expect(try await ServerSupport.training(client) == false)
            let first = Task(executorPreference: ServerThreads.shared) { // (not inherited: see Deadline.run)
                try await client.execute(
                    uri: "/api/v1/gesture-models?name=first", method: .post, headers: Self.zipType, body: slow
                ) {
                    ($0.status, ServerSupport.errorMessage($0))
                }
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while try await !ServerSupport.training(client) {
                try #require(
                    ContinuousClock.now < deadline,
                    "the first training was not seen running within 60 s (if it ended first: give it more photos)")
                try await Task.sleep(for: .milliseconds(20))
            }
            try await client.execute(
                uri: "/api/v1/gesture-models?name=second", method: .post, headers: Self.zipType,
                body: Self.zip(try Self.photos())
            ) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(ServerSupport.errorMessage(response).contains("being trained already"))
            }
            let (status, text) = try await first.value
            #expect(status == .badRequest)
            #expect(text.contains("label \"thumb\": none of its 15 photos shows a hand"))
            #expect(try await ServerSupport.training(client) == false)
        }
    }

    /// A client that goes away mid-training cancels it: the slot is free again within seconds and no model is
    /// written, where the training left alone would have ended with one (it would take far longer than the wait).
    @Test func aTrainingWhoseClientGoesAwayIsCancelled() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let before = try folder.tree()
        let app = try folder.server()
        // 150 photos of each of two labels, all with hands: the hand search alone takes seconds, and the training
        // would end with `gone.task` written.
        let thumbs = try ServerSupport.photo("two_thumbs_up.jpg"), thumb = try ServerSupport.photo("hand_thumb_up.jpg")
        let body = Self.zip((0..<150).flatMap { [("none/\($0).jpg", thumbs), ("thumb/\($0).jpg", thumb)] })
        try await app.test { client in
            // Its own connection, sent without waiting for the answer, then closed while the training runs.
            let gone = try await StallingClient.startPost(
                port: client.port, path: "/api/v1/gesture-models?name=gone", contentType: "application/zip",
                contentLength: body.readableBytes)
            #expect(await gone.sendBody(Array(body.readableBytesView)))
            var deadline = ContinuousClock.now + .seconds(60)
            while try await !ServerSupport.training(client) {
                try #require(ContinuousClock.now < deadline, "the training was not seen running within 60 s")
                try await Task.sleep(for: .milliseconds(20))
            }
            gone.hangUp()
            let closed = ContinuousClock.now
            deadline = closed + .seconds(20)
            while try await ServerSupport.training(client) {
                try #require(
                    ContinuousClock.now < deadline, "the training still ran 20 s after its client went away")
                try await Task.sleep(for: .milliseconds(20))
            }
            print("training slot free \(ContinuousClock.now - closed) after the client went away")
            try await client.execute(uri: "/api/v1/models", method: .get) { response in
                let models = try JSONDecoder().decode([String: [String]].self, from: Data(buffer: response.body))
                #expect(models["gesture-recognizer"] == ["gesture_recognizer.task"])
            }
        }
        #expect(try folder.tree() == before)
    }

    /// The training options and limits the page builds its form from.
    @Test func theTrainingIsDescribed() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let app = try folder.server { $0.maxTrainingPhotos = 321 }
        try await app.test { client in
            try await client.execute(uri: "/api/v1/gesture-models", method: .get) { response in
                #expect(response.status == .ok)
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let options = try #require(object["options"] as? [[String: Any]])
                #expect(
                    options.compactMap { $0["name"] as? String } == GestureTrainingOptions.declaredOptions.map(\.name))
                let epochs = try #require(options.first { $0["name"] as? String == "epochs" })
                #expect(epochs["default"] as? Int == GestureTrainingOptions().epochs)
                #expect(epochs["min"] as? Int == 1 && epochs["max"] as? Int == 1000)
                // The settings search's options, declared with the others.
                let search = try #require(options.first { $0["name"] as? String == "search" })
                #expect(search["default"] as? String == "auto" && search["type"] as? String == "string")
                let folds = try #require(options.first { $0["name"] as? String == "folds" })
                #expect(folds["default"] as? Int == 3 && folds["min"] as? Int == 2 && folds["max"] as? Int == 10)
                let limits = try #require(object["limits"] as? [String: Int])
                #expect(limits["maxPhotos"] == 321)
                #expect(limits["maxBodyBytes"] == ServerConfiguration().maxTrainingBodyBytes)
                #expect(object["baseModel"] as? String == "gesture_recognizer.task")
                #expect(object["training"] as? Bool == false)
            }
        }
    }
}

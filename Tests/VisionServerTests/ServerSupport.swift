import FixtureSupport
import Foundation
import Testing
import VisionServer
import VisionTasks

/// Paths, the model catalog and servers for the VisionServer tests. The models come from
/// `make models`; without them the tests fail (the catalog throws), they never skip.
enum ServerSupport {
    static let root = Fixture.repositoryRoot
    static let modelsDirectory = root.appendingPathComponent("models").path
    static let images = root.appendingPathComponent("Tests/Fixtures/images")
    /// Label folders of hand photos (HandsDataset) for training.
    static let gestures = root.appendingPathComponent("Tests/Fixtures/gestures")

    private static let catalogResult = Result { try ModelCatalog(directory: modelsDirectory) }

    /// The catalog of the project's models folder (scanned once for all tests).
    static func catalog() throws -> ModelCatalog { try catalogResult.get() }

    /// A server over the project's models (or `catalog`'s) with the default limits changed by `change`.
    static func server(
        _ change: (inout ServerConfiguration) -> Void = { _ in },
        catalog: () throws -> ModelCatalog = catalog
    ) throws -> VisionServer {
        var configuration = ServerConfiguration()
        configuration.modelsDirectory = modelsDirectory
        configuration.port = 0
        configuration.workers = 2
        change(&configuration)
        return try VisionServer(configuration: configuration, catalog: try catalog())
    }

    /// Whether the server says a gesture training is running (`GET /api/v1/gesture-models`).
    static func training(_ client: LoopbackClient) async throws -> Bool {
        try await client.execute(uri: "/api/v1/gesture-models", method: .get) { response in
            let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            return try #require(object?["training"] as? Bool)
        }
    }

    /// The `error` of a JSON error body; a body that is not JSON, or has no string `error`, is a test
    /// issue (and gives "").
    static func errorMessage(_ response: LoopbackResponse) -> String {
        #expect(response.headers[.contentType] == "application/json")
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) } catch {
            Issue.record("error body is not JSON (\(error)): \(String(buffer: response.body))")
            return ""
        }
        guard let message = (object as? [String: Any])?["error"] as? String else {
            Issue.record("error body has no string \"error\": \(String(buffer: response.body))")
            return ""
        }
        return message
    }

    /// A fixture photo's bytes.
    static func photo(_ name: String) throws -> Data {
        try Data(contentsOf: images.appendingPathComponent(name))
    }

    /// The library's result for `photo` with `task` made by `make`, as the shared result JSON; models named in
    /// `options` are in `modelsDirectory`.
    static func libraryJSON(
        modelsDirectory: String = modelsDirectory, _ task: String, photo: String,
        options: [String: String] = [:]
    ) throws -> String {
        let image = try MPImage(contentsOfFile: images.appendingPathComponent(photo).path)
        let data = try LibraryTasks.detect(task, image: image, options: options, models: modelsDirectory)
        return String(decoding: data, as: UTF8.self)
    }

    /// An H.264 MP4 of `frames` frames panning over `photo` at 10 fps, 320×240.
    static func panVideo(photo: String, frames: Int) throws -> Data {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        try Tool.ffmpeg([
            "-framerate", "10", "-loop", "1", "-i", images.appendingPathComponent(photo).path,
            "-vf", "scale=400:-2,crop=320:240:(iw-320)*n/\(frames):(ih-240)/2",
            "-frames:v", "\(frames)", "-c:v", "libx264", "-pix_fmt", "yuv420p", url.path,
        ])
        return try Data(contentsOf: url)
    }
}

/// The six tasks made straight from the library, the way a user of VisionTasks would, for the
/// results the server must equal.
enum LibraryTasks {
    static func detect(_ task: String, image: MPImage, options: [String: String], models: String) throws -> Data {
        let model = options["model"].map { models + "/" + $0 }
        func base(_ name: String) -> BaseOptions {
            BaseOptions(modelAssetPath: model ?? models + "/" + name, numThreads: 1)
        }
        switch task {
        case "face-detector":
            return try ResultJSON.encode(
                try FaceDetector(options: FaceDetectorOptions(baseOptions: base("blaze_face_short_range.tflite")))
                    .detect(image: image))
        case "face-landmarker":
            let options = FaceLandmarkerOptions(baseOptions: base("face_landmarker.task")) {
                $0.numFaces = Int(options["num-faces"] ?? "1") ?? 1
                $0.outputFaceBlendshapes = options["output-face-blendshapes"] == "true"
                $0.outputFacialTransformationMatrixes = options["output-facial-transformation-matrixes"] == "true"
                $0.faceDetectorModelAssetPath = options["face-detector-model"].map { models + "/" + $0 }
            }
            return try ResultJSON.encode(try FaceLandmarker(options: options).detect(image: image))
        case "hand-landmarker":
            let options = HandLandmarkerOptions(baseOptions: base("hand_landmarker.task")) {
                $0.numHands = Int(options["num-hands"] ?? "1") ?? 1
            }
            return try ResultJSON.encode(try HandLandmarker(options: options).detect(image: image))
        case "gesture-recognizer":
            let options = GestureRecognizerOptions(baseOptions: base("gesture_recognizer.task")) {
                $0.numHands = Int(options["num-hands"] ?? "1") ?? 1
            }
            return try ResultJSON.encode(try GestureRecognizer(options: options).recognize(image: image))
        case "pose-landmarker":
            let options = PoseLandmarkerOptions(baseOptions: base("pose_landmarker_full.task")) {
                $0.outputSegmentationMasks = options["output-segmentation-masks"] == "true"
                $0.outputJointAngles = options["output-joint-angles"] == "true"
            }
            return try ResultJSON.encode(try PoseLandmarker(options: options).detect(image: image))
        case "image-segmenter":
            let options = ImageSegmenterOptions(baseOptions: base("selfie_segmenter.tflite")) {
                $0.shouldOutputConfidenceMasks = options["output-confidence-masks"] != "false"
                $0.shouldOutputCategoryMask = options["output-category-mask"] == "true"
            }
            return try ResultJSON.encode(try ImageSegmenter(options: options).segment(image: image))
        default:
            throw VisionTasksError.invalidArgument("no library task \(task) in the test support")
        }
    }
}

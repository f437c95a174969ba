import Foundation
import Inference
import TFLite
import VisionCore
import VisionErrors
import VisionTasks

/// The fuzz targets of issue 10: each takes arbitrary bytes and drives one reader as far as it goes.
/// A thrown `VisionTasksError` is a correct answer; a trap, a sanitizer report, a leak, a hang or runaway
/// memory is a bug. `vision-fuzz` (tools/fuzz/fuzz.sh) runs them under libFuzzer with AddressSanitizer;
/// FuzzRegressionTests replays the committed inputs through them in every `swift test`.
public enum FuzzTargets {
    /// One target: its name (the corpus folder under Tests/Fixtures/fuzz/) and what it does with the bytes.
    public struct Target: Sendable {
        /// The target's name.
        public let name: String
        /// Runs the bytes through the target; returns whether they were accepted all the way.
        public let run: @Sendable (Data) -> Bool
    }

    /// Every target, by name.
    public static let all: [Target] = [
        Target(name: "tflite", run: tflite),
        Target(name: "bundle", run: bundle),
        Target(name: "image", run: image),
        Target(name: "geometry", run: geometry),
        Target(name: "task", run: task),
        Target(name: "sparsity", run: sparsity),
    ]

    /// The target named `name`, if any.
    public static func named(_ name: String) -> Target? { all.first { $0.name == name } }

    /// Decoded pixels and inflated bytes are capped well below the defaults, so that libFuzzer's RSS limit
    /// (2 GB under AddressSanitizer) catches runaway memory, not legitimate large inputs.
    static let maxPixelCount = 4_000_000
    static let maxDecompressedBytes = 32 << 20

    /// Runs `body`, turning a thrown error into `false`.
    static func accepts(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch { return false }
    }

    /// (a) The .tflite reader and the engine: parse, plan, and invoke once on zero inputs.
    static func tflite(_ data: Data) -> Bool {
        accepts {
            let model = try TFLiteModel(data: data, name: "fuzz.tflite", maxDecompressedBytes: maxDecompressedBytes)
            _ = try model.modelMetadata.map { _ in try model.labels(forOutput: 0, subgraph: 0) }
            let interpreter = try Interpreter(model: model, numThreads: 1)
            interpreter.invoke()
            _ = interpreter.outputs.indices.map { interpreter.output($0).count }
        }
    }

    /// (b) `.task` bundles: every entry extracted, nested bundles included, each `.tflite` parsed.
    static func bundle(_ data: Data) -> Bool {
        accepts {
            let bundle = try ModelBundle(data: data, name: "fuzz.task", maxDecompressedBytes: maxDecompressedBytes)
            for path in try bundle.allFilePaths() {
                let bytes = try bundle.find(path)
                if path.hasSuffix(".tflite") { _ = try TFLiteModel(data: bytes, name: path) }
            }
        }
    }

    /// (c) Image decoding from bytes (JPEG and PNG, EXIF orientation included); then the same bytes
    /// decoded as a file's are (rearranged in place: a PNG's IDATs joined where they lie), which must give
    /// the same pixels or the same error, and put the bytes back when it throws.
    static func image(_ data: Data) -> Bool {
        let options = ImageDecodingOptions(maxPixelCount: maxPixelCount)
        let fromData = Swift.Result { try MPImage(encodedData: data, name: "fuzz image", decodingOptions: options) }
        let original = [UInt8](data)
        var bytes = original
        let asFile = bytes.withUnsafeMutableBytes { buffer in
            Swift.Result { try MPImage(rearrangingEncodedBytes: buffer, name: "fuzz image", decodingOptions: options) }
        }
        switch (fromData, asFile) {
        case (.success(let a), .success(let b)):
            let same = a.withUnsafeBufferBytes { x in b.withUnsafeBufferBytes { y in x.elementsEqual(y) } }
            precondition(
                same && a.bufferFormat == b.bufferFormat && a.width == b.width, "a file's bytes decode to other pixels")
            return true
        case (.failure(let a), .failure(let b)):
            precondition("\(a)" == "\(b)" && bytes == original, "a file's bytes fail otherwise, or are not put back")
            return false
        default:
            preconditionFailure("a file's bytes and the same bytes in memory: one decodes, the other does not")
        }
    }

    /// (d) The face geometry protobuf (`geometry_pipeline_metadata_landmarks.binarypb`).
    static func geometry(_ data: Data) -> Bool {
        accepts { _ = try FaceGeometryMetadata(data: data, name: "fuzz.binarypb") }
    }

    /// (e) A whole task created from a real bundle with one entry replaced by bytes 1... of the input (byte 0
    /// picks the entry), written with correct CRCs so the mutation gets past the CRC check; then one
    /// detection on a real photo. Needs the models (`make models`) and the fixture images.
    static func task(_ data: Data) -> Bool {
        guard let selector = data.first, let assets = TaskAssets.shared else { return false }
        let slot = TaskAssets.slots[Int(selector) % TaskAssets.slots.count]
        let replacement = Data(data.dropFirst())
        return accepts {
            guard let original = assets.bundles[slot.bundle] else {
                throw VisionTasksError.fileNotFound(path: slot.bundle)
            }
            let source = try ModelBundle(data: Data(original), name: slot.bundle)
            let entries = try source.fileNames.map { name in
                ZipWriter.Entry.stored(name, name == slot.entry ? replacement : try source.data(named: name))
            }
            let base = BaseOptions(
                modelAssetBuffer: ZipWriter.archive(entries), numThreads: 1,
                maxDecompressedBundleBytes: maxDecompressedBytes)
            switch slot.bundle {
            case "face_landmarker.task":
                let options = FaceLandmarkerOptions(baseOptions: base)
                options.outputFaceBlendshapes = true
                options.outputFacialTransformationMatrixes = true
                _ = try FaceLandmarker(options: options).detect(image: assets.face)
            case "hand_landmarker.task":
                _ = try HandLandmarker(options: HandLandmarkerOptions(baseOptions: base)).detect(image: assets.hand)
            default:
                _ = try GestureRecognizer(options: GestureRecognizerOptions(baseOptions: base)).recognize(
                    image: assets.hand)
            }
        }
    }
}

/// What the task target works on: the real bundles and two photos, read once.
struct TaskAssets: Sendable {
    /// One replaceable entry of one bundle.
    struct Slot: Sendable {
        let bundle: String
        let entry: String
    }

    /// The entries the task target may replace; input byte 0 picks one (modulo the count).
    static let slots: [Slot] = [
        Slot(bundle: "face_landmarker.task", entry: "face_detector.tflite"),
        Slot(bundle: "face_landmarker.task", entry: "face_landmarks_detector.tflite"),
        Slot(bundle: "face_landmarker.task", entry: "geometry_pipeline_metadata_landmarks.binarypb"),
        Slot(bundle: "face_landmarker.task", entry: "face_blendshapes.tflite"),
        Slot(bundle: "hand_landmarker.task", entry: "hand_detector.tflite"),
        Slot(bundle: "hand_landmarker.task", entry: "hand_landmarks_detector.tflite"),
        Slot(bundle: "gesture_recognizer.task", entry: "hand_gesture_recognizer.task"),
    ]

    /// The bundles' bytes by file name. Held as arrays, not `Data`: LeakSanitizer cannot follow the reference
    /// inside a `Data` kept in a global (its enum tag sits in the pointer's spare bits), so it reported these
    /// process-lifetime bytes as leaked.
    let bundles: [String: [UInt8]]
    /// A photo with a face, and one with a hand.
    let face: MPImage
    let hand: MPImage

    /// The repository root: `$VISION_FUZZ_ROOT`, else the checkout this file was built from.
    static var root: String {
        ProcessInfo.processInfo.environment["VISION_FUZZ_ROOT"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// `relative` under the repository root.
    static func path(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }

    /// Read from models/ and Tests/Fixtures/images/ under the root; nil when they are missing.
    static let shared: TaskAssets? = {
        guard let face = try? MPImage(contentsOfFile: path("Tests/Fixtures/images/astronaut.png")),
            let hand = try? MPImage(contentsOfFile: path("Tests/Fixtures/images/hand_thumb_up.jpg"))
        else { return nil }
        var bundles: [String: [UInt8]] = [:]
        for name in Set(slots.map(\.bundle)) {
            guard let data = try? ModelFile.read(path("models/\(name)")) else { return nil }
            bundles[name] = [UInt8](data)
        }
        return TaskAssets(bundles: bundles, face: face, hand: hand)
    }()

    /// The seed of slot `index`: its selector byte, then the real entry's bytes.
    func seed(_ index: Int) throws -> Data {
        let slot = Self.slots[index]
        guard let original = bundles[slot.bundle] else { throw VisionTasksError.fileNotFound(path: slot.bundle) }
        return Data([UInt8(index)]) + (try ModelBundle(data: Data(original), name: slot.bundle).data(named: slot.entry))
    }
}

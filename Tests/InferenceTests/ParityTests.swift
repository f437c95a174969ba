import FixtureSupport
import Foundation
import TFLite
import Testing
import VisionErrors

@testable import Inference

/// Paths shared by the Inference tests.
enum Fixtures {
    /// The repository root (three levels above this file).
    static let root = Fixture.repositoryRoot

    /// A file under Tests/Fixtures/references/engine/.
    static func engine(_ path: String) -> URL {
        Fixture.references.appendingPathComponent("engine/\(path)")
    }

    /// Reads little-endian float32 values.
    static func floats(_ url: URL) throws -> [Float] {
        let data = try Data(contentsOf: url)
        return data.withUnsafeBytes { raw in
            (0..<data.count / 4).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)))
            }
        }
    }

    /// The bytes of a model: `path[0]` under models/, then nested bundle entries (none: a lone .tflite).
    static func model(_ path: [String]) throws -> Data {
        if path.count == 1 { return try Data(contentsOf: root.appendingPathComponent("models/\(path[0])")) }
        var bundle = try ModelBundle(contentsOfFile: root.appendingPathComponent("models/\(path[0])").path)
        for entry in path.dropFirst().dropLast() { bundle = try bundle.bundle(named: entry) }
        return try bundle.data(named: path[path.count - 1])
    }
}

/// The manifest written by tools/references/make_engine_refs.py.
struct EngineManifest: Decodable {
    struct Tensor: Decodable {
        let file: String
        let name: String
        let shape: [Int]
    }
    struct Case: Decodable {
        let name: String
        let inputs: [Tensor]
        let outputs: [Tensor]
    }
    struct Model: Decodable {
        let name: String
        let path: [String]
        let cases: [Case]
    }
    let models: [Model]

    static func load() throws -> EngineManifest {
        try Fixture.decode(EngineManifest.self, "engine/manifest.json")
    }
}

/// Our outputs against LiteRT 2.3.0's on committed inputs (random and real), for all nine models (the
/// full-range face detector's fp16 weights stored sparse behind DENSIFY, from `make models`).
/// Tolerance per output tensor: max|ours − LiteRT| ≤ 1e-4 × max(1, max|LiteRT|).
@Suite struct ParityTests {
    static let modelNames = [
        "face_detector", "face_landmarks_detector", "face_blendshapes", "hand_detector",
        "hand_landmarks_detector", "gesture_embedder", "canned_gesture_classifier",
        "custom_gesture_classifier", "face_detection_full_range_sparse",
    ]

    @Test func manifestHoldsEveryModel() throws {
        #expect(try EngineManifest.load().models.map(\.name).sorted() == Self.modelNames.sorted())
    }

    @Test(arguments: modelNames, [1, 2])
    func matchesLiteRT(model name: String, threads: Int) throws {
        let manifest = try EngineManifest.load()
        let model = try #require(manifest.models.first { $0.name == name })
        let interpreter = try Interpreter(modelData: try Fixtures.model(model.path), numThreads: threads)
        #expect(interpreter.inputs.map(\.shape) == model.cases[0].inputs.map(\.shape))
        #expect(interpreter.outputs.map(\.name) == model.cases[0].outputs.map(\.name))
        for c in model.cases {
            for (i, input) in c.inputs.enumerated() {
                try interpreter.setInput(i, try Fixtures.floats(Fixtures.engine(input.file)))
            }
            interpreter.invoke()
            for (i, output) in c.outputs.enumerated() {
                let expected = try Fixtures.floats(Fixtures.engine(output.file))
                let ours = interpreter.output(i)
                try #require(ours.count == expected.count)
                let maxRef = expected.map(abs).max() ?? 0
                let err = zip(ours, expected).map { abs($0 - $1) }.max() ?? 0
                let tolerance = 1e-4 * max(1, maxRef)
                print(
                    "parity \(name) [\(threads) thread(s)] \(c.name) \(output.name): max|ours − LiteRT| = \(err) (max|LiteRT| = \(maxRef), tolerance \(tolerance))"
                )
                #expect(err <= tolerance, "\(name) \(c.name) output \(output.name): error \(err) > \(tolerance)")
            }
        }
    }

    /// invoke() gives the same answer every time, whatever ran before.
    @Test func invokeIsRepeatable() throws {
        let manifest = try EngineManifest.load()
        let model = try #require(manifest.models.first { $0.name == "face_detector" })
        let interpreter = try Interpreter(modelData: try Fixtures.model(model.path))
        let a = try Fixtures.floats(Fixtures.engine(model.cases[0].inputs[0].file))
        let b = try Fixtures.floats(Fixtures.engine(model.cases[1].inputs[0].file))
        try interpreter.setInput(0, a)
        interpreter.invoke()
        let first = (0..<interpreter.outputs.count).map { interpreter.output($0) }
        interpreter.invoke()
        #expect((0..<interpreter.outputs.count).map { interpreter.output($0) } == first)
        try interpreter.setInput(0, b)
        interpreter.invoke()
        let other = (0..<interpreter.outputs.count).map { interpreter.output($0) }
        #expect(other != first)
        try interpreter.withInputBuffer(0) { buffer in _ = buffer.update(from: a) }
        interpreter.invoke()
        #expect((0..<interpreter.outputs.count).map { interpreter.output($0) } == first)
    }

    @Test func checksArguments() throws {
        let manifest = try EngineManifest.load()
        let model = try #require(manifest.models.first { $0.name == "canned_gesture_classifier" })
        let data = try Fixtures.model(model.path)
        #expect(throws: VisionTasksError.self) { try Interpreter(modelData: data, numThreads: 0) }
        let interpreter = try Interpreter(modelData: data)
        #expect(interpreter.inputs == [TensorInfo(name: "hand_embedding", shape: [1, 128], type: "float32")])
        #expect(throws: VisionTasksError.self) { try interpreter.setInput(0, [1, 2, 3]) }
        #expect(throws: VisionTasksError.self) { try interpreter.setInput(1, [Float](repeating: 0, count: 128)) }
        #expect(interpreter.output(5).isEmpty)
    }
}

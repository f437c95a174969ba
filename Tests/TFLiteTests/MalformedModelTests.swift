import FixtureSupport
import Foundation
import Testing
import VisionErrors

@testable import TFLite

/// Truncated, corrupted and hostile models must throw `VisionTasksError.invalidModel` (or parse), never
/// crash, hang or read out of bounds.
@Suite struct MalformedModelTests {
    /// Parses `data`; returns whether it parsed, and fails the test on any error other than invalidModel.
    @discardableResult
    static func parses(_ data: Data, _ context: @autoclosure () -> String) -> Bool {
        do {
            _ = try TFLiteModel(data: data, name: "fuzzed")
            return true
        } catch VisionTasksError.invalidModel {
            return false
        } catch {
            Issue.record("\(context()): unexpected error \(error)")
            return false
        }
    }

    static func valid() throws -> Data { try TestSupport.reference("tflite/crafted/valid.tflite") }

    /// `data` with the little-endian UInt32 at `position` replaced by `value`.
    static func patched(_ data: Data, at position: Int, _ value: UInt32) -> Data {
        var copy = Data(data)
        withUnsafeBytes(of: value.littleEndian) { copy.replaceSubrange(position..<position + 4, with: $0) }
        return copy
    }

    @Test func emptyAndTinyInputsThrow() {
        for length in 0..<8 {
            #expect(throws: VisionTasksError.self) { try TFLiteModel(data: Data(repeating: 0, count: length)) }
        }
    }

    @Test func wrongFileIdentifierThrows() throws {
        var data = try Self.valid()
        data.replaceSubrange(4..<8, with: Array("TFL2".utf8))
        #expect(throws: VisionTasksError.invalidModel("model: file identifier is \"TFL2\", expected \"TFL3\"")) {
            try TFLiteModel(data: data)
        }
        // A zip is not a model either.
        #expect(throws: VisionTasksError.self) { try TFLiteModel(data: Data("PK\u{3}\u{4}0000000000".utf8)) }
    }

    @Test func everyTruncationThrows() throws {
        let data = try Self.valid()
        for length in 0..<data.count {
            #expect(!Self.parses(data.prefix(length), "truncated to \(length)"), "truncated to \(length) bytes parsed")
        }
    }

    @Test func outOfRangeRootAndVtableOffsetsThrow() throws {
        let data = try Self.valid()
        for value: UInt32 in [0, UInt32(data.count), UInt32(data.count - 2), 0xFFFF_FFFF, 0x8000_0000] {
            #expect(!Self.parses(Self.patched(data, at: 0, value), "root offset \(value)"))
        }
        let buffer = FlatBuffer(data, label: "model")
        let root = try buffer.root("Model")
        // The root table's vtable offset (a signed distance back to its vtable).
        for value: UInt32 in [0x7FFF_FFFF, 0x8000_0000, UInt32(bitPattern: -Int32(data.count)), 2, 0] {
            #expect(!Self.parses(Self.patched(data, at: root.position, value), "vtable offset \(value)"))
        }
    }

    @Test func hostileVectorsThrow() throws {
        let data = try Self.valid()
        let root = try FlatBuffer(data, label: "model").root("Model")
        // Subgraphs vector: an absurd length, a zero offset (pointing at itself), an offset past the end.
        let field = try #require(try root.field(TFLiteSchema.Model.subgraphs, size: 4))
        let vector = field + Int(data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: field, as: UInt32.self) })
        for length: UInt32 in [0xFFFF_FFFF, 0x4000_0000, UInt32(data.count)] {
            #expect(!Self.parses(Self.patched(data, at: vector, length), "subgraph count \(length)"))
        }
        #expect(throws: VisionTasksError.self) { try TFLiteModel(data: Self.patched(data, at: field, 0)) }
        #expect(throws: VisionTasksError.self) {
            try TFLiteModel(data: Self.patched(data, at: field, UInt32(data.count)))
        }
        // Description string with a length running past the end.
        let description = try #require(try root.field(TFLiteSchema.Model.description, size: 4))
        let string =
            description + Int(data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: description, as: UInt32.self) })
        #expect(throws: VisionTasksError.self) {
            try TFLiteModel(data: Self.patched(data, at: string, UInt32(data.count)))
        }
    }

    /// A schema version other than 3 is refused, as LiteRT refuses it (version 99 ran without a word).
    @Test func anotherSchemaVersionIsRefused() throws {
        let data = try Self.valid()
        let root = try FlatBuffer(data, label: "model").root("Model")
        let field = try #require(try root.field(TFLiteSchema.Model.version, size: 4))
        #expect(
            throws: VisionTasksError.invalidModel(
                "m: schema version 99, where TFLite models (and this reader) have version 3")
        ) {
            try TFLiteModel(data: Self.patched(data, at: field, 99), name: "m")
        }
        #expect(try TFLiteModel(data: Self.patched(data, at: field, 3), name: "m").version == 3)
    }

    @Test func aliasedVectorsCannotAmplifyWork() throws {
        // Every element of a large vector pointing at the same table is bounded by the budget of decoded bytes: 16
        // times the file plus 16 MiB (the 12000 × 12000 aliased tables of FuzzRegressionTests stop there).
        let buffer = FlatBuffer(Data(count: 64), label: "budget")
        try buffer.charge(16 * 64 + (16 << 20), "all of it")
        #expect(throws: VisionTasksError.self) { try buffer.charge(1, "one more byte") }
    }

    @Test(.timeLimit(.minutes(1)))
    func randomByteFlipsNeverCrash() throws {
        var generator = SplitMix64(state: 2026)
        let samples: [(String, Data)] =
            [("crafted", try Self.valid())]
            + [
                (
                    "canned_gesture_classifier",
                    try TestSupport.modelData("gesture_recognizer.task", "canned_gesture_classifier.tflite")
                ),
                (
                    "custom_gesture_classifier",
                    try TestSupport.modelData("operations.task", "custom_gesture_classifier.tflite")
                ),
            ]
        for (name, original) in samples {
            var parsed = 0
            for iteration in 0..<1500 {
                var data = Data(original)
                let flips = Int.random(in: 1...8, using: &generator)
                for _ in 0..<flips {
                    let position = Int.random(in: 0..<data.count, using: &generator)
                    data[position] = UInt8.random(in: 0...255, using: &generator)
                }
                if Self.parses(data, "\(name) iteration \(iteration)") { parsed += 1 }
            }
            // Most flips land in weights (the model still parses); some must hit structure and throw.
            #expect(parsed > 0 && parsed < 1500, "\(name): \(parsed) of 1500 parsed")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func flipsInTheStructureOfARealModelNeverCrash() throws {
        // Flip bytes only outside the large weight buffers of face_detector, where the FlatBuffer structure is.
        let original = try TestSupport.modelData("face_landmarker.task", "face_detector.tflite")
        let model = try TFLiteModel(data: original)
        let weights = model.buffers.map(\.range).filter { $0.count > 64 }
        let structure = (0..<original.count).filter { index in !weights.contains { $0.contains(index) } }
        var generator = SplitMix64(state: 7)
        for iteration in 0..<400 {
            var data = Data(original)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = structure[Int.random(in: 0..<structure.count, using: &generator)]
                data[position] = UInt8.random(in: 0...255, using: &generator)
            }
            Self.parses(data, "face_detector iteration \(iteration)")
        }
    }

    @Test
    func truncatedRealModelsThrow() throws {
        // face_detector ends with an empty zip (associated files): cutting into that zip leaves a usable
        // model, so only cuts into the FlatBuffer before it must throw.
        let data = try TestSupport.modelData("face_landmarker.task", "face_detector.tflite")
        let flatBufferEnd = try #require(ZipDirectory.endRecordPosition(data))
        #expect(flatBufferEnd > data.count - 100)
        var generator = SplitMix64(state: 11)
        let lengths =
            (0..<200).map { _ in Int.random(in: 0..<flatBufferEnd, using: &generator) } + [flatBufferEnd - 1, 8, 100]
        for length in lengths {
            #expect(
                !Self.parses(data.prefix(length), "truncated to \(length)"),
                "face_detector truncated to \(length) parsed")
        }
    }

    @Test
    func corruptMetadataIsNamed() throws {
        let data = try TestSupport.modelData("face_landmarker.task", "face_detector.tflite")
        let metadata = try #require(try TFLiteModel(data: data).metadata[ModelMetadata.entryName])
        var copy = Data(data)
        copy[metadata.startIndex + 4] = UInt8(ascii: "X")
        #expect(
            throws: VisionTasksError.invalidModel(
                "face_detector TFLITE_METADATA: file identifier is \"X001\", expected \"M001\"")
        ) {
            try TFLiteModel(data: copy, name: "face_detector")
        }
        // A metadata root offset past its buffer.
        copy = Data(data)
        copy.replaceSubrange(metadata.startIndex..<metadata.startIndex + 4, with: [0xF0, 0xFF, 0x00, 0x00])
        #expect(throws: VisionTasksError.self) { try TFLiteModel(data: copy) }
    }

    @Test(.timeLimit(.minutes(1)))
    func flipsInTheMetadataNeverCrash() throws {
        // hand_detector's TFLITE_METADATA (a FlatBuffer of its own) and its appended label zip.
        let original = try TestSupport.modelData("hand_landmarker.task", "hand_detector.tflite")
        let metadata = try #require(try TFLiteModel(data: original).metadata[ModelMetadata.entryName])
        let zipStart = original.count - 400
        var generator = SplitMix64(state: 5)
        var parsed = 0
        for iteration in 0..<300 {
            var data = Data(original)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position =
                    iteration % 2 == 0
                    ? Int.random(in: metadata.startIndex..<metadata.endIndex, using: &generator)
                    : Int.random(in: zipStart..<original.count, using: &generator)
                data[position] = UInt8.random(in: 0...255, using: &generator)
            }
            if Self.parses(data, "hand_detector metadata iteration \(iteration)") { parsed += 1 }
        }
        #expect(parsed < 300, "every corrupted metadata parsed")
    }

    @Test func modelInADataSliceReads() throws {
        let valid = try Self.valid()
        let padded = Data([1, 2, 3]) + valid + Data([4, 5])
        let model = try TFLiteModel(data: padded[padded.startIndex + 3..<padded.startIndex + 3 + valid.count])
        let reference = try TFLiteModel(data: valid)
        #expect(model.subgraphs == reference.subgraphs)
        let filter = model.subgraphs[0].tensors[1]
        #expect(model.constantData(of: filter).map(Array.init) == reference.constantData(of: filter).map(Array.init))
    }
}

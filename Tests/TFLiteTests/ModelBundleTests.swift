import FixtureSupport
import Foundation
import Testing
import VisionErrors

@testable import TFLite

/// `.task` bundles: listing, nested bundles, lookups, and corrupt or hostile zips.
@Suite struct ModelBundleTests {
    static func crafted() throws -> Data { try TestSupport.reference("tflite/bundle.task") }

    /// Reads `data` as a bundle and extracts every entry, nested bundles included; returns whether it read,
    /// failing on any error other than invalidBundle.
    @discardableResult
    static func reads(_ data: Data, _ context: @autoclosure () -> String) -> Bool {
        do {
            let bundle = try ModelBundle(data: data, name: "fuzzed.task")
            for path in try bundle.allFilePaths() { _ = try bundle.find(path) }
            return true
        } catch VisionTasksError.invalidBundle {
            return false
        } catch {
            Issue.record("\(context()): unexpected error \(error)")
            return false
        }
    }

    @Test func craftedBundleReads() throws {
        let bundle = try ModelBundle(data: try Self.crafted(), name: "bundle.task")
        #expect(bundle.fileNames == ["valid.tflite", "labels.txt", "inner.task"])
        #expect(
            try bundle.allFilePaths() == [
                "valid.tflite", "labels.txt", "inner.task", "inner.task/model.tflite", "inner.task/notes.txt",
            ])
        // The deflated entry inflates to its content.
        #expect(
            LabelFile.parse(try bundle.data(named: "labels.txt"))
                == Array(repeating: ["cat", "dog"], count: 20).flatMap { $0 })
        let nested = try bundle.bundle(named: "inner.task")
        #expect(nested.name == "bundle.task/inner.task")
        #expect(try nested.data(named: "model.tflite") == (try bundle.data(named: "valid.tflite")))
        #expect(try bundle.find("inner.task/notes.txt") == Data("nested bundle\n".utf8))
        #expect(try bundle.find("notes.txt") == Data("nested bundle\n".utf8))
        #expect(try bundle.model(named: "valid.tflite").subgraphs[0].operators.count == 4)
    }

    /// Bundles nest at most `ModelBundle.maxNesting` deep: a chain each level of which copies the rest is refused.
    @Test func bundlesNestAtMostFourDeep() throws {
        func chain(_ levels: Int) -> Data {
            var data = ZipWriter.archive([.stored("model.tflite", Data([1, 2, 3]))])
            for _ in 0..<levels { data = ZipWriter.archive([.stored("inner.task", data)]) }
            return data
        }
        let deepest = "inner.task/inner.task/inner.task/inner.task/model.tflite"
        #expect(try ModelBundle(data: chain(4), name: "four").allFilePaths().last == deepest)
        #expect(try ModelBundle(data: chain(4), name: "four").find(deepest) == Data([1, 2, 3]))
        #expect {
            try ModelBundle(data: chain(5), name: "five").allFilePaths()
        } throws: {
            "\($0)".contains(
                "five/inner.task/inner.task/inner.task/inner.task/inner.task is nested more than 4 bundles deep")
        }
    }

    @Test func missingEntriesAreNamed() throws {
        let bundle = try ModelBundle(data: try Self.crafted(), name: "bundle.task")
        #expect(
            throws: VisionTasksError.invalidBundle(
                "bundle.task has no entry \"face_detector.tflite\" (it has: valid.tflite, labels.txt, inner.task)")
        ) {
            try bundle.data(named: "face_detector.tflite")
        }
        #expect(throws: VisionTasksError.self) { try bundle.find("inner.task/missing.tflite") }
        #expect(throws: VisionTasksError.self) { try bundle.bundle(named: "labels.txt") }
        #expect(throws: VisionTasksError.fileNotFound(path: "/nonexistent/x.task")) {
            try ModelBundle(contentsOfFile: "/nonexistent/x.task")
        }
        #expect(throws: VisionTasksError.fileNotFound(path: "/nonexistent/x.tflite")) {
            try TFLiteModel(contentsOfFile: "/nonexistent/x.tflite")
        }
    }

    /// An empty model file is an invalid model, and reading it leaks nothing (Foundation's reader leaked
    /// 4 KB per empty file: issue 10's finding 8; `make sanitize` runs this under LeakSanitizer).
    @Test func emptyModelFilesAreInvalidAndLeakNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("empty-model-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let task = directory.appendingPathComponent("empty.task").path,
            model = directory.appendingPathComponent("empty.tflite").path
        #expect(FileManager.default.createFile(atPath: task, contents: Data()))
        #expect(FileManager.default.createFile(atPath: model, contents: Data()))
        #expect(try ModelFile.read(task).isEmpty)
        #expect(throws: VisionTasksError.self) { try ModelBundle(contentsOfFile: task) }
        #expect(throws: VisionTasksError.self) { try TFLiteModel(contentsOfFile: model) }
        #expect(throws: VisionTasksError.fileUnreadable(path: directory.path, reason: "it is a directory")) {
            try ModelFile.read(directory.path)
        }
        // A named pipe used to wait for a writer for ever, /dev/zero to be read without end.
        let fifo = directory.appendingPathComponent("model.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/zero"] {
            #expect(
                throws: VisionTasksError.fileUnreadable(
                    path: path, reason: "it is not a regular file (a pipe, a device or a socket)")
            ) { try ModelFile.read(path) }
        }
    }

    @Test func ambiguousNamesAreRefused() throws {
        // "model.tflite" exists once (nested); a name found twice must not silently pick one.
        let bundle = try ModelBundle(data: try Self.crafted(), name: "bundle.task")
        #expect(try bundle.find("model.tflite").count == 1140)
        #expect(throws: VisionTasksError.self) { try bundle.find(".tflite") }
    }

    @Test func checksumsAreVerified() throws {
        #expect(ZipArchive.crc32(Data("123456789".utf8)) == 0xCBF4_3926) // the CRC-32 check value
        #expect(ZipArchive.crc32(Data()) == 0)
        let data = try Self.crafted()
        let entry = try #require(try ZipDirectory(data, name: "bundle.task").entries.first)
        var copy = Data(data)
        copy[entry.dataRange.lowerBound + 100] ^= 0x01
        // Opening reads the directory only; the entry is checked when it is extracted.
        let bundle = try ModelBundle(data: copy, name: "bundle.task")
        #expect(
            throws: VisionTasksError.invalidBundle("bundle.task entry \"valid.tflite\" is corrupted (CRC-32 mismatch)")
        ) {
            try bundle.data(named: "valid.tflite")
        }
        #expect(try bundle.data(named: "labels.txt").count == 160)
    }

    @Test func notAZipIsInvalidBundle() throws {
        for data in [
            Data(), Data(repeating: 0x50, count: 5000), try TestSupport.reference("tflite/crafted/valid.tflite"),
        ] {
            #expect(throws: VisionTasksError.self) { try ModelBundle(data: data) }
            #expect(!Self.reads(data, "not a zip"))
        }
    }

    @Test func everyTruncationIsRejected() throws {
        let data = try Self.crafted()
        for length in 0..<data.count {
            #expect(!Self.reads(data.prefix(length), "truncated to \(length)"), "truncated to \(length) read")
        }
    }

    @Test func absurdAndInconsistentSizesAreRejected() throws {
        let data = try Self.crafted()
        let directory = try ZipDirectory(data, name: "bundle.task")
        #expect(directory.entries.map(\.name) == ["valid.tflite", "labels.txt", "inner.task"])
        // Central directory record of labels.txt (deflated): its uncompressed-size field at +24.
        let start = Int(
            data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: data.count - 22 + 16, as: UInt32.self) })
        var position = start
        for _ in 0..<1 {
            position += 46 + Int(data[position + 28]) + Int(data[position + 30]) + Int(data[position + 32])
        }
        #expect(data[position + 46..<position + 46 + 10].elementsEqual("labels.txt".utf8))
        for size: UInt32 in [0x7FFF_FFFF, 0x4000_0001, 0xFFFF_FFFF, 3] {
            var copy = Data(data)
            withUnsafeBytes(of: size.littleEndian) { copy.replaceSubrange(position + 24..<position + 28, with: $0) }
            #expect(!Self.reads(copy, "uncompressed size \(size)"), "uncompressed size \(size) read")
        }
        // A local header whose sizes disagree with the directory (ZIPFoundation would trust them).
        let localHeader = Int(data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start + 42, as: UInt32.self) })
        for field in [14, 18, 22] {
            var copy = Data(data)
            withUnsafeBytes(of: UInt32(0xFFFF_FFF0).littleEndian) {
                copy.replaceSubrange(localHeader + field..<localHeader + field + 4, with: $0)
            }
            #expect(!Self.reads(copy, "local header field \(field)"))
        }
        // ZIP64 sizes in a local header (Python's force_zip64): named as such, not as a disagreement.
        var zip64 = Data(data)
        withUnsafeBytes(of: UInt32(0xFFFF_FFFF).littleEndian) {
            zip64.replaceSubrange(localHeader + 18..<localHeader + 22, with: $0)
            zip64.replaceSubrange(localHeader + 22..<localHeader + 26, with: $0)
        }
        #expect { try ZipDirectory(zip64, name: "bundle.task") } throws: {
            "\($0)".contains("entry \"valid.tflite\" uses ZIP64 sizes, which are not supported")
        }
        // A local-header offset past the end, and one pointing at the wrong place.
        for offset: UInt32 in [UInt32(data.count + 10), 0xFFFF_FFF0, 1] {
            var copy = Data(data)
            withUnsafeBytes(of: offset.littleEndian) { copy.replaceSubrange(start + 42..<start + 46, with: $0) }
            #expect(!Self.reads(copy, "local header offset \(offset)"))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func randomByteFlipsNeverCrash() throws {
        let original = try Self.crafted()
        var generator = SplitMix64(state: 99)
        var read = 0
        for iteration in 0..<3000 {
            var data = Data(original)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<data.count, using: &generator)
                data[position] = UInt8.random(in: 0...255, using: &generator)
            }
            if Self.reads(data, "iteration \(iteration)") { read += 1 }
        }
        // File data is CRC-checked, so most flips are caught; flips in unused header fields are harmless.
        #expect(read < 1500, "\(read) of 3000 corrupted bundles read")
    }

    @Test
    func realBundlesList() throws {
        let face = try ModelBundle(contentsOfFile: TestSupport.modelPath("face_landmarker.task"))
        #expect(
            face.fileNames == [
                "face_detector.tflite", "face_landmarks_detector.tflite",
                "geometry_pipeline_metadata_landmarks.binarypb", "face_blendshapes.tflite",
            ])
        #expect(face.declaredSize(of: "face_landmarks_detector.tflite") == 2_553_590)
        #expect(try face.data(named: "face_landmarks_detector.tflite").count == 2_553_590)
        let operations = try ModelBundle(contentsOfFile: TestSupport.modelPath("operations.task"))
        #expect(
            try operations.allFilePaths() == [
                "hand_landmarker.task", "hand_landmarker.task/hand_detector.tflite",
                "hand_landmarker.task/hand_landmarks_detector.tflite", "hand_gesture_recognizer.task",
                "hand_gesture_recognizer.task/gesture_embedder.tflite",
                "hand_gesture_recognizer.task/canned_gesture_classifier.tflite",
                "hand_gesture_recognizer.task/custom_gesture_classifier.tflite",
            ])
        #expect(try operations.find("custom_gesture_classifier.tflite").count == 8495)
    }

    @Test
    func truncatedRealBundleIsRejected() throws {
        let data = try ModelFile.read(TestSupport.modelPath("hand_landmarker.task"))
        for length in [0, 2, 100, data.count / 2, data.count - 23, data.count - 1] {
            #expect(!Self.reads(data.prefix(length), "hand_landmarker.task truncated to \(length)"))
        }
    }
}

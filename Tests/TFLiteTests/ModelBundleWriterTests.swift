import FixtureSupport
import Foundation
import Testing
import VisionErrors

@testable import TFLite

/// ModelBundleWriter: entries read back byte-identical and in order through ModelBundle, stored, with their
/// data at multiples of 4 bytes from the file's start (nested bundles too), and bad entry lists refused.
@Suite struct ModelBundleWriterTests {
    /// Entries of awkward sizes and name lengths, so that alignment padding of every length is needed. Computed:
    /// a static holding Data stays allocated to the end, which LeakSanitizer (`make sanitize`) reports.
    static var entries: [(name: String, data: Data)] {
        [
            ("a.tflite", Data([1, 2, 3])), ("labels.txt", Data()), ("bb.bin", Data([9])),
            ("nested/ccc.tflite", Data(repeating: 7, count: 1001)), ("ddddd", Data([4, 5])),
        ]
    }

    /// The data offsets (from the archive's start) and methods of `archive`'s entries, from its directory.
    static func layout(_ archive: Data) throws -> [(start: Int, compressed: Bool)] {
        try ZipDirectory(archive, name: "written").entries.map { ($0.dataRange.lowerBound, $0.isCompressed) }
    }

    @Test func entriesReadBackStoredInOrderAndAligned() throws {
        let data = try ModelBundleWriter.bundle(Self.entries)
        let bundle = try ModelBundle(data: data, name: "written.task")
        #expect(bundle.fileNames == Self.entries.map(\.name))
        for entry in Self.entries {
            #expect(try bundle.data(named: entry.name) == entry.data, "\(entry.name)")
        }
        let layout = try Self.layout(data)
        #expect(layout.count == Self.entries.count)
        #expect(layout.allSatisfy { $0.start % 4 == 0 && !$0.compressed }, "\(layout)")
        #expect(try ModelBundleWriter.bundle(Self.entries) == data)
    }

    /// A gesture bundle laid out as Model Maker writes it: hand_landmarker.task and a nested
    /// hand_gesture_recognizer.task holding a written custom classifier; every model reads from it.
    @Test func nestedBundlesAndModelsReadBack() throws {
        let classifier = try ClassifierModelWriter.write(
            inputCount: 4,
            layers: [.dense(weights: Array(repeating: 0.5, count: 8), bias: [0, 1], outputCount: 2), .softmax],
            labels: ["None", "wave"], scoreThreshold: 0.5, description: .customGestureClassifier)
        let inner = try ModelBundleWriter.bundle([
            ("gesture_embedder.tflite", Data([1, 2, 3, 4, 5])),
            ("custom_gesture_classifier.tflite", classifier),
        ])
        let outer = try ModelBundleWriter.bundle([
            ("hand_landmarker.task", try ModelBundleWriter.bundle(Self.entries)),
            ("hand_gesture_recognizer.task", inner),
        ])
        let bundle = try ModelBundle(data: outer, name: "gesture_recognizer.task")
        #expect(
            try bundle.allFilePaths() == ["hand_landmarker.task"]
                + Self.entries.map { "hand_landmarker.task/\($0.name)" }
                + [
                    "hand_gesture_recognizer.task", "hand_gesture_recognizer.task/gesture_embedder.tflite",
                    "hand_gesture_recognizer.task/custom_gesture_classifier.tflite",
                ])
        let model = try bundle.bundle(named: "hand_gesture_recognizer.task").model(
            named: "custom_gesture_classifier.tflite")
        #expect(try model.labels(forOutput: 0) == ["None", "wave"])
        #expect(try bundle.find("custom_gesture_classifier.tflite") == classifier)
        // The nested bundles' entries are aligned in the outer file too: a nested bundle starts at a multiple of 4.
        let outerLayout = try Self.layout(outer)
        for (start, nestedLayout) in zip(
            outerLayout.map(\.start),
            [try Self.layout(try ModelBundleWriter.bundle(Self.entries)), try Self.layout(inner)])
        {
            #expect(nestedLayout.allSatisfy { (start + $0.start) % 4 == 0 })
        }
    }

    /// The zip writer aligns data from the start of the file the archive ends, not the archive's own start.
    @Test func alignmentCountsFromTheFileStart() throws {
        let prefix = Data(repeating: 0xEE, count: 7)
        let archive = ZipWriter.archive(
            Self.entries.map { ZipWriter.Entry.stored($0.name, $0.data) }, startingAt: 7, alignment: 16)
        let layout = try Self.layout(prefix + archive)
        #expect(layout.count == Self.entries.count && layout.allSatisfy { $0.start % 16 == 0 }, "\(layout)")
        let files = try ZipArchive.appendedFiles(
            in: prefix + archive, name: "model", required: [], budget: InflateBudget(limit: 1 << 20))
        #expect(files == Dictionary(uniqueKeysWithValues: Self.entries.map { ($0.name, $0.data) }))
    }

    @Test func badEntryListsAreRefused() {
        let model = Data([1])
        let cases: [([(name: String, data: Data)], String)] = [
            ([], "there are no entries"),
            ([("a.tflite", model), ("", model)], "entry 1 has an empty name"),
            ([("a.tflite", model), ("b.tflite", model), ("a.tflite", model)], "two entries are named \"a.tflite\""),
            ([("models/", model)], "entry 0 \"models/\" is named like a directory"),
        ]
        for (entries, message) in cases {
            #expect(throws: VisionTasksError.invalidBundle("cannot write a bundle: \(message)")) {
                try ModelBundleWriter.bundle(entries)
            }
        }
    }
}

import FixtureSupport
import Foundation
import Testing

@testable import TFLite

/// Which label file names a classifier's categories and which its display names, on the real canned
/// gesture classifier given localized label files (LabelledModels): the rule of MediaPipe's metadata
/// extractor (`FindFirstAssociatedFileName`), whose effect MediaPipe 1.2.2 shows in
/// references/hands/display_names_locale.json (the "fr_first" case names categories in French).
@Suite
struct LabelLocaleTests {
    static func canned() throws -> Data {
        try TestSupport.modelData(
            "gesture_recognizer.task", "hand_gesture_recognizer.task/canned_gesture_classifier.tflite")
    }

    static func labelled(_ files: [LabelledModels.LabelFile]) throws -> TFLiteModel {
        try TFLiteModel(
            data: try LabelledModels.model(try canned(), labelFiles: files), name: "labelled canned classifier")
    }

    @Test func theRewrittenModelIsTheSameModelWithMetadata() throws {
        let original = try TFLiteModel(data: try Self.canned())
        #expect(original.modelMetadata == nil && original.associatedFiles.isEmpty)
        let model = try Self.labelled([.init("labels.txt", locale: nil, LabelledModels.cannedNames)])
        #expect(model.subgraphs == original.subgraphs && model.operatorCodes == original.operatorCodes)
        #expect(model.version == original.version && model.description == original.description)
        #expect(model.buffers.count == original.buffers.count + 1)
        for index in original.buffers.indices {
            #expect(model.bufferData(index) == original.bufferData(index), "buffer \(index)")
        }
        for (name, data) in original.metadata { #expect(model.metadata[name] == data, "metadata \(name)") }
        let files = try #require(model.modelMetadata?.subgraphs.first?.outputTensors.first?.associatedFiles)
        #expect(
            files.map(\.name) == ["labels.txt"] && files.map(\.type) == [.tensorAxisLabels]
                && files.map(\.locale) == [nil])
        #expect(model.associatedFiles.keys.sorted() == ["labels.txt"])
    }

    @Test func namesComeFromTheFirstFileAndDisplayNamesFromTheLocalesFile() throws {
        let model = try Self.labelled([
            .init("labels.txt", locale: nil, LabelledModels.cannedNames),
            .init("labels_fr.txt", locale: "fr", LabelledModels.cannedFrench),
        ])
        #expect(try model.labels(forOutput: 0) == LabelledModels.cannedNames)
        #expect(try model.labels(forOutput: 0, locale: "fr") == LabelledModels.cannedFrench)
        #expect(try model.labels(forOutput: 0, locale: "de") == nil)
        #expect(try model.labels(forOutput: 0, locale: "en") == nil)
        #expect(try model.labels(forOutput: 1, locale: "fr") == nil)
    }

    @Test func aLocalizedFileListedFirstNamesTheCategories() throws {
        let model = try Self.labelled([
            .init("labels_fr.txt", locale: "fr", LabelledModels.cannedFrench),
            .init("labels.txt", locale: nil, LabelledModels.cannedNames),
        ])
        #expect(try model.labels(forOutput: 0) == LabelledModels.cannedFrench)
        #expect(try model.labels(forOutput: 0, locale: "fr") == LabelledModels.cannedFrench)
    }
}

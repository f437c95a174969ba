import FixtureSupport
import Foundation
import TFLite
import Testing
import VisionCore

@testable import VisionTasks

/// `ClassifierOptions.displayNamesLocale` in the Gesture Recognizer, on the real bundle whose canned
/// classifier is given localized label files (LabelledModels), against MediaPipe 1.2.2 on the same
/// files (references/hands/display_names_locale.json, tools/references/make_locale_refs.py).
///
/// What MediaPipe does: category names come from the output's first label file, display names from its
/// first file in the locale ("en" when unset; none without one); a display-names file whose line count
/// differs from the labels' fails the task's creation. The per-classifier categories carry the display
/// names, but the recognizer's combined prediction copies only the name and score, so the gestures of
/// the result have an empty display name whatever the locale.
@Suite
struct DisplayNamesLocaleTests {
    struct Case: Decodable, CustomTestStringConvertible {
        struct Run: Decodable {
            let locale: String?
            let gestures: [[HandSupport.Category]]?
            let handedness: [[HandSupport.Category]]?
            let error: String?
        }
        let name: String
        let files: [LabelledModels.LabelFile]
        let results: [Run]
        var testDescription: String { name }

        private enum Keys: String, CodingKey { case name, files, results }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            name = try c.decode(String.self, forKey: .name)
            results = try c.decode([Run].self, forKey: .results)
            var list = try c.nestedUnkeyedContainer(forKey: .files)
            var files: [LabelledModels.LabelFile] = []
            while !list.isAtEnd {
                // [name, locale or null, [labels]]
                var entry = try list.nestedUnkeyedContainer()
                let fileName = try entry.decode(String.self)
                let locale = try entry.decodeNil() ? nil : try entry.decode(String.self)
                files.append(.init(fileName, locale: locale, try entry.decode([String].self)))
            }
            self.files = files
        }
    }

    static func cases() throws -> [Case] {
        struct File: Decodable { let cases: [Case] }
        let path = "hands/display_names_locale.json"
        return try Fixture.expecting(3, try Fixture.decode(File.self, path).cases, in: path)
    }

    static let tolerance = HandSupport.Tolerance()

    static func recognizer(_ bundle: Data, locale: String?) throws -> GestureRecognizer {
        try GestureRecognizer(
            options: GestureRecognizerOptions(baseOptions: BaseOptions(modelAssetBuffer: bundle)) {
                $0.cannedGesturesClassifierOptions = ClassifierOptions(displayNamesLocale: locale)
            })
    }

    static func thumbsUp() throws -> MPImage {
        try MPImage(contentsOfFile: HandSupport.fixture("images/hand_thumb_up.jpg"))
    }

    static func expect(
        _ ours: [[ResultCategory]], _ theirs: [[HandSupport.Category]], tolerance: Float, _ label: String
    ) {
        #expect(ours.count == theirs.count, "\(label): \(ours.count) lists, MediaPipe \(theirs.count)")
        for (a, b) in zip(ours.joined(), theirs.joined()) {
            #expect(
                a.index == b.index && a.categoryName == b.categoryName && a.displayName == b.displayName,
                "\(label): \(a) vs MediaPipe \(b)")
            #expect(abs(a.score - b.score) <= tolerance, "\(label): score \(a.score) vs MediaPipe \(b.score)")
        }
    }

    @Test(arguments: try cases())
    func recognizerMatchesMediaPipe(_ c: Case) throws {
        let bundle = try LabelledModels.gestureBundle(cannedLabelFiles: c.files)
        let image = try Self.thumbsUp()
        for run in c.results {
            let label = "\(c.name), locale \(run.locale.map { "\"\($0)\"" } ?? "unset")"
            if let error = run.error {
                // MediaPipe: "Mismatch between number of labels (8) and display names (7)."
                #expect(error.contains("labels (8) and display names (7)"), "\(label): reference \(error)")
                do {
                    _ = try Self.recognizer(bundle, locale: run.locale)
                    Issue.record("\(label): created; MediaPipe fails: \(error)")
                } catch let VisionTasksError.invalidOption(name, reason) {
                    #expect(name == "cannedGesturesClassifierOptions.displayNamesLocale", "\(label): \(name)")
                    #expect(
                        reason.contains("has 8 labels but 7 display names for locale \"fr\""), "\(label): \(reason)")
                }
                continue
            }
            let result = try Self.recognizer(bundle, locale: run.locale).recognize(image: image)
            Self.expect(
                result.gestures, run.gestures ?? [], tolerance: Self.tolerance.gestureScore, "\(label) gestures")
            Self.expect(
                result.handedness, run.handedness ?? [], tolerance: Self.tolerance.handednessScore,
                "\(label) handedness")
        }
    }

    @Test func defaultResultsAreUnchanged() throws {
        let image = try Self.thumbsUp()
        let real = try GestureRecognizer(modelPath: HandSupport.model("gesture_recognizer.task")).recognize(
            image: image)
        let bundle = try LabelledModels.gestureBundle(cannedLabelFiles: [
            .init("labels.txt", locale: nil, LabelledModels.cannedNames),
            .init("labels_fr.txt", locale: "fr", LabelledModels.cannedFrench),
        ])
        for locale in [nil, "fr"] {
            let labelled = try Self.recognizer(bundle, locale: locale).recognize(image: image)
            #expect(
                labelled.gestures == real.gestures && labelled.handedness == real.handedness,
                "locale \(locale ?? "unset")")
            #expect(labelled.landmarks == real.landmarks && labelled.worldLandmarks == real.worldLandmarks)
        }
        #expect(real.gestures.first?.first?.categoryName == "Thumb_Up" && real.gestures.first?.first?.displayName == "")
    }

    /// The canned classifier's own categories (before the combined prediction drops display names), as
    /// MediaPipe's TensorsToClassificationCalculator labels them from its label map.
    @Test func classifierCategoriesCarryTheLocalesDisplayNames() throws {
        let canned = try ModelBundle(contentsOfFile: HandSupport.model("gesture_recognizer.task"))
            .find("hand_gesture_recognizer.task/canned_gesture_classifier.tflite")
        let model = try TFLiteModel(
            data: try LabelledModels.model(
                canned,
                labelFiles: [
                    .init("labels.txt", locale: nil, LabelledModels.cannedNames),
                    .init("labels_fr.txt", locale: "fr", LabelledModels.cannedFrench),
                ]))
        func categories(_ locale: String?) throws -> [Classification] {
            let filter = try ClassifierOptions(displayNamesLocale: locale, maxResults: 2)
                .filter(model: model, entry: "canned", classCount: 8, defaultLabels: nil, option: "canned")
            return filter.classify([0.01, 0, 0, 0, 0.04, 0.9, 0.05, 0])
        }
        #expect(try categories("fr").map(\.label) == ["Thumb_Up", "Victory"])
        #expect(try categories("fr").map(\.displayName) == ["Pouce_levé", "Victoire"])
        #expect(try categories(nil).map(\.displayName) == ["", ""]) // "en": no such file
        #expect(try categories("de").map(\.displayName) == ["", ""])
        #expect(try categories("").map(\.displayName) == ["Thumb_Up", "Victory"]) // "": the first file
    }
}

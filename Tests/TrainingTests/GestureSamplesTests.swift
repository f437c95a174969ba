import Foundation
import Testing
import VisionErrors

@testable import Training

/// Reading label folders: Model Maker's rules (a `none` label, first) and clear errors.
@Suite struct GestureSamplesTests {
    static func folder(_ labels: [String: [String]]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-samples-\(UUID().uuidString)")
        for (label, files) in labels {
            let folder = root.appendingPathComponent(label)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files { try Data("x".utf8).write(to: folder.appendingPathComponent(file)) }
        }
        return root
    }

    @Test func noneComesFirstThenTheLabelsSorted() throws {
        let root = try Self.folder(["rock": ["a.jpg"], "NONE": ["b.jpg", ".hidden"], "call": ["c.jpg", "d.jpg"]])
        defer { try? FileManager.default.removeItem(at: root) }
        let samples = try GestureSamples(folder: root.path)
        #expect(samples.labels == ["NONE", "call", "rock"])
        #expect(samples.photos.map(\.label) == ["NONE", "call", "call", "rock"])
        #expect(samples.ignored.count == 1 && samples.ignored[0].hasSuffix(".hidden"))
        #expect(GestureTrainer.exportedName("NONE") == "None")
    }

    @Test func aMissingNoneLabelIsNamed() throws {
        let root = try Self.folder(["rock": ["a.jpg"], "call": ["c.jpg"]])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try GestureSamples(folder: root.path) } throws: { error in
            "\(error)".contains("no \"none\" label")
        }
    }

    @Test func wrongFoldersAndLabelsAreNamed() throws {
        #expect { try GestureSamples(folder: "/nonexistent/gestures") } throws: { error in
            if case VisionTasksError.fileNotFound = error { return true }
            return false
        }
        let root = try Self.folder(["none": ["a.jpg"], "empty": []])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try GestureSamples(folder: root.path) } throws: { "\($0)".contains("holds no photos") }
        #expect { try GestureSamples(photos: [.init(label: "none", name: "a", data: Data())]) } throws: {
            "\($0)".contains("only the none label")
        }
        #expect {
            try GestureSamples(photos: [
                .init(label: "none", name: "a", data: Data()), .init(label: "../x", name: "b", data: Data()),
            ])
        } throws: {
            "\($0)".contains("not a plain label name")
        }
        // Labels the written model cannot hold are refused now: they used to pass, train, and fail at export.
        for label in [" ", "a\rb", "a\u{2028}b"] {
            #expect {
                try GestureSamples(photos: [
                    .init(label: "none", name: "a", data: Data()), .init(label: label, name: "b", data: Data()),
                ])
            } throws: {
                "\($0)".contains("\(label.debugDescription) is not a plain label name")
            }
        }
    }
}

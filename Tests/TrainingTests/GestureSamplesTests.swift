import Foundation
import TFLite
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

    /// A macOS zip unpacked into the data leaves `__MACOSX/`: no label (it was one, or "holds no photos"), as the
    /// server's upload skips it.
    @Test func labelsDifferingOnlyByCaseAreNamed() throws {
        let root = try Self.folder(["none": ["a.jpg"], "one": ["b.jpg"], "One": ["c.jpg"], "two": ["d.jpg"]])
        defer { try? FileManager.default.removeItem(at: root) }
        let samples = try GestureSamples(folder: root.path)
        #expect(samples.labels == ["none", "One", "one", "two"])
        #expect(samples.labelsDifferingOnlyByCase == [["One", "one"]])
    }

    @Test func macOSArchiveFoldersAreNoLabel() throws {
        let root = try Self.folder([
            "none": ["a.jpg"], "one": ["b.jpg"], "__MACOSX": [], "__MACOSX/one": ["._b.jpg"],
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let samples = try GestureSamples(folder: root.path)
        #expect(samples.labels == ["none", "one"])
        #expect(samples.ignored == [root.appendingPathComponent("__MACOSX").path])
    }

    /// A label folder, or a photo, whose name is not UTF-8 is listed by Foundation under a name no file has: the
    /// label was dropped without a word (and trained without it). It is refused, named.
    @Test func aNameThatIsNotUTF8IsRefused() throws {
        for inLabel in [false, true] {
            let root = try Self.folder(["none": ["a.jpg"], "five": ["b.jpg"]])
            defer { try? FileManager.default.removeItem(at: root) }
            let parent = inLabel ? root.appendingPathComponent("five").path : root.path
            let bad = Array(parent.utf8) + Array("/fi".utf8) + [0xFF, 0xFE] + Array("ve".utf8) + [0]
            #expect(
                bad.withUnsafeBufferPointer {
                    mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755)
                } == 0)
            #expect { try GestureSamples(folder: root.path) } throws: { "\($0)".contains("a name that is not UTF-8") }
        }
    }

    /// Two labels spelled alike in two Unicode forms (a folder from macOS, decomposed, and one from Linux, composed)
    /// were one label to Swift's String equality: their photos were merged without a word. They are refused, named.
    @Test func oneLabelInTwoUnicodeSpellingsIsRefused() throws {
        let photos = ["none", "caf\u{E9}", "cafe\u{301}"].map {
            GestureSamples.Photo(label: $0, name: "\($0)/a.jpg", data: Data("x".utf8))
        }
        #expect { try GestureSamples(photos: photos) } throws: { error in
            "\(error)".contains("labels caf\\u{e9} and cafe\\u{301} are one name in two Unicode spellings")
        }
    }

    @Test func aMissingNoneLabelIsNamed() throws {
        let root = try Self.folder(["rock": ["a.jpg"], "call": ["c.jpg"]])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try GestureSamples(folder: root.path) } throws: { error in
            "\(error)".contains("no \"none\" label")
        }
    }

    /// A photo under two labels is found by its bytes: the same bytes under one label, or another photo of the same
    /// size and first 80 bytes (all `Data`'s own hash reads), is not.
    @Test func photosUnderSeveralLabelsAreFoundByTheirBytes() throws {
        let head = Data(repeating: 7, count: 80)
        let a = head + Data([1, 2, 3]), b = head + Data([1, 2, 4])
        let samples = try GestureSamples(photos: [
            .init(label: "none", name: "none/a", data: a), .init(label: "one", name: "one/a", data: a),
            .init(label: "one", name: "one/a-again", data: a), .init(label: "two", name: "two/b", data: b),
            .init(label: "two", name: "two/b-again", data: b),
        ])
        #expect(samples.photosUnderSeveralLabels == [["none/a", "one/a", "one/a-again"]])
    }

    @Test func wrongFoldersAndLabelsAreNamed() throws {
        #expect { try GestureSamples(folder: "/nonexistent/gestures") } throws: { error in
            if case VisionTasksError.fileNotFound = error { return true }
            return false
        }
        let root = try Self.folder(["none": ["a.jpg"], "empty": []])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try GestureSamples(folder: root.path) } throws: { "\($0)".contains("holds no photos") }
        // A link to itself is no missing folder ("File not found"): it leads nowhere, and the system says why.
        let loop = root.appendingPathComponent("loop").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        #expect { try GestureSamples(folder: loop) } throws: {
            "\($0)".contains("is a link that leads nowhere (Too many levels of symbolic links)")
        }
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
        // Labels the written model cannot hold are refused now: they used to pass, train, and fail at export. So are
        // labels a person could not tell apart on a screen: "None " would pass for the background label and is not.
        let refused = [
            (" ", "label is empty"), ("a\rb", "has a line break"), ("a\u{2028}b", "has a line break"),
            ("a\u{01}b", "holds a control character"), ("a\u{200B}b", "holds a control character"),
            ("None ", "begins or ends with white space"), ("\u{A0}five", "begins or ends with white space"),
            ("fi\u{FFFD}e", "holds U+FFFD"),
            // Longer than a folder name can be (a zip's names may be 65,535 bytes): 128 two-byte letters are 256.
            (String(repeating: "é", count: 128), "is 256 bytes long; a label holds at most 255"),
        ]
        #expect(ClassifierModelWriter.labelProblem(String(repeating: "a", count: 255)) == nil)
        for (label, problem) in refused {
            #expect {
                try GestureSamples(photos: [
                    .init(label: "none", name: "a", data: Data()), .init(label: label, name: "b", data: Data()),
                ])
            } throws: {
                "\($0)".contains(problem)
            }
        }
    }
}

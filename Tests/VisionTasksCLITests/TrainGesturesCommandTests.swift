import FixtureSupport
import Foundation
import Testing

/// `vision-tasks train-gestures`: a training that writes a bundle the tool then recognizes with, and each bad
/// input's error and exit status, with nothing left at `--output`.
@Suite
struct TrainGesturesCommandTests {
    static let base = CLIRun.models.appendingPathComponent("gesture_recognizer.task").path

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("train-gestures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Label folders of fixture photos: `none` and `one` of the fixture photos (Tests/Fixtures/gestures), plus `extra` files.
    static func data(in root: URL, extra: [String: Data] = [:]) throws -> URL {
        let data = root.appendingPathComponent("data")
        for label in ["none", "one"] {
            let folder = data.appendingPathComponent(label)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: Fixture.path("gestures/\(label)")) {
                try FileManager.default.copyItem(
                    atPath: Fixture.path("gestures/\(label)/\(name)"), toPath: folder.appendingPathComponent(name).path)
            }
        }
        for (path, bytes) in extra { try bytes.write(to: data.appendingPathComponent(path)) }
        return data
    }

    /// Labels a person likely did not mean train, with a warning each: two that differ only by case, and one holding a
    /// comma, which the recognizer's comma-separated lists cannot name.
    @Test func doubtfulLabelNamesAreWarnedOf() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = try Self.data(in: root)
        for label in ["One", "one,two"] {
            try FileManager.default.copyItem(
                at: data.appendingPathComponent("one"), to: data.appendingPathComponent(label))
        }
        let report = root.appendingPathComponent("report.json")
        let run = try CLIRun.run([
            "train-gestures", data.path, "--model", Self.base, "--output", root.appendingPathComponent("o.task").path,
            "--search", "off", "--epochs", "1", "--no-progress", "--report", report.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // The report keeps them (the server's answer is this report: an upload's client sees them too).
        let kept =
            try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])["warnings"]
            as? [String]
        #expect(
            kept?.map { "warning: \($0)\n" }.joined()
                == run.stderr.split(separator: "\n").filter {
                    $0.hasPrefix("warning: ")
                }.map { "\($0)\n" }.joined(), "\(String(describing: kept))")
        #expect(kept?.first?.hasPrefix("labels One and one differ only by case") == true)
        #expect(run.stderr.contains("warning: labels One and one differ only by case"), "\(run.stderr)")
        #expect(run.stderr.contains("warning: label \"one,two\" holds a comma"), "\(run.stderr)")
        // The copies are the same photos under three labels.
        let photo = try #require(
            try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("one").path).min())
        let three = ["One", "one", "one,two"].map { data.appendingPathComponent("\($0)/\(photo)").path }
        #expect(
            run.stderr.contains("warning: one photo stands under several labels (\(three.joined(separator: ", ")))"),
            "\(run.stderr)")
    }

    /// Ctrl-C while the model is written (its rename held 5 s by a preloaded `rename`) removes `<out>.partial-<pid>` and
    /// ends the run as SIGINT does: Foundation's temporary file of an atomic write stayed beside the output for good
    /// (a review found one per interrupted run, up to 200 MB each).
    @Test func aStopSignalWhileTheModelIsWrittenLeavesNoPartialFile() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("out.task")
        let ended = try CLIRun.stoppedWhileWriting(
            [
                "train-gestures", try Self.data(in: root).path, "--model", Self.base, "--output", output.path,
                "--search", "off", "--epochs", "1", "--no-progress",
            ], output: output, signal: SIGINT, scratch: root)
        #expect(ended.reason == .uncaughtSignal && ended.status == SIGINT)
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix("out.task") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func trainsAndTheToolRecognizesWithTheBundle() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        // A corrupt photo and a text file among the photos are skipped and counted.
        // Entries that are no photo of a label (a file beside the label folders) are ignored; the text names both.
        let data = try Self.data(
            in: root,
            extra: [
                "one/broken.jpg": Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 1]), "none/notes.txt": Data("hi".utf8),
                "stray.jpg": Data("x".utf8),
            ])
        let output = root.appendingPathComponent("mine.task").path,
            report = root.appendingPathComponent("report.json").path
        let run = try CLIRun.run([
            "train-gestures", data.path, "--model", Self.base, "--output", output, "--report", report,
            "--epochs", "3", "--seed", "5", "--no-progress",
        ])
        try #require(run.status == 0, "\(run.stderr)")
        // The settings search is on by default; epochs and seed were given, so they stay fixed in it.
        #expect(
            run.stdout.contains("settings search: ") && run.stdout.contains("fixed: epochs, seed")
                && run.stdout.contains("* chosen, then trained on every training hand")
                && run.stdout.contains("wrote \(output) (labels: None, one)"),
            "\(run.stdout)")
        #expect(
            run.stdout.contains("unreadable photos: 2\n") && run.stdout.contains("  \(data.path)/one/broken.jpg: ")
                && run.stdout.contains(
                    "ignored entries (not in a label folder, hidden, or a folder inside one): 1\n  \(data.path)/stray.jpg"
                ),
            "\(run.stdout)")
        struct Report: Decodable {
            struct Label: Decodable {
                var name: String
                var photos: Int
                var unreadable: Int
            }
            struct Skipped: Decodable {
                var photo: String
                var reason: String
            }
            var labels: [Label]
            var skipped: [Skipped]
            var options: [String: String]
        }
        let decoded = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: report)))
        #expect(decoded.labels.map(\.name) == ["none", "one"])
        #expect(decoded.labels.map(\.unreadable) == [1, 1] && decoded.labels.map(\.photos) == [21, 21])
        #expect(decoded.skipped.contains { $0.photo.hasSuffix("broken.jpg") && $0.reason.contains("broken.jpg") })
        #expect(decoded.options["epochs"] == "3" && decoded.options["seed"] == "5")
        let recognized = try CLIRun.run([
            "gesture-recognizer", "--model", output, "--canned-gestures-allowlist", "None",
            Fixture.path("gestures/one"),
        ])
        #expect(
            recognized.status == 0 && recognized.stdout.contains("\"categoryName\":\"one\""),
            "\(recognized.stdout.prefix(600))")
    }

    @Test func badInputsAreClearErrorsAndLeaveNoOutput() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = try Self.data(in: root)
        let output = root.appendingPathComponent("out.task").path
        func train(_ arguments: [String], _ data: String) throws -> CLIRun {
            try CLIRun.run(["train-gestures", data, "--model", Self.base, "--no-progress"] + arguments)
        }
        // No none folder.
        let noNone = root.appendingPathComponent("no-none/one")
        try FileManager.default.createDirectory(at: noNone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: data.appendingPathComponent("one").path + "/"
                + (try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("one").path)[0]),
            toPath: noNone.appendingPathComponent("a.jpg").path)
        let missingNone = try train(["--output", output], noNone.deletingLastPathComponent().path)
        #expect(missingNone.status == 1 && missingNone.stderr.contains("no \"none\" label"), "\(missingNone.stderr)")
        // A label whose photos show no hand.
        let blank = data.appendingPathComponent("blank")
        try FileManager.default.createDirectory(at: blank, withIntermediateDirectories: true)
        try Data(count: 64).write(to: blank.appendingPathComponent("zeros.png"))
        let noHand = try train(["--output", output], data.path)
        // The error gives the first unreadable photo's reason (a label of unreadable photos heard only about hands).
        #expect(
            noHand.status == 1 && noHand.stderr.contains("label \"blank\"")
                && noHand.stderr.contains("the first unreadable: \(blank.path)/zeros.png: "), "\(noHand.stderr)")
        try FileManager.default.removeItem(at: blank)
        // An output that cannot be written, an option out of range, a malformed one, a missing DATA folder.
        let unwritable = try train(["--output", "/nonexistent/folder/out.task"], data.path)
        #expect(unwritable.status == 1 && unwritable.stderr.contains("/nonexistent/folder"), "\(unwritable.stderr)")
        // /proc takes no new file even from root, whose permission bits say it may: refused before the photos are
        // read (it used to train fully and fail at the end), for the model and for the report.
        for (option, path) in [("--output", "/proc/out.task"), ("--report", "/proc/report.json")] {
            let refused = try train(["--output", output, option, path], data.path)
            #expect(
                refused.status == 1 && refused.stderr.contains("Invalid option \(option): cannot write \(path)")
                    && !refused.stdout.contains("accuracy"), "\(option): \(refused.stderr)")
        }
        // An output that is an input: the base model (a copy, by a link) or a photo. It used to be written over.
        let model = root.appendingPathComponent("base.task").path, link = root.appendingPathComponent("link.task").path
        try FileManager.default.copyItem(atPath: Self.base, toPath: model)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: model)
        let photo = try #require(try FileManager.default.contentsOfDirectory(atPath: data.path + "/one").first)
        for (option, path) in [("--output", link), ("--report", model), ("--output", data.path + "/one/" + photo)] {
            let overInput = try CLIRun.run(
                ["train-gestures", data.path, "--model", model, "--no-progress", "--output", output, option, path])
            #expect(
                overInput.status == 1 && overInput.stderr.contains("the run would write over what it reads"),
                "\(option) \(path): \(overInput.stderr)")
        }
        #expect(FileManager.default.contentsEqual(atPath: model, andPath: Self.base))
        let range = try train(["--output", output, "--dropout", "2"], data.path)
        #expect(range.status == 1 && range.stderr.contains("--dropout"), "\(range.stderr)")
        let malformed = try train(["--output", output, "--epochs", "many"], data.path)
        #expect(malformed.status == 64 && malformed.stderr.contains("--epochs"), "\(malformed.stderr)")
        let missing = try train(["--output", output], root.appendingPathComponent("nowhere").path)
        #expect(missing.status == 1 && missing.stderr.contains("nowhere"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).allSatisfy { !$0.contains("out.task") })
    }
}

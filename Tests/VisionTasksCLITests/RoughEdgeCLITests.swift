import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// The tool's messages and statuses where a user's command goes wrong: each names the flag and the
/// file the user gave, and nothing fails silently.
@Suite(.serialized) struct RoughEdgeCLITests {
    static let faceModel = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path
    static let image = CLIRun.fixtures.appendingPathComponent("astronaut.png").path

    @Test func annotatedPicturesAreWrittenWholeThroughLinksAndLeftNoneByAStop() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A link to a picture: the picture gets the annotation, the link stays (the rename replaced the link).
        let real = dir.appendingPathComponent("real.png"), link = dir.appendingPathComponent("link.png")
        try Data("old".utf8).write(to: real)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, Self.image, "--annotate", link.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(try MPImage(contentsOfFile: real.path).width == MPImage(contentsOfFile: Self.image).width)
        // SIGTERM while the picture is written: the run ends by it and leaves no partial picture (it stayed).
        let out = dir.appendingPathComponent("out.png")
        let ended = try CLIRun.stoppedWhileWriting(
            ["face-detector", "--model", Self.faceModel, Self.image, "--annotate", out.path], output: out,
            signal: SIGTERM, scratch: dir)
        #expect(ended.reason == .uncaughtSignal && ended.status == SIGTERM)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("out.png") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func annotateTargetsThatCannotBeWrittenAreNamed() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A picture where nothing can be written: the input's error line names --annotate and the file.
        let proc = try CLIRun.run(["face-detector", "--model", Self.faceModel, Self.image, "--annotate", "/proc/x.png"])
        #expect(proc.status == 1)
        #expect(
            proc.lines.first?["error"] as? String
                == "Invalid option --annotate: cannot write /proc/x.png: No such file or directory",
            "\(proc.stdout)")
        // An extension the tool cannot write is a usage error, not the name of a folder to create.
        let gif = dir.appendingPathComponent("out.gif")
        let asGif = try CLIRun.run(["face-detector", "--model", Self.faceModel, Self.image, "--annotate", gif.path])
        #expect(asGif.status == 64 && asGif.stderr.contains("not .gif"), "\(asGif.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gif.path))
        // A video into a folder that does not exist fails before the first frame, naming the output.
        let video = dir.appendingPathComponent("clip.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 5, fps: 10, size: "128x128", to: video)
        let target = dir.appendingPathComponent("missing/out.mp4").path
        let intoNothing = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", video.path, "--annotate", target,
        ])
        #expect(intoNothing.status == 1 && intoNothing.stdout.isEmpty, "\(intoNothing.stdout)")
        #expect(
            intoNothing.stderr
                == "error: Invalid option --annotate: cannot write \(target): No such file or directory\n")
    }

    @Test func foldersWithoutImagesAndStartPastTheEndFailWithALine() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("empty"), notes = dir.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data("text".utf8).write(to: notes.appendingPathComponent("readme.txt"))
        for folder in [empty, notes] {
            let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, folder.path])
            #expect(run.status == 1, "\(folder.lastPathComponent): \(run.stderr)")
            #expect(run.lines.count == 1 && run.lines.first?["input"] as? String == folder.path)
            #expect(
                run.lines.first?["error"] as? String
                    == "Invalid argument: \(folder.path) is a folder without JPEG or PNG images")
        }
        let video = dir.appendingPathComponent("clip.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 5, fps: 10, size: "128x128", to: video)
        let late = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", video.path, "--start", "3"])
        #expect(late.status == 1)
        let message = try #require(late.lines.first?["error"] as? String)
        #expect(message.hasPrefix("Invalid option --start: 3 is past the last frame of \(video.path)"), "\(message)")
        // A window between two frames (at 10 fps, none lies at 0.05 s) is not "past the last frame".
        let between = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", video.path, "--start", "0.05", "--end", "0.05",
        ])
        let window = try #require(between.lines.first?["error"] as? String)
        #expect(window.contains("lies between --start 0.05 and --end 0.05"), "\(window)")
    }

    /// A video holding more frames than its container declares (an AVI whose headers say 1 of 10): the progress
    /// bar's total grows with the frames read. Its row of dots used to get a negative length and trap.
    @Test func aVideoOfMoreFramesThanItDeclaresKeepsItsProgressBar() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let avi = dir.appendingPathComponent("ten.avi")
        try Tool.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=64x48:rate=25", "-frames:v", "10", "-c:v", "mjpeg", avi.path,
        ])
        var bytes = [UInt8](try Data(contentsOf: avi))
        // avih's total frames (16 bytes into its data) and strh's length (32 bytes into its data) become 1.
        for (chunk, field) in [("avih", 16), ("strh", 32)] {
            let at =
                try #require(
                    (0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array(chunk.utf8) }) + 8 + field
            #expect(bytes[at..<at + 4] == [10, 0, 0, 0])
            bytes.replaceSubrange(at..<at + 4, with: [1, 0, 0, 0])
        }
        try Data(bytes).write(to: avi)
        let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", avi.path, "--progress"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == 10 && run.stderr.contains("10/10"), "\(run.stderr)")
    }

    @Test func rangeErrorsNameTheFlagTyped() throws {
        let face = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--min-detection-confidence", "1.5", Self.image,
        ])
        #expect(
            face.status == 1
                && face.stderr == "error: Invalid option --min-detection-confidence: must be in [0, 1], got 1.5\n",
            "\(face.stderr)")
        let landmarker = try CLIRun.run([
            "face-landmarker", "--model", CLIRun.models.appendingPathComponent("face_landmarker.task").path,
            "--num-faces", "0", Self.image,
        ])
        #expect(landmarker.stderr.hasPrefix("error: Invalid option --num-faces:"), "\(landmarker.stderr)")
        let threads = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--threads", "0", Self.image])
        #expect(
            threads.status == 1 && threads.stderr.hasPrefix("error: Invalid option --threads:"), "\(threads.stderr)")
        // With several jobs too: each instance's share of the cores hid 1000 (the run went on with 2 threads each).
        let many = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--threads", "1000", "--jobs", "auto", Self.image, Self.image,
        ])
        #expect(
            many.status == 1 && many.stderr == "error: Invalid option --threads: must be in [1, 64], got 1000\n",
            "\(many.stderr)")
        let gestures = CLIRun.models.appendingPathComponent("gesture_recognizer.task").path
        let canned = try CLIRun.run([
            "gesture-recognizer", "--model", gestures, "--canned-gestures-max-results", "0", Self.image,
        ])
        #expect(canned.stderr.hasPrefix("error: Invalid option --canned-gestures-max-results:"), "\(canned.stderr)")
    }

    @Test func gestureRecognizerTakesTheCustomClassifierOptions() throws {
        // operations.task holds a custom classifier (none, 0, add, clear, divide, ...) beside the canned one.
        let bundle = CLIRun.models.appendingPathComponent("operations.task").path
        let thumb = CLIRun.fixtures.appendingPathComponent("hand_thumb_up.jpg").path
        func topGesture(_ extra: [String]) throws -> String? {
            let run = try CLIRun.run(["gesture-recognizer", "--model", bundle, thumb] + extra)
            #expect(run.status == 0, "\(extra): \(run.stderr)")
            let gestures = (run.lines.first?["result"] as? [String: Any])?["gestures"] as? [[[String: Any]]]
            return gestures?.first?.first?["categoryName"] as? String
        }
        // The custom classifier answers first; denying its answer leaves the canned one's.
        #expect(try topGesture([]) == "divide")
        #expect(try topGesture(["--custom-gestures-denylist", "divide"]) == "Thumb_Up")
        let bad = try CLIRun.run(["gesture-recognizer", "--model", bundle, "--custom-gestures-max-results", "0", thumb])
        #expect(
            bad.status == 1 && bad.stderr.hasPrefix("error: Invalid option --custom-gestures-max-results:"),
            "\(bad.stderr)")
    }

    @Test func gestureRecognizerTakesTheDisplayNamesLocale() throws {
        // The real bundle, its canned classifier given a "fr" label file (LabelledModels); MediaPipe 1.2.2
        // on it (references/hands/display_names_locale.json): the gesture keeps its name and an empty
        // display name whatever the locale, and a "fr" file one line short fails the task's creation.
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let thumb = CLIRun.fixtures.appendingPathComponent("hand_thumb_up.jpg").path
        func bundle(_ name: String, french: [String]) throws -> String {
            let url = dir.appendingPathComponent(name)
            try LabelledModels.gestureBundle(cannedLabelFiles: [
                .init("labels.txt", locale: nil, LabelledModels.cannedNames),
                .init("labels_fr.txt", locale: "fr", french),
            ]).write(to: url)
            return url.path
        }
        let good = try bundle("fr.task", french: LabelledModels.cannedFrench)
        let run = try CLIRun.run(["gesture-recognizer", "--model", good, "--display-names-locale", "fr", thumb])
        #expect(run.status == 0, "\(run.stderr)")
        let gesture = ((run.lines.first?["result"] as? [String: Any])?["gestures"] as? [[[String: Any]]])?.first?.first
        #expect(
            gesture?["categoryName"] as? String == "Thumb_Up" && gesture?["displayName"] as? String == "",
            "\(run.stdout)")
        let short = try bundle("short.task", french: Array(LabelledModels.cannedFrench.dropLast()))
        let bad = try CLIRun.run(["gesture-recognizer", "--model", short, "--display-names-locale", "fr", thumb])
        #expect(bad.status == 1 && bad.stdout.isEmpty, "\(bad.stdout)")
        #expect(
            bad.stderr
                == "error: Invalid option --display-names-locale: \(short): hand_gesture_recognizer.task: canned_gesture_classifier.tflite has 8 labels but 7 display names for locale \"fr\"\n",
            "\(bad.stderr)")
        let otherLocale = try CLIRun.run([
            "gesture-recognizer", "--model", short, "--display-names-locale", "de", thumb,
        ])
        #expect(otherLocale.status == 0, "\(otherLocale.stderr)")
    }

    @Test func liveDroppedCountsNeverDisagree() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 3 s at 80 fps: more frames than a debug build keeps up with, and status lines once a second.
        let video = dir.appendingPathComponent("fast.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 240, fps: 80, size: "320x320", to: video)
        let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--live", video.path])
        #expect(run.status == 0, "\(run.stderr)")
        let stderr = run.stderr.split(separator: "\n")
        func dropped(_ line: Substring) -> Int? { line.components(separatedBy: "dropped ").last.flatMap { Int($0) } }
        let statuses = stderr.filter { $0.hasPrefix("live: ") }.compactMap(dropped)
        let summary = try #require(stderr.last { $0.hasPrefix("summary: ") })
        let final = try #require(dropped(summary), "\(summary)")
        let processed = run.lines.count
        #expect(summary.contains("240 frames read, \(processed) processed, \(240 - processed) dropped"), "\(summary)")
        #expect(final == 240 - processed)
        // The status line counts only frames known dropped: it never goes down and never passes the summary.
        #expect(
            !statuses.isEmpty && statuses == statuses.sorted() && statuses.allSatisfy { $0 <= final },
            "\(statuses) then \(final)")
    }
}

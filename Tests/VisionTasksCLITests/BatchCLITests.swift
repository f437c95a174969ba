import FixtureSupport
import Foundation
import Testing

/// The tool as a batch worker: manifests (`--input-list`, `--video-list`), `--shard`, `--output`
/// with `--resume`, end to end through the built tool.
@Suite(.serialized) struct BatchCLITests {
    static let faceModel = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path
    static let fixtureNames = ["astronaut.png", "woman_sitting.jpg", "hand_thumb_up.jpg", "two_thumbs_up.jpg"]

    /// `count` distinct image files in `dir` (copies of the fixtures, small ones scaled down), in order.
    static func images(_ count: Int, in dir: URL) throws -> [String] {
        try (0..<count).map { i in
            let name = Self.fixtureNames[i % Self.fixtureNames.count]
            let target = dir.appendingPathComponent(String(format: "img%03d.", i) + (name as NSString).pathExtension)
            try FileManager.default.copyItem(at: CLIRun.fixtures.appendingPathComponent(name), to: target)
            return target.path
        }
    }

    static func write(_ lines: [String], to url: URL) throws {
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    /// The lines of a JSON-lines file, each decoded.
    static func jsonLines(_ url: URL) throws -> [[String: Any]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try #require(
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "line: \($0.prefix(80))")
        }
    }

    /// Runs the tool with `stdin` as its standard input.
    static func run(_ arguments: [String], stdin: URL) throws -> (stdout: String, stderr: String, status: Int32) {
        let process = Process()
        process.executableURL = CLIRun.binary
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: stdin)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let watchdog = Watchdog(process, name: "vision-tasks")
        let errRead = BackgroundRead(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = try errRead.value()
        process.waitUntilExit()
        try watchdog.finish()
        return (
            String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self),
            process.terminationStatus
        )
    }

    @Test func manifestGivesOneLinePerInputInOrderWithErrorLinesAndNoAbort() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var inputs = try Self.images(3, in: dir)
        inputs.insert(dir.appendingPathComponent("missing.jpg").path, at: 1)
        let broken = dir.appendingPathComponent("broken.png")
        try Data("not a picture".utf8).write(to: broken)
        inputs.append(broken.path)
        let manifest = dir.appendingPathComponent("list.txt")
        // Blank lines and CRLF endings are tolerated; paths are kept as given.
        try ((inputs.joined(separator: "\r\n") + "\n\n")).write(to: manifest, atomically: true, encoding: .utf8)

        let run = try Self.run(
            ["face-detector", "--model", Self.faceModel, "--input-list", "-", "--jobs", "2"], stdin: manifest)
        #expect(run.status == 1, "failed inputs make the exit status 1: \(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map { line in
            try #require(
                (try JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                "not a JSON object: \(line)")
        }
        #expect(lines.compactMap { $0["input"] as? String } == inputs)
        #expect(lines.map { $0["error"] != nil } == [false, true, false, false, true])
        #expect(run.stderr.contains("summary: 5 processed, 0 skipped, 2 failed"), "\(run.stderr)")

        // An empty manifest (an empty Spark partition) is no error.
        let empty = dir.appendingPathComponent("empty.txt")
        try Data().write(to: empty)
        let none = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--input-list", empty.path])
        #expect(
            none.status == 0 && none.stdout.isEmpty && none.stderr.contains("summary: 0 processed"), "\(none.stderr)")
        // A manifest that is not there is a run-time error naming it.
        let absent = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--input-list", "/nonexistent/list.txt",
        ])
        #expect(
            absent.status == 1 && absent.stderr == "error: File not found: /nonexistent/list.txt\n", "\(absent.stderr)")
        // A list that never ends is refused at 256 MiB, not read until memory runs out.
        let endless = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--input-list", "/dev/zero"])
        #expect(
            endless.status == 1 && endless.stderr.contains("/dev/zero holds more than 256 MiB: split the list"),
            "\(endless.stderr)")
        // A line that is not UTF-8 gets its own error line, its other bytes shown as \xHH (two such names stay
        // apart); the whole list was refused for it.
        let mixed = dir.appendingPathComponent("mixed.txt")
        var listBytes = Data((inputs[0] + "\n").utf8)
        for odd: [UInt8] in [[0xFF, 0xFE], [0xFE, 0xFF]] {
            listBytes += Data("bad_".utf8) + Data(odd) + Data(".jpg\n".utf8)
        }
        try listBytes.write(to: mixed)
        let listed = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--input-list", mixed.path])
        #expect(listed.status == 1, "\(listed.stderr)")
        #expect(
            listed.lines.compactMap { $0["input"] as? String } == [
                inputs[0], "bad_\\xFF\\xFE.jpg", "bad_\\xFE\\xFF.jpg",
            ])
        #expect(
            (listed.lines.last?["error"] as? String)?.contains("(line 3 of \(mixed.path)) is not UTF-8") == true,
            "\(listed.stdout)")
        // Its shown name may be a real file's: that file is read, and the line still gets its error line, with
        // --resume too (it was taken for the file, or skipped as finished by the file's result).
        let literal = dir.appendingPathComponent("lit_\\xFF.jpg")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: inputs[0]), to: literal)
        let raw = Data((dir.path + "/lit_").utf8) + Data([0xFF]) + Data(".jpg\n".utf8)
        let both = dir.appendingPathComponent("both.txt"), rawOnly = dir.appendingPathComponent("raw.txt")
        try (Data((literal.path + "\n").utf8) + raw).write(to: both)
        try raw.write(to: rawOnly)
        let shared = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--input-list", both.path])
        #expect(shared.lines.map { $0["error"] == nil } == [true, false], "\(shared.stdout)")
        let results = dir.appendingPathComponent("shared.jsonl"), literalOnly = dir.appendingPathComponent("lit.txt")
        try Data((literal.path + "\n").utf8).write(to: literalOnly)
        let first = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--input-list", literalOnly.path, "--output", results.path,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let resumed = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--input-list", rawOnly.path, "--output", results.path,
            "--resume",
        ])
        #expect(
            resumed.status == 1 && resumed.stderr.contains("1 processed, 0 skipped, 1 failed"), "\(resumed.stderr)")
        // The raw line first, the real file last: a resume leaves both out (the raw line was run again, its error line
        // added each time, once the real file's success came last).
        let rawFirst = dir.appendingPathComponent("rawfirst.txt"), ordered = dir.appendingPathComponent("ordered.jsonl")
        try (raw + Data((literal.path + "\n").utf8)).write(to: rawFirst)
        let orderedRun = [
            "face-detector", "--model", Self.faceModel, "--input-list", rawFirst.path, "--output", ordered.path,
            "--resume",
        ]
        #expect(try CLIRun.run(orderedRun).status == 1)
        let again = try CLIRun.run(orderedRun)
        #expect(again.stderr.contains("0 processed, 2 skipped (1 had failed"), "\(again.stderr)")
        #expect(try Self.jsonLines(ordered).count == 2)
        // A line longer than any path (its result line would be too long for --resume to read back).
        let long = dir.appendingPathComponent("long.txt")
        try Data((String(repeating: "a", count: 5000) + "\n").utf8).write(to: long)
        let refused = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--input-list", long.path])
        #expect(
            refused.status == 1
                && refused.stderr.contains("line 1 of \(long.path) is longer than a path can be (4096 bytes)"),
            "\(refused.stderr)")
    }

    /// A list from standard input with an `--output` that exists (`--resume` on a run cut short): the list is read
    /// once. It was read for the output-is-an-input check, and the run then found standard input empty: nothing
    /// processed, exit 0.
    /// `--output -` is standard output, as a filter takes it (a file named "-" was written), and so cannot be resumed.
    @Test func anOutputOfADashIsStandardOutput() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--output", "-", image], in: dir)
        #expect(run.status == 0 && run.lines.count == 1 && run.lines[0]["input"] as? String == image, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let resumed = try CLIRun.run(
            ["face-detector", "--model", Self.faceModel, "--output", "-", "--resume", image], in: dir)
        #expect(resumed.status == 64 && resumed.stderr.contains("--resume needs --output FILE (a file, not -)"))
    }

    /// `--resume` into a device reads no earlier run (/dev/zero was read for ever, no word); a CSV table whose lines end
    /// in CR LF is named so (it was "does not start with this task's CSV header", which it does).
    @Test func resumeRefusesDevicesAndNamesCRLF() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        for device in ["/dev/zero", "/dev/full"] {
            let started = Date()
            let run = try CLIRun.run([
                "face-detector", "--model", Self.faceModel, "--output", device, "--resume", image,
            ])
            #expect(
                run.status == 1 && run.stderr.contains("\(device) is not a regular file (a device or a pipe)"),
                "\(run.stderr)")
            #expect(Date().timeIntervalSince(started) < 10)
        }
        let table = dir.appendingPathComponent("t.csv")
        let first = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--format", "csv", "--output", table.path, image,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let crlf = try String(contentsOf: table, encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n")
        try crlf.write(to: table, atomically: true, encoding: .utf8)
        let resumed = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--format", "csv", "--output", table.path, "--resume", image,
        ])
        #expect(resumed.status == 1 && resumed.stderr.contains("its lines end in CR LF"), "\(resumed.stderr)")
    }

    /// A folder two links lead to is named through the first link by name, whatever order the folder lists them in
    /// (on tmpfs, newest first: two copies of one tree, made in another order, named its images differently).
    @Test func aFolderTwoLinksLeadToIsNamedThroughTheFirstByName() throws {
        let shm = URL(fileURLWithPath: "/dev/shm")
        let base = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let dir = base.appendingPathComponent("cli-links-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let shared = dir.appendingPathComponent("C")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLIRun.fixtures.appendingPathComponent("astronaut.png"), to: shared.appendingPathComponent("x.png"))
        var names: [String] = []
        for (tree, order) in [("t1", ["l1", "l2"]), ("t2", ["l2", "l1"])] {
            let folder = dir.appendingPathComponent(tree)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for link in order {
                try FileManager.default.createSymbolicLink(
                    atPath: folder.appendingPathComponent(link).path, withDestinationPath: "../C")
            }
            let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, folder.path])
            #expect(run.status == 0 && run.lines.count == 1, "\(run.stderr)")
            names.append(((run.lines.first?["input"] as? String) ?? "").replacingOccurrences(of: folder.path, with: ""))
        }
        #expect(names == ["/l1/x.png", "/l1/x.png"])
    }

    /// Two files whose names are one text in two Unicode forms (a composed and a decomposed "é") are two inputs: a
    /// resume skipped the second as finished once the first was (String's `==` takes them for one name).
    @Test func namesInTwoUnicodeFormsAreTwoInputsToAResume() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = CLIRun.fixtures.appendingPathComponent("astronaut.png")
        for name in ["\u{E9}.png", "e\u{301}.png"] {
            try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(name))
        }
        let output = dir.appendingPathComponent("out.jsonl")
        let first = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--output", output.path, folder.path])
        #expect(first.status == 0 && first.stderr.contains("2 processed"), "\(first.stderr)")
        // Keep the line of one of them, as a run cut after it would have left the file.
        let lines = try Data(contentsOf: output).split(separator: UInt8(ascii: "\n"))
        try (lines[0] + Data("\n".utf8)).write(to: output)
        let resumed = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--output", output.path, "--resume", folder.path,
        ])
        #expect(resumed.status == 0 && resumed.stderr.contains("1 processed, 1 skipped"), "\(resumed.stderr)")
        #expect(try Data(contentsOf: output).split(separator: UInt8(ascii: "\n")).count == 2)
    }

    @Test func aListFromStandardInputResumesIntoAnExistingOutput() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.images(2, in: dir)
        let manifest = dir.appendingPathComponent("list.txt"), output = dir.appendingPathComponent("out.jsonl")
        try (inputs.joined(separator: "\n") + "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let first = try Self.run(
            ["face-detector", "--model", Self.faceModel, "--input-list", "-", "--output", output.path], stdin: manifest)
        #expect(first.status == 0, "\(first.stderr)")
        // Keep the first input's line only, as a run cut after it would have left the file.
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        try (lines[0] + "\n").write(to: output, atomically: true, encoding: .utf8)
        let resumed = try Self.run(
            ["face-detector", "--model", Self.faceModel, "--input-list", "-", "--output", output.path, "--resume"],
            stdin: manifest)
        #expect(resumed.status == 0 && resumed.stderr.contains("1 processed"), "\(resumed.stderr)")
        let inputsDone = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["input"] as? String
        }
        #expect(inputsDone == inputs.map { $0 as String? })
    }

    @Test func theShardsOfAManifestTogetherAreTheUnshardedRun() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.images(10, in: dir) + [dir.appendingPathComponent("missing.png").path]
        let manifest = dir.appendingPathComponent("list.txt")
        try Self.write(inputs, to: manifest)
        let whole = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--input-list", manifest.path, "--threads", "1",
        ])
        let wholeLines = whole.stdout.split(separator: "\n").map(String.init)
        #expect(wholeLines.count == inputs.count)
        var union: [String] = []
        for k in 0..<3 {
            let shard = try CLIRun.run([
                "face-detector", "--model", Self.faceModel, "--input-list", manifest.path, "--threads", "1",
                "--shard", "\(k)/3",
            ])
            let lines = shard.stdout.split(separator: "\n").map(String.init)
            // Each shard keeps the manifest's order.
            let order = shard.lines.compactMap { $0["input"] as? String }.compactMap { inputs.firstIndex(of: $0) }
            #expect(order == order.sorted(), "shard \(k)")
            union += lines
        }
        #expect(union.count == wholeLines.count, "no input in two shards, none in no shard")
        #expect(union.sorted() == wholeLines.sorted())
        let bad = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--input-list", manifest.path, "--shard", "3/3",
        ])
        #expect(bad.status == 64 && bad.stderr.contains("--shard 3/3"), "\(bad.stderr)")
    }

    /// A resumed run that skips inputs an earlier run finished with a failure exits 1 and says how many: it exited 0
    /// over them (a job resumed after preemption reported success). JSON lines and CSV alike; inputs of the file that
    /// this run does not name do not count.
    @Test func aResumedRunOverEarlierFailuresIsNoSuccess() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try Self.images(2, in: dir)
        let missing = dir.appendingPathComponent("missing.jpg").path
        let list = dir.appendingPathComponent("list.txt"), goodList = dir.appendingPathComponent("good.txt")
        try Self.write(good + [missing], to: list)
        try Self.write(good, to: goodList)
        for format in ["jsonl", "csv"] {
            let out = dir.appendingPathComponent("out.\(format)")
            func run(_ list: URL) throws -> CLIRun {
                try CLIRun.run([
                    "face-detector", "--model", Self.faceModel, "--input-list", list.path, "--output", out.path,
                    "--format", format, "--resume",
                ])
            }
            #expect(try run(list).status == 1)
            let again = try run(list)
            #expect(again.status == 1, "\(format): \(again.stderr)")
            #expect(
                again.stderr.contains("0 processed, 3 skipped (1 had failed in an earlier run"), "\(again.stderr)")
            let others = try run(goodList)
            #expect(
                others.status == 0 && others.stderr.contains("0 processed, 2 skipped, 0 failed"), "\(others.stderr)")
        }
    }

    @Test func aRunKilledMidwayResumesWithEveryInputExactlyOnce() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.images(24, in: dir)
        let manifest = dir.appendingPathComponent("list.txt")
        try Self.write(inputs, to: manifest)
        let output = dir.appendingPathComponent("out.jsonl")
        let arguments = [
            "face-detector", "--model", Self.faceModel, "--input-list", manifest.path, "--output", output.path,
            "--resume",
        ]

        // Start, wait for a few lines in the file, SIGKILL.
        let process = Process()
        process.executableURL = CLIRun.binary
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if text.filter({ $0 == "\n" }).count >= 4 { break }
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        // Whole lines written before the kill (a line it cut short, if any, is not counted).
        let before = try String(contentsOf: output, encoding: .utf8).filter { $0 == "\n" }.count
        #expect(before >= 4 && before < inputs.count, "killed after \(before) of \(inputs.count) lines")
        // A kill in the middle of a write leaves a partial line: make sure there is one.
        let handle = try FileHandle(forWritingTo: output)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"input":"\#(inputs[before])","result":{"detec"#.utf8))
        try handle.close()
        // Appended to without --resume, the next line was glued to the cut one (a line that is no JSON).
        let cutFile = try Data(contentsOf: output)
        let appended = try CLIRun.run(Array(arguments.dropLast()))
        #expect(appended.status == 1 && appended.stderr.contains("ends in a cut line"), "\(appended.stderr)")
        #expect(try Data(contentsOf: output) == cutFile)

        let resumed = try CLIRun.run(arguments)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("removed 1 line(s)"), "\(resumed.stderr)")
        #expect(
            resumed.stderr.contains("summary: \(inputs.count - before) processed, \(before) skipped, 0 failed"),
            "\(resumed.stderr)")
        let lines = try Self.jsonLines(output)
        #expect(lines.compactMap { $0["input"] as? String } == inputs, "every input exactly once, in order")
        #expect(lines.allSatisfy { $0["result"] != nil })

        // Resuming a finished file does nothing more.
        let again = try CLIRun.run(arguments)
        #expect(
            again.status == 0 && again.stderr.contains("summary: 0 processed, \(inputs.count) skipped"),
            "\(again.stderr)")
        #expect(try Self.jsonLines(output).count == inputs.count)
        // A file that is not the tool's output is refused, not overwritten.
        let foreign = dir.appendingPathComponent("notes.jsonl")
        try Data("hello\n".utf8).write(to: foreign)
        let refused = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--input-list", manifest.path,
            "--output", foreign.path, "--resume",
        ])
        #expect(
            refused.status == 1
                && refused.stderr.contains("line 1 of \(foreign.path) is not a vision-tasks result line"),
            "\(refused.stderr)")
    }

    @Test func videoListEndsEachVideoWithItsSummaryLineAndResumesAVideoCutShort() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("a.mp4"), second = dir.appendingPathComponent("b.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 4, fps: 10, size: "128x128", to: first)
        try CLIRun.stillVideo(of: "woman_sitting.jpg", frames: 3, fps: 10, size: "160x96", to: second)
        let missing = dir.appendingPathComponent("missing.mp4")
        let manifest = dir.appendingPathComponent("videos.txt")
        try Self.write([first.path, missing.path, second.path], to: manifest)
        let output = dir.appendingPathComponent("out.jsonl")
        let arguments = [
            "face-detector", "--model", Self.faceModel, "--video-list", manifest.path, "--output", output.path,
            "--resume",
        ]

        let run = try CLIRun.run(arguments)
        #expect(run.status == 1, "the missing video fails the run: \(run.stderr)")
        #expect(run.stdout.isEmpty, "results go to the file")
        let lines = try Self.jsonLines(output)
        #expect(
            lines.map { ($0["input"] as? String).map { ($0 as NSString).lastPathComponent } ?? "" }
                == ["a.mp4", "a.mp4", "a.mp4", "a.mp4", "a.mp4", "missing.mp4", "b.mp4", "b.mp4", "b.mp4", "b.mp4"])
        #expect(lines.compactMap { $0["frame"] as? Int } == [0, 1, 2, 3, 0, 1, 2])
        #expect((lines[4]["video"] as? [String: Int]) == ["frames": 4, "failed": 0])
        #expect((lines[5]["error"] as? String)?.contains("missing.mp4") == true)
        #expect((lines[9]["video"] as? [String: Int]) == ["frames": 3, "failed": 0])

        // Cut the file after b.mp4's second frame, as a kill would: resuming redoes b.mp4 whole.
        let text = try String(contentsOf: output, encoding: .utf8)
        let kept =
            text.split(separator: "\n", omittingEmptySubsequences: false).prefix(8).joined(separator: "\n") + "\n"
        try kept.write(to: output, atomically: true, encoding: .utf8)
        let resumed = try CLIRun.run(arguments)
        #expect(resumed.status == 1, "the missing video still failed: \(resumed.stderr)")
        #expect(
            resumed.stderr.contains("removed 2 line(s)")
                && resumed.stderr.contains("1 videos processed, 2 skipped (1 had failed in an earlier run"),
            "\(resumed.stderr)")
        let after = try Self.jsonLines(output)
        #expect(after.count == lines.count)
        #expect(after.compactMap { $0["frame"] as? Int } == [0, 1, 2, 3, 0, 1, 2])
    }
}

import FixtureSupport
import Foundation
import TFLite
import Testing

/// Hostile files through the built tool (issue 10): a zip bomb and decompression-bomb images give a clear
/// error line naming the file, the limit and the flag, fast and with little memory.
@Suite struct HostileFileCLITests {
    /// One run of the tool with its exit status, output, peak RSS and wall time.
    struct Measured {
        let status: Int32
        let stdout: String
        let stderr: String
        let maxRSSBytes: Int
        let seconds: Double
    }

    /// Runs the tool with `arguments` under GNU time, which forks it from its own small process: the peak RSS
    /// is the tool's alone (a child spawned straight from this test process reports this process's peak,
    /// as Linux carries the parent's high-water mark across vfork and exec).
    static func measure(_ arguments: [String], in dir: URL) throws -> Measured {
        let rssFile = dir.appendingPathComponent("rss-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", rssFile.path, CLIRun.binary.path] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let start = ContinuousClock.now
        try process.run()
        let watchdog = Watchdog(process, name: "vision-tasks")
        let errRead = BackgroundRead(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = try errRead.value()
        process.waitUntilExit()
        try watchdog.finish()
        let elapsed = ContinuousClock.now - start
        let rssText =
            try String(contentsOf: rssFile, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
        let kilobytes = try #require(Int(rssText.trimmingCharacters(in: .whitespaces)), "GNU time wrote \(rssText)")
        return Measured(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), maxRSSBytes: kilobytes * 1024,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    @Test func zipBombFailsFastWithLittleMemory() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Four deflated 1 GiB entries of zeros, named as a hand landmarker bundle's models (about 4 MB).
        let bomb = dir.appendingPathComponent("bomb.task")
        try ZipWriter.archive(
            try ["hand_detector.tflite", "hand_landmarks_detector.tflite", "a.bin", "b.bin"].map {
                try ZipWriter.zeros($0, mebibytes: 1024)
            }
        ).write(to: bomb)
        let image = CLIRun.fixtures.appendingPathComponent("hand_thumb_up.jpg").path

        // The tool's own start-up (a debug build on a loaded machine) is timed apart: a missing model fails at once.
        let baseline = try Self.measure(
            ["hand-landmarker", "--model", dir.appendingPathComponent("none.task").path, image], in: dir)
        let run = try Self.measure(["hand-landmarker", "--model", bomb.path, image, "--no-progress"], in: dir)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "\(bomb.path) entry \"hand_detector.tflite\" inflates past the limit of 67108864 decompressed bytes"),
            "\(run.stderr)")
        #expect(run.stderr.contains("--max-bundle-bytes"))
        #expect(run.seconds - baseline.seconds < 1, "\(run.seconds) s, start-up \(baseline.seconds) s")
        #expect(run.maxRSSBytes < 100 << 20, "\(run.maxRSSBytes) bytes")

        // `model info` lists the bundle from its directory, inflating nothing.
        let info = try Self.measure(["model", "info", bomb.path], in: dir)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("hand_detector.tflite (1073741824 bytes)"), "\(info.stdout)")
        #expect(info.maxRSSBytes < 100 << 20, "\(info.maxRSSBytes) bytes")

        // A lower limit is a flag away, and named in the error.
        let low = try Self.measure(
            ["model", "info", bomb.path, "--entry", "a.bin", "--max-bundle-bytes", "1000"], in: dir)
        #expect(low.status == 1)
        #expect(low.stderr.contains("limit of 1000 decompressed bytes"), "\(low.stderr)")
    }

    @Test func aLargeFileThatIsNoImageIsRefusedUnread() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 1.5 GB of zeros named as a photo (sparse: no disk taken); it used to be read whole before its first bytes
        // were looked at, 1.5 GB of memory per job.
        let big = dir.appendingPathComponent("big.jpg")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 1_500_000_000)
        try handle.close()
        let model = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path
        let run = try Self.measure(["face-detector", "--model", model, big.path, "--no-progress"], in: dir)
        #expect(run.status == 1)
        #expect(run.stdout.contains("not a JPEG or PNG file (unrecognised signature)"), "\(run.stdout)")
        #expect(run.maxRSSBytes < 300 << 20, "\(run.maxRSSBytes) bytes")
    }

    @Test func imageBombIsRefusedWithTheFlagNamed() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // astronaut.png (512x512) under --max-image-pixels 1000: refused on its own JSON line, exit 1.
        let image = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        let model = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path
        let run = try Self.measure(
            ["face-detector", "--model", model, image, "--max-image-pixels", "1000", "--no-progress"], in: dir)
        #expect(run.status == 1)
        #expect(run.stdout.contains("512x512 (262144 pixels), more than the limit of 1000 pixels"), "\(run.stdout)")
        #expect(run.stdout.contains("--max-image-pixels"))
    }

    /// A named pipe given as a photo, alone or in a folder of label folders, is a clear error, not a wait for a
    /// writer that never comes: both runs used to hang for ever (the second after finding the other photos' hands).
    @Test func aNamedPipeAsAPhotoIsAnErrorNotAHang() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = try TrainGesturesCommandTests.data(in: dir)
        let pipe = data.appendingPathComponent("one/pipe.jpg").path
        try #require(mkfifo(pipe, 0o644) == 0)
        let model = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path
        let alone = try CLIRun.run(["face-detector", "--model", model, pipe, "--no-progress"])
        #expect(alone.status == 1 && alone.stdout.contains("\(pipe): it is not a regular file"), "\(alone.stdout)")
        let training = try CLIRun.run([
            "train-gestures", data.path, "--model",
            CLIRun.models.appendingPathComponent("gesture_recognizer.task").path,
            "--output", dir.appendingPathComponent("mine.task").path, "--search", "off", "--epochs", "1",
            "--no-progress",
        ])
        #expect(training.status == 0, "\(training.stderr)")
        // The report's row of `one`: 21 photos, the pipe among them counted unreadable.
        let row = training.outputLines.map { $0.split(separator: " ") }.first { $0.first == "one" }
        #expect(row?[1] == "21" && row?[4] == "1", "\(training.stdout)")
    }
}

import Foundation
import Testing
import TFLite

/// Hostile files through the built tool (issue 10): a zip bomb and decompression-bomb images give a clear
/// error line naming the file, the limit and the flag, fast and with little memory.
@Suite struct HostileFileCLITests {
    /// One run of the tool with its exit status, stderr, peak RSS (from wait4) and wall time.
    struct Measured {
        let status: Int32
        let stdout: String
        let stderr: String
        let maxRSSBytes: Int
        let seconds: Double
    }

    /// Runs the tool with `arguments`, measuring that process alone (not the test process's other children).
    static func measure(_ arguments: [String], in dir: URL) throws -> Measured {
        let outPath = dir.appendingPathComponent("out-\(UUID().uuidString)").path
        let errPath = outPath + ".err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([CLIRun.binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        guard posix_spawn(&pid, CLIRun.binary.path, &actions, nil, argv, environ) == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - start
        let read = { (path: String) in String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self) }
        // A normal exit gives its code; a signal gives 128 + the signal, as a shell reports it.
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Measured(status: exit, stdout: read(outPath), stderr: read(errPath), maxRSSBytes: usage.ru_maxrss * 1024,
                        seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    @Test func zipBombFailsFastWithLittleMemory() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Four deflated 1 GiB entries of zeros, named as a hand landmarker bundle's models (about 4 MB).
        let bomb = dir.appendingPathComponent("bomb.task")
        try ZipWriter.archive(try ["hand_detector.tflite", "hand_landmarks_detector.tflite", "a.bin", "b.bin"].map {
            try ZipWriter.zeros($0, mebibytes: 1024)
        }).write(to: bomb)
        let image = CLIRun.fixtures.appendingPathComponent("hand_thumb_up.jpg").path

        // The tool's own start-up (a debug build on a loaded machine) is timed apart: a missing model fails at once.
        let baseline = try Self.measure(["hand-landmarker", "--model", dir.appendingPathComponent("none.task").path, image], in: dir)
        let run = try Self.measure(["hand-landmarker", "--model", bomb.path, image, "--no-progress"], in: dir)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("\(bomb.path) entry \"hand_detector.tflite\" inflates past the limit of 67108864 decompressed bytes"), "\(run.stderr)")
        #expect(run.stderr.contains("--max-bundle-bytes"))
        #expect(run.seconds - baseline.seconds < 1, "\(run.seconds) s, start-up \(baseline.seconds) s")
        #expect(run.maxRSSBytes < 100 << 20, "\(run.maxRSSBytes) bytes")

        // `model info` lists the bundle from its directory, inflating nothing.
        let info = try Self.measure(["model", "info", bomb.path], in: dir)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("hand_detector.tflite (1073741824 bytes)"), "\(info.stdout)")
        #expect(info.maxRSSBytes < 100 << 20, "\(info.maxRSSBytes) bytes")

        // A lower limit is a flag away, and named in the error.
        let low = try Self.measure(["model", "info", bomb.path, "--entry", "a.bin", "--max-bundle-bytes", "1000"], in: dir)
        #expect(low.status == 1)
        #expect(low.stderr.contains("limit of 1000 decompressed bytes"), "\(low.stderr)")
    }

    @Test func imageBombIsRefusedWithTheFlagNamed() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // astronaut.png (512x512) under --max-image-pixels 1000: refused on its own JSON line, exit 1.
        let image = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        let model = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path
        let run = try Self.measure(["face-detector", "--model", model, image, "--max-image-pixels", "1000", "--no-progress"], in: dir)
        #expect(run.status == 1)
        #expect(run.stdout.contains("512x512 (262144 pixels), more than the limit of 1000 pixels"), "\(run.stdout)")
        #expect(run.stdout.contains("--max-image-pixels"))
    }
}

import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// `vision-tasks background`, run as a user runs it: a fixture video in, an MP4 out whose background
/// pixels changed and whose person pixels were kept, for each effect; and each error, reported before
/// the source is opened where it can be.
@Suite struct BackgroundCommandTests {
    private var model: String { CLIRun.models.appendingPathComponent("selfie_segmenter.tflite").path }

    /// Frame `index` of `video` as packed RGB bytes (via a PNG ffmpeg writes).
    private func frame(_ index: Int, of video: URL, in scratch: URL) throws -> [UInt8] {
        let png = scratch.appendingPathComponent("frame-\(video.lastPathComponent)-\(index).png")
        try CLIRun.ffmpeg(["-i", video.path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1", png.path])
        let image = try MPImage(contentsOfFile: png.path).uprightRGB()
        return image.withUnsafeBufferBytes { [UInt8]($0) }
    }

    @Test(arguments: [
        ["--color", "00FF00"], ["--blur", "12"],
        ["--replace", CLIRun.fixtures.appendingPathComponent("astronaut.png").path],
    ])
    func theBackgroundChangesAndThePersonStays(effect: [String]) throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("in.mp4"), output = scratch.appendingPathComponent("out.mp4")
        try CLIRun.stillVideo(of: "woman_sitting.jpg", frames: 6, fps: 10, to: input)
        let run = try CLIRun.run(
            ["background", "--model", model, "--video", input.path, "--output", output.path] + effect)
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(run.lines.last)
        #expect(summary["frames"] as? Double == 6 && summary["segmented"] as? Double ?? 0 >= 1, "\(summary)")
        #expect(try CLIRun.frameCount(output.path) == 6)
        // The library's mask of the same decoded frame says which pixels are the person.
        let before = try frame(5, of: input, in: scratch), after = try frame(5, of: output, in: scratch)
        #expect(before.count == 960 * 640 * 3 && after.count == before.count)
        let picture = try before.withUnsafeBytes {
            try MPImage(pixels: $0, width: 960, height: 640, bytesPerRow: 960 * 3, format: .rgb8)
        }
        let mask = try #require(try ImageSegmenter(modelPath: model).segment(image: picture).confidenceMasks?.first)
        var person: (sum: Double, count: Int) = (0, 0), background: (sum: Double, count: Int) = (0, 0)
        var green = 0
        for (i, p) in mask.float32Data.enumerated() where p > 0.97 || p < 0.03 {
            let change = (0..<3).map { abs(Double(before[i * 3 + $0]) - Double(after[i * 3 + $0])) }.reduce(0, +) / 3
            if p > 0.97 {
                person = (person.sum + change, person.count + 1)
            } else {
                background = (background.sum + change, background.count + 1)
                if after[i * 3 + 1] > 200 && after[i * 3] < 60 && after[i * 3 + 2] < 60 { green += 1 }
            }
        }
        #expect(person.count > 50_000 && background.count > 200_000, "\(person.count) \(background.count)")
        let (personChange, backgroundChange) = (
            person.sum / Double(person.count), background.sum / Double(background.count)
        )
        #expect(personChange < 6, "the person changed by \(personChange) levels on average")
        #expect(backgroundChange > 12, "the background changed by only \(backgroundChange) levels on average")
        if effect[0] == "--color" {
            #expect(Double(green) > 0.98 * Double(background.count), "\(green) of \(background.count) green")
        }
    }

    /// The MP4 plays in the source's time: a variable-rate source's long frames are held (each frame was written once
    /// at the average rate, so its holds vanished and the rest slowed down). A live run's dropped frames are held by
    /// the same placement (its timing depends on the machine, so only the file's case is tested here).
    @Test func theVideoKeepsTheSourcesTime() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("vfr.mp4"), output = scratch.appendingPathComponent("out.mp4")
        try CLIRun.variableRateVideo(of: "woman_sitting.jpg", to: input)
        let run = try CLIRun.run([
            "background", "--model", model, "--video", input.path, "--output", output.path, "--blur", "8",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(abs(try CLIRun.duration(output.path) - (try CLIRun.duration(input.path))) < 0.05)
        #expect(try CLIRun.frameCount(output.path) == 63)
    }

    /// A video file's sound goes into the MP4 (it was dropped without a word).
    @Test func theSoundGoesWithTheVideo() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("sound.mp4"), output = scratch.appendingPathComponent("out.mp4")
        try CLIRun.videoWithSound(seconds: 2, to: input)
        let run = try CLIRun.run([
            "background", "--model", model, "--video", input.path, "--output", output.path, "--color", "00FF00",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let streams = try CLIRun.streams(output.path)
        #expect(streams.count == 2 && abs((CLIRun.length(of: "audio", in: streams) ?? 0) - 2) < 0.1, "\(streams)")
    }

    /// What is wrong in a run that is well formed: one `error:` line naming it, exit 1, and no output written.
    private func refused(_ arguments: [String], saying parts: [String]) throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("in.mp4"), output = scratch.appendingPathComponent("out.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 2, fps: 10, to: input)
        let arguments = arguments.map { $0 == "IN" ? input.path : $0 == "OUT" ? output.path : $0 }
        let run = try CLIRun.run(["background", "--video", input.path] + arguments)
        #expect(run.status == 1 && run.stderr.hasPrefix("error: "), "\(run.status) \(run.stderr)")
        for part in parts { #expect(run.stderr.contains(part), "\(run.stderr) lacks \(part)") }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// An output that cannot be created is refused before the first frame, naming `--output`: a missing folder,
    /// a folder given as the file, and /proc, which takes no new file even from root (only the folder's existence
    /// was checked, so /proc failed after the run).
    @Test func anOutputThatCannotBeWrittenIsRefusedBeforeTheFirstFrame() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("folder.mp4")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (path, reason) in [
            (
                "/nonexistent-\(getpid())/out.mp4",
                "cannot write /nonexistent-\(getpid())/out.mp4: No such file or directory"
            ),
            (folder.path, "\(folder.path) is not a regular file (a pipe, a device, a socket or a folder)"),
            ("/proc/out.mp4", "cannot write /proc/out.mp4: No such file or directory"),
        ] {
            try refused(
                ["--model", model, "--blur", "10", "--output", path], saying: ["Invalid option --output: \(reason)"])
        }
    }

    @Test func anUnreadableReplacementPictureIsRefusedBeforeTheSourceOpens() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let picture = scratch.appendingPathComponent("not-a-picture.png")
        try Data("hello".utf8).write(to: picture)
        try refused(["--model", model, "--replace", picture.path, "--output", "OUT"], saying: [picture.path])
        try refused(
            ["--model", model, "--replace", "/nonexistent/bg.jpg", "--output", "OUT"], saying: ["/nonexistent/bg.jpg"])
    }

    /// A replacement picture over the pixel limit is refused with the option that raises it, which `background`
    /// takes as the task subcommands do; raised, the same picture is used.
    @Test func aReplacementPictureOverThePixelLimitNamesTheOptionThatRaisesIt() throws {
        let picture = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        try refused(
            ["--model", model, "--replace", picture, "--max-image-pixels", "1000", "--output", "OUT"],
            saying: ["astronaut.png", "more than the limit of 1000 pixels", "--max-image-pixels"])
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("in.mp4"), output = scratch.appendingPathComponent("out.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 2, fps: 10, to: input)
        let run = try CLIRun.run([
            "background", "--model", model, "--video", input.path, "--replace", picture,
            "--max-image-pixels", "262144", "--output", output.path,
        ])
        #expect(run.status == 0 && FileManager.default.fileExists(atPath: output.path), "\(run.stderr)")
    }

    @Test func aDeviceThatIsMissingOrNotAV4L2OutputIsNamedWithTheSetupLine() throws {
        let setup = "sudo modprobe v4l2loopback exclusive_caps=1 card_label=VisionTasks"
        try refused(
            ["--model", model, "--blur", "10", "--v4l2", "/dev/video-none-\(getpid())"],
            saying: ["/dev/video-none-\(getpid()) does not exist", setup])
        try refused(
            ["--model", model, "--blur", "10", "--v4l2", "/dev/null"],
            saying: ["/dev/null is not a V4L2 video device", setup])
    }

    @Test func aModelWhoseOutputIsNotAMaskIsRefused() throws {
        let detector = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path
        try refused(
            ["--model", detector, "--color", "000000", "--output", "OUT"], saying: ["blaze_face_short_range.tflite"])
        try refused(
            ["--model", "/nonexistent/model.tflite", "--color", "000000", "--output", "OUT"],
            saying: ["/nonexistent/model.tflite"])
    }

    @Test func anEncoderThatGoesAwayIsAnErrorNotACrash() throws {
        // An ffmpeg that refuses to encode (exits at once) in place of the real one for the writer; the
        // reader's ffmpeg and ffprobe are the real ones.
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let real = try #require(
            ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/ffmpeg" }
                .first { FileManager.default.isExecutableFile(atPath: $0) })
        let fake = scratch.appendingPathComponent("ffmpeg")
        try """
        #!/bin/sh
        for a in "$@"; do if [ "$a" = "pipe:0" ]; then echo "fake encoder: gone" >&2; exit 1; fi; done
        exec \(real) "$@"
        """.write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let input = scratch.appendingPathComponent("in.mp4"), output = scratch.appendingPathComponent("out.mp4")
        try CLIRun.stillVideo(of: "woman_sitting.jpg", frames: 20, fps: 10, to: input)
        let run = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "VISION_TASKS_FFMPEG_DIR=\(scratch.path)", CLIRun.binary.path, "background", "--model", model,
                "--video", input.path, "--color", "000000", "--output", output.path,
            ])
        #expect(run.status == 1, "\(run.status) \(run.stderr)")
        #expect(run.stderr.hasPrefix("error: ") && run.stderr.contains("fake encoder: gone"), "\(run.stderr)")
    }

    /// Ctrl-C: a live source's run ends at once, its MP4 finished with the frames so far and its summary printed; a
    /// video file's run stops with status 130 and leaves no MP4 (it would be cut short) nor a partial file. Both
    /// used to run to the end of the source: ffmpeg, started from a thread that blocks signals, never saw the SIGTERM.
    @Test(arguments: ["--live", "--video"]) func ctrlCEndsALiveRunAndAbandonsAVideoFilesRun(source: String) throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("in.mp4"), output = scratch.appendingPathComponent("out.mp4")
        // 20 s at the live source's own rate; several seconds to render as fast as the machine can.
        try CLIRun.stillVideo(of: "woman_sitting.jpg", frames: 500, fps: 25, size: "480x320", to: input)
        let (stdout, stderr) = (scratch.appendingPathComponent("stdout"), scratch.appendingPathComponent("stderr"))
        for file in [stdout, stderr] { try Data().write(to: file) }
        let process = Process()
        process.executableURL = CLIRun.binary
        process.arguments = [
            "background", "--model", model, source, input.path, "--blur", "8", "--output", output.path,
        ]
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        let watchdog = Watchdog(process, name: "vision-tasks")
        // The partial MP4 appears with the first rendered frame: the run is under way, however slow the machine. (Not
        // `out.mp4` itself: the check that --output is writable makes and removes it before Ctrl-C is handled.)
        func outputs() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("out.mp4") }
                .sorted()
        }
        let deadline = Date(timeIntervalSinceNow: 300)
        while process.isRunning, Date() < deadline, try !outputs().contains(where: { $0.hasPrefix("out.mp4.partial-") })
        {
            usleep(20_000)
        }
        try #require(process.isRunning, "the run ended before it could be interrupted")
        process.interrupt()
        let interrupted = Date()
        process.waitUntilExit()
        try watchdog.finish()
        let after = Date().timeIntervalSince(interrupted)
        let errors = try String(contentsOf: stderr, encoding: .utf8)
        #expect(after < 5, "ran \(after) s after SIGINT")
        if source == "--live" {
            #expect(process.terminationStatus == 0, "\(errors)")
            #expect(try outputs() == ["out.mp4"])
            let summary = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: stdout)) as? [String: Any], "\(errors)")
            let frames = try CLIRun.frameCount(output.path)
            #expect(frames > 0 && frames < 500 && summary["frames"] as? Double == Double(frames), "\(summary)")
        } else {
            #expect(process.terminationStatus == 130, "\(errors)")
            #expect(
                errors.hasPrefix("error: interrupted after ") && errors.contains("\(output.path) was not written"),
                "\(errors)")
            #expect(try outputs().isEmpty)
        }
    }

    /// A live source stopped before its first frame (a pipe nobody writes to): the run fails, saying that the MP4
    /// was not written (it ended with status 0 and its summary, as if it had been).
    @Test func aLiveRunStoppedBeforeAnyFrameSaysNothingWasWritten() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let pipe = scratch.appendingPathComponent("camera"), output = scratch.appendingPathComponent("out.mp4")
        try #require(mkfifo(pipe.path, 0o600) == 0)
        let stderr = scratch.appendingPathComponent("stderr")
        try Data().write(to: stderr)
        let process = Process()
        process.executableURL = CLIRun.binary
        process.arguments = [
            "background", "--model", model, "--live", pipe.path, "--blur", "3", "--output", output.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        let watchdog = Watchdog(process, name: "vision-tasks")
        Thread.sleep(forTimeInterval: 1.5)
        try #require(process.isRunning, "the run waits for the pipe's first frame")
        process.interrupt()
        process.waitUntilExit()
        try watchdog.finish()
        let errors = try String(contentsOf: stderr, encoding: .utf8)
        #expect(process.terminationStatus == 1, "\(errors)")
        #expect(
            errors.contains("no frame came from \(pipe.path) before the run ended, so \(output.path) was not written"),
            "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// A video file that fails midway (truncated) is an error naming it and leaves no MP4: ffmpeg used to close
    /// the frames rendered so far as a whole-looking video at --output, over any file there. A live source that
    /// fails (a camera unplugged) keeps the frames so far in its MP4, said so above the error.
    @Test func aSourceThatFailsMidwayLeavesNoVideoUnlessItIsLive() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let whole = scratch.appendingPathComponent("whole.mkv"), cut = scratch.appendingPathComponent("cut.mkv")
        // A key frame every 5, so that the first 60% of the bytes hold about 55 of the 100 frames.
        try CLIRun.ffmpeg([
            "-framerate", "25", "-loop", "1", "-i", CLIRun.fixtures.appendingPathComponent("woman_sitting.jpg").path,
            "-frames:v", "100", "-s", "320x214", "-c:v", "libx264", "-preset", "ultrafast", "-g", "5",
            "-pix_fmt", "yuv420p", whole.path,
        ])
        let bytes = try Data(contentsOf: whole)
        try bytes.prefix(bytes.count * 6 / 10).write(to: cut)
        let output = scratch.appendingPathComponent("out.mp4")
        try Data("kept".utf8).write(to: output)
        let file = try CLIRun.run([
            "background", "--model", model, "--video", cut.path, "--color", "00FF00", "--output", output.path,
        ])
        #expect(file.status == 1 && file.stderr.contains("\(cut.path) stopped at frame"), "\(file.stderr)")
        #expect(try String(contentsOf: output, encoding: .utf8) == "kept")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == [
                "cut.mkv", "out.mp4", "whole.mkv",
            ])
        let live = try CLIRun.run([
            "background", "--model", model, "--live", cut.path, "--color", "00FF00", "--output", output.path,
        ])
        #expect(
            live.status == 1 && live.stderr.contains("\(output.path) holds the frames rendered before the failure")
                && live.stderr.contains("\(cut.path) stopped at frame"), "\(live.stderr)")
        let frames = try CLIRun.frameCount(output.path)
        #expect(frames > 0 && frames < 100, "\(frames) frames")
    }

    @Test func usageErrorsExit64() throws {
        for arguments in [
            ["--color", "00FF00", "--blur", "3", "--output", "o.mp4"], ["--color", "green", "--output", "o.mp4"],
            ["--color", "00FF00"], ["--color", "00FF00", "--output", "o.mp4", "--v4l2", "/dev/video0"],
            ["--blur", "0", "--output", "o.mp4"], ["--blur", "3", "--output", "o.avi"],
            ["--blur", "3", "--output", "o.mp4", "--smoothing", "1.5"],
            ["--blur", "3", "--output", "o.mp4", "--max-reuse", "99"],
            ["--blur", "3", "--output", "o.mp4", "--max-image-pixels", "0"],
            // Six hex digits only ("+0FF00" painted green), and --threads in 1...64 both ways (65 was exit 1).
            ["--color", "+0FF00", "--output", "o.mp4"], ["--color", "0x00FF00", "--output", "o.mp4"],
            ["--blur", "3", "--output", "o.mp4", "--threads", "0"],
            ["--blur", "3", "--output", "o.mp4", "--threads", "65"],
        ] {
            let run = try CLIRun.run(["background", "--model", model, "--video", "in.mp4"] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
        }
        let neither = try CLIRun.run(["background", "--model", model, "--color", "000000", "--output", "o.mp4"])
        #expect(neither.status == 64 && neither.stderr.contains("--video FILE or --live SOURCE"), "\(neither.stderr)")
    }
}

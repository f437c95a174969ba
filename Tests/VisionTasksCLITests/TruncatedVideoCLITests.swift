import Foundation
import Testing

/// A video cut in half (issue 10, finding 6) is reported, in `--video` and `--live`: the results of
/// the frames that decoded, then one JSON error line naming the frame where decoding stopped, exit 1.
@Suite(.serialized) struct TruncatedVideoCLITests {
    /// 180 frames at 30 fps with the index at the front (`+faststart`), cut to its first half.
    static func halfVideo(in dir: URL) throws -> URL {
        let full = dir.appendingPathComponent("full.mp4")
        try CLIRun.ffmpeg([
            "-framerate", "30", "-loop", "1", "-i", CLIRun.fixtures.appendingPathComponent("astronaut.png").path,
            "-vf", "zoompan=z='1+0.002*on':d=1:s=256x256:fps=30", "-frames:v", "180",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", full.path,
        ])
        let bytes = try Data(contentsOf: full)
        let half = dir.appendingPathComponent("half.mp4")
        try bytes.prefix(bytes.count / 2).write(to: half)
        return half
    }

    /// The frame number in "stopped at frame N of the 180" of the run's last line, which must be an error.
    static func stopFrame(_ run: CLIRun, input: String) throws -> Int {
        let last = try #require(run.lines.last, "no output: \(run.stderr)")
        #expect(last["input"] as? String == input)
        let message = try #require(last["error"] as? String, "last line is not an error: \(last)")
        let range = try #require(message.range(of: "stopped at frame "), "\(message)")
        let number = try #require(Int(message[range.upperBound...].prefix { $0.isNumber }), "\(message)")
        #expect(message.contains("stopped at frame \(number) of the 180 the file announces"), "\(message)")
        return number
    }

    @Test func videoModeReportsWhereDecodingStopped() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let half = try Self.halfVideo(in: dir)
        let run = try CLIRun.run([
            "face-detector", "--model", MediaCLITests.faceModel, "--video", half.path, "--no-progress",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        let stop = try Self.stopFrame(run, input: half.path)
        // Every decoded frame got its result line, frames 0 ..< stop, before the error.
        let frames = run.lines.dropLast().compactMap { $0["frame"] as? Int }
        #expect(stop > 10 && stop < 180, "stopped at \(stop)")
        #expect(frames == Array(0..<stop))
    }

    /// A truncated video's annotation is not left at its path (it was: an MP4 of the frames that decoded, which
    /// looked whole), nor its partial file.
    @Test func aTruncatedVideoLeavesNoAnnotatedVideo() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let half = try Self.halfVideo(in: dir)
        let annotated = dir.appendingPathComponent("annotated.mp4")
        let run = try CLIRun.run([
            "face-detector", "--model", MediaCLITests.faceModel, "--video", half.path, "--annotate", annotated.path,
            "--no-progress",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        _ = try Self.stopFrame(run, input: half.path)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["full.mp4", "half.mp4"], "\(left)")
    }

    /// A `--video --annotate` run ended by Ctrl-C leaves neither the MP4 nor its `.partial-<pid>` file (ffmpeg, left
    /// running, finished the partial file, and nothing removed it).
    @Test func anInterruptedVideoRunLeavesNoPartialFile() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("long.mp4"), annotated = dir.appendingPathComponent("annotated.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 600, fps: 30, size: "320x240", to: video)
        let run = try CLIRun.run(
            [
                "face-landmarker", "--model", CLIRun.models.appendingPathComponent("face_landmarker.task").path,
                "--video", video.path, "--annotate", annotated.path, "--no-progress",
            ], interruptAfterFirstLine: 0.5)
        #expect(
            run.secondsAfterInterrupt != nil && run.status != 0, "the run ended before the interrupt: \(run.stderr)")
        Thread.sleep(forTimeInterval: 1) // an ffmpeg left running would write its file meanwhile
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["long.mp4"], "\(left)")
    }

    @Test func liveModeReportsWhereDecodingStopped() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let half = try Self.halfVideo(in: dir)
        let run = try CLIRun.run(["face-detector", "--model", MediaCLITests.faceModel, "--live", half.path])
        #expect(run.status == 1, "\(run.stderr)")
        let stop = try Self.stopFrame(run, input: half.path)
        // Results (some frames may be dropped) all come before the frame where decoding stopped,
        // and the summary read exactly that many frames.
        let frames = run.lines.dropLast().compactMap { $0["frame"] as? Int }
        #expect(!frames.isEmpty && frames.allSatisfy { $0 < stop } && frames == frames.sorted())
        let summary = try #require(run.stderr.split(separator: "\n").last { $0.hasPrefix("summary:") }, "\(run.stderr)")
        #expect(summary.hasPrefix("summary: \(stop) frames read"), "\(summary)")
        #expect(
            summary.contains("; stopped by: Invalid video: decoding \(half.path) stopped at frame \(stop)"),
            "\(summary)")
    }
}

import FixtureSupport
import Foundation
import Testing

/// Every mode of the tool writing into a pipe nobody reads (`vision-tasks … | head -0`): it ends
/// quietly as SIGPIPE ends any filter, never with a trap and a backtrace.
@Suite(.serialized) struct ClosedPipeTests {
    static let faceModel = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path

    /// The tool's status and stderr when its stdout is a pipe whose reading end is already closed.
    static func runIntoClosedPipe(_ arguments: [String]) throws -> (
        reason: Process.TerminationReason, status: Int32, stderr: String
    ) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        close(fds[0])
        let process = Process()
        process.executableURL = CLIRun.binary
        process.arguments = arguments
        let writeEnd = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
        process.standardOutput = writeEnd
        let err = Pipe()
        process.standardError = err
        try process.run()
        let watchdog = Watchdog(process, name: "vision-tasks")
        try writeEnd.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try watchdog.finish()
        return (process.terminationReason, process.terminationStatus, stderr)
    }

    @Test func everyModeEndsQuietlyWhenStdoutIsClosed() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 30, fps: 25, size: "256x256", to: video)
        let image = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        let manifest = dir.appendingPathComponent("list.txt")
        try "\(image)\n\(image)\n".write(to: manifest, atomically: true, encoding: .utf8)
        let videos = dir.appendingPathComponent("videos.txt")
        try "\(video.path)\n".write(to: videos, atomically: true, encoding: .utf8)
        let modes: [(String, [String])] = [
            ("image", [image]),
            ("folder", [CLIRun.fixtures.path, "--jobs", "2"]),
            ("folder --annotate", [CLIRun.fixtures.path, "--annotate", dir.appendingPathComponent("drawn").path]),
            ("--video", ["--video", video.path]),
            ("--video --annotate", ["--video", video.path, "--annotate", dir.appendingPathComponent("v.mp4").path]),
            ("--live", ["--live", video.path]),
            ("--live --annotate", ["--live", video.path, "--annotate", dir.appendingPathComponent("l.mp4").path]),
            ("--input-list", ["--input-list", manifest.path, "--jobs", "2"]),
            ("--video-list", ["--video-list", videos.path]),
        ]
        #expect(modes.count == 9)
        for (name, arguments) in modes {
            let run = try Self.runIntoClosedPipe(
                ["face-detector", "--model", Self.faceModel, "--no-progress"] + arguments)
            #expect(
                run.reason == .uncaughtSignal && run.status == SIGPIPE,
                "\(name): ended by \(run.reason) \(run.status): \(run.stderr)")
            // Nothing on stderr but the live status line (once a second while a slow machine starts up).
            #expect(run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("live: ") }, "\(name): \(run.stderr)")
        }
    }

    @Test func modelInfoEndsQuietlyWhenStdoutIsClosed() throws {
        let run = try Self.runIntoClosedPipe([
            "model", "info", CLIRun.models.appendingPathComponent("face_landmarker.task").path,
        ])
        #expect(
            run.reason == .uncaughtSignal && run.status == SIGPIPE,
            "ended by \(run.reason) \(run.status): \(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }
}

import FixtureSupport
import Foundation
import Testing

/// The one runner of the command-line tests: runs the built `vision-tasks` tool (next to the test
/// bundle in .build/<config>/, built with this target, which depends on it) and collects its output
/// and exit status.
struct CLIRun {
    let stdout: String
    let stderr: String
    let status: Int32
    /// How long the tool ran on after `interruptAfterFirstLine` sent SIGINT (nil: not sent).
    var secondsAfterInterrupt: Double?
    /// Lines of stdout, as printed.
    var outputLines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Lines of stdout decoded as JSON objects; a line that is not one is recorded as a test issue
    /// (never silently dropped).
    var lines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            do {
                if let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] {
                    return object
                }
                Issue.record("stdout line is not a JSON object: \(line)")
            } catch {
                Issue.record("stdout line is not JSON (\(error)): \(line)")
            }
            return nil
        }
    }

    static let root = Fixture.repositoryRoot
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/images")
    static let models = root.appendingPathComponent("models")

    /// The built executable `name`: `swift build --build-tests` puts it beside the test bundle
    /// (.build/<config>/); .build/debug/NAME of the repository when it is not found there.
    static func built(_ name: String) -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/\(name)")
    }

    /// The built `vision-tasks`.
    static var binary: URL { built("vision-tasks") }

    /// Runs the tool with `arguments` (in `directory`, if given). `interruptAfterFirstLine` sends SIGINT
    /// that many seconds after the first line on stdout (the run is then under way, however slow the
    /// machine is to start it).
    static func run(_ arguments: [String], in directory: URL? = nil, interruptAfterFirstLine: Double? = nil) throws
        -> CLIRun
    {
        let output = try Tool.run(binary, arguments, in: directory, interruptAfterFirstLine: interruptAfterFirstLine)
        return CLIRun(
            stdout: output.stdout, stderr: output.stderr, status: output.status,
            secondsAfterInterrupt: output.secondsAfterInterrupt)
    }

    /// Runs the tool with `arguments`, the rename of each partial file (`<path>.partial-<pid>`) held 5 s by an
    /// LD_PRELOAD shim compiled into `scratch`, and sends `signal` once `output`'s partial file appears: a stop while a
    /// file is written. Returns how the tool ended; the test fails when the partial file never appeared.
    static func stoppedWhileWriting(_ arguments: [String], output: URL, signal: Int32, scratch: URL) throws
        -> (reason: Process.TerminationReason, status: Int32)
    {
        let shim = scratch.appendingPathComponent("slow_rename.c")
        let library = scratch.appendingPathComponent("slow_rename.so")
        try Data(
            """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <string.h>
            #include <unistd.h>
            int rename(const char *from, const char *to) {
                int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
                if (strstr(from, ".partial-")) sleep(5);
                return real(from, to);
            }
            """.utf8
        ).write(to: shim)
        let compiled = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["clang", "-shared", "-fPIC", "-o", library.path, shim.path, "-ldl"])
        try #require(compiled.status == 0, "\(compiled.stderr)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": library.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let partial = output.path + ".partial-\(process.processIdentifier)"
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: partial), process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let appeared = FileManager.default.fileExists(atPath: partial)
        kill(process.processIdentifier, appeared ? signal : SIGKILL)
        process.waitUntilExit()
        try #require(appeared, "\(output.lastPathComponent)'s partial file appeared")
        return (process.terminationReason, process.terminationStatus)
    }

    /// How many frames ffprobe decodes from the video at `path`.
    static func frameCount(_ path: String) throws -> Int {
        let output = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path,
            ])
        guard output.status == 0, let count = Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ToolError.failed("ffprobe", status: output.status, stderr: output.stderr)
        }
        return count
    }

    /// The frame rate the video at `path` declares, as ffprobe gives it ("60/1").
    static func frameRate(_ path: String) throws -> String {
        let output = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate", "-of",
                "csv=p=0", path,
            ])
        guard output.status == 0 else {
            throw ToolError.failed("ffprobe", status: output.status, stderr: output.stderr)
        }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The length of the video at `path`, in seconds, as ffprobe gives it.
    static func duration(_ path: String) throws -> Double {
        let output = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        guard output.status == 0, let seconds = Double(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw ToolError.failed("ffprobe", status: output.status, stderr: output.stderr)
        }
        return seconds
    }

    /// Writes a variable-rate H.264 video of the fixture image `name` at 256×256: one frame for each of `durations`
    /// (seconds), each lasting its own time, then one more frame (2.52 s for the default durations).
    static func variableRateVideo(
        of name: String,
        durations: [Double] = Array(repeating: 0.04, count: 10) + [1, 1] + Array(repeating: 0.04, count: 2),
        to video: URL
    ) throws {
        let still = video.deletingLastPathComponent().appendingPathComponent("still.png")
        try ffmpeg(["-i", fixtures.appendingPathComponent(name).path, "-s", "256x256", still.path])
        let entries = durations.map { "file '\(still.path)'\nduration \($0)\n" }.joined() + "file '\(still.path)'\n"
        let list = video.deletingLastPathComponent().appendingPathComponent("frames.txt")
        try Data(entries.utf8).write(to: list)
        try ffmpeg([
            "-f", "concat", "-safe", "0", "-i", list.path, "-fps_mode", "vfr", "-video_track_timescale", "1000",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", video.path,
        ])
    }

    /// The kinds and lengths of the streams of the video at `path` ("video,3.000000", "audio,2.995000"), as ffprobe
    /// gives them.
    static func streams(_ path: String) throws -> [String] {
        let output = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["ffprobe", "-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "csv=p=0", path])
        guard output.status == 0 else {
            throw ToolError.failed("ffprobe", status: output.status, stderr: output.stderr)
        }
        return output.stdout.split(separator: "\n").map(String.init)
    }

    /// Writes an H.264 test picture with a 440 Hz tone (AAC), `seconds` long at 10 fps, to `video`.
    static func videoWithSound(seconds: Int, to video: URL) throws {
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-f", "lavfi", "-i",
            "sine=frequency=440:duration=\(seconds)", "-t", "\(seconds)", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            "-c:a", "aac", video.path,
        ])
    }

    /// The length in seconds of the `kind` stream ("audio") `streams` lists, if it lists one.
    static func length(of kind: String, in streams: [String]) -> Double? {
        streams.first { $0.hasPrefix(kind + ",") }.flatMap { Double($0.dropFirst(kind.count + 1)) }
    }

    /// A fresh scratch directory.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes an H.264 video of `frames` copies of the fixture image `name` at `fps` (scaled to `size`, "WxH", if given).
    static func stillVideo(of name: String, frames: Int, fps: Int, size: String? = nil, to video: URL) throws {
        try ffmpeg(
            [
                "-framerate", "\(fps)", "-loop", "1", "-i", fixtures.appendingPathComponent(name).path, "-frames:v",
                "\(frames)",
            ]
                + (size.map { ["-s", $0] } ?? []) + [
                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", video.path,
                ])
    }

    /// Runs ffmpeg quietly with `arguments`.
    static func ffmpeg(_ arguments: [String]) throws { try Tool.ffmpeg(arguments) }
}

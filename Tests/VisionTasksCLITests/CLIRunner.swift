import Foundation
import Testing

/// Runs the built `vision-tasks` tool (next to the test bundle in .build/<config>/) and collects
/// its output, exit status and peak memory.
struct CLIRun {
    let stdout: String
    let stderr: String
    let status: Int32
    /// How long the tool ran on after `interruptAfterFirstLine` sent SIGINT (nil: not sent).
    var secondsAfterInterrupt: Double?
    /// Lines of stdout decoded as JSON objects; a line that is not one is recorded as a test issue
    /// (never silently dropped).
    var lines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            if object == nil { Issue.record("stdout line is not a JSON object: \(line)") }
            return object
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/images")
    static let models = root.appendingPathComponent("models")

    static var binary: URL {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("vision-tasks")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/vision-tasks")
    }

    /// Runs the tool with `arguments`. `interruptAfterFirstLine` sends SIGINT that many seconds
    /// after the first line on stdout (the run is then under way, however slow the machine is to start it).
    static func run(_ arguments: [String], interruptAfterFirstLine: Double? = nil) throws -> CLIRun {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes fully before waiting (a full pipe would block the tool).
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        var outData = Data()
        var interruptPending = interruptAfterFirstLine
        let interrupted = InterruptTime()
        while true {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            outData.append(chunk)
            if let delay = interruptPending, outData.contains(UInt8(ascii: "\n")) {
                interruptPending = nil
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                    interrupted.mark()
                    process.interrupt()
                }
            }
        }
        group.wait()
        process.waitUntilExit()
        return CLIRun(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                      status: process.terminationStatus, secondsAfterInterrupt: interrupted.secondsSince())
    }

    /// How many frames ffprobe decodes from the video at `path`.
    static func frameCount(_ path: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                             "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return count
    }

    /// A fresh scratch directory.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes an H.264 video of `frames` copies of the fixture image `name` at `fps` (scaled to `size`, "WxH", if given).
    static func stillVideo(of name: String, frames: Int, fps: Int, size: String? = nil, to video: URL) throws {
        try ffmpeg(["-framerate", "\(fps)", "-loop", "1", "-i", fixtures.appendingPathComponent(name).path, "-frames:v", "\(frames)"]
                   + (size.map { ["-s", $0] } ?? []) + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", video.path])
    }

    /// Runs ffmpeg quietly with `arguments`.
    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}

/// When SIGINT was sent, shared between the timer and the waiting test.
private final class InterruptTime: @unchecked Sendable {
    private let lock = NSLock()
    private var sent: Date?
    func mark() { lock.withLock { sent = Date() } }
    func secondsSince() -> Double? { lock.withLock { sent.map { Date().timeIntervalSince($0) } } }
}

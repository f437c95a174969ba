import Dispatch
import Foundation

/// Launches processes for the tests (ffmpeg and the built tools, which VisionTasksCLITests' `CLIRun`
/// finds): the one way every test target runs a process.
public enum Tool {
    /// What a finished process printed and how it ended.
    public struct Output: Sendable {
        /// Its standard output.
        public let stdout: String
        /// Its standard error.
        public let stderr: String
        /// Its exit status.
        public let status: Int32
        /// How long it ran on after `interruptAfterFirstLine` sent SIGINT (nil: not sent).
        public let secondsAfterInterrupt: Double?
    }

    /// Runs `executable` with `arguments` (in `directory`, if given) to its end, reading standard
    /// output and error at once (a full pipe would block it). `interruptAfterFirstLine` sends SIGINT
    /// that many seconds after the first line on standard output (the run is then under way, however
    /// slow the machine is to start it).
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        interruptAfterFirstLine: Double? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
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
        return Output(
            stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
            status: process.terminationStatus, secondsAfterInterrupt: interrupted.secondsSince())
    }

    /// Runs ffmpeg quietly (overwriting its outputs); throws with its standard error if it fails.
    public static func ffmpeg(_ arguments: [String]) throws {
        try system("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments)
    }

    /// Runs `tool` from PATH with `arguments`; throws with its standard error if it fails.
    public static func system(_ tool: String, _ arguments: [String]) throws {
        let output = try run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments)
        guard output.status == 0 else { throw ToolError.failed(tool, status: output.status, stderr: output.stderr) }
    }
}

/// Why a tool the tests run failed.
public enum ToolError: Error, CustomStringConvertible {
    /// The tool exited with a non-zero status.
    case failed(String, status: Int32, stderr: String)

    /// The tool, its status and what it printed on standard error.
    public var description: String {
        switch self {
        case .failed(let tool, let status, let stderr): "\(tool) exited with status \(status): \(stderr)"
        }
    }
}

/// When SIGINT was sent, shared between the timer and the waiting test.
private final class InterruptTime: @unchecked Sendable {
    private let lock = NSLock()
    private var sent: Date?
    func mark() { lock.withLock { sent = Date() } }
    func secondsSince() -> Double? { lock.withLock { sent.map { Date().timeIntervalSince($0) } } }
}

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
        let watchdog = Watchdog(process, name: executable.lastPathComponent)
        let errRead = BackgroundRead(err.fileHandleForReading)
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
        let errData = try errRead.value()
        process.waitUntilExit()
        try watchdog.finish()
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
    /// The tool ran past its time limit and was killed.
    case timedOut(String, seconds: Double)

    /// The tool, its status and what it printed on standard error.
    public var description: String {
        switch self {
        case .failed(let tool, let status, let stderr): "\(tool) exited with status \(status): \(stderr)"
        case .timedOut(let tool, let seconds): "\(tool) ran longer than \(Int(seconds)) s and was killed"
        }
    }
}

/// Reads a pipe to its end on a thread of its own: a blocking read on one of Dispatch's shared threads (as
/// many as cores) would hold it from the code under test for the whole run of the process.
public final class BackgroundRead: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    /// Starts reading `handle`.
    public init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    /// What was read once every writer closed the pipe; throws `ToolError.timedOut` if that took longer than
    /// a tool may run (a `Watchdog` kills the tool first, so only a process it started could keep it open).
    public func value() throws -> Data {
        guard done.wait(timeout: .now() + Watchdog.defaultSeconds + 60) == .success else {
            throw ToolError.timedOut("reading a tool's output", seconds: Watchdog.defaultSeconds + 60)
        }
        return data
    }
}

/// Kills a started process (SIGKILL) that runs past its time limit, so that a test never waits on a hung tool:
/// its pipes close, reads of them end and `waitUntilExit()` returns. Keep it until `finish()`.
public final class Watchdog: @unchecked Sendable {
    /// The longest a tool the tests start may run (far beyond any test's need on a loaded 2-core machine).
    public static let defaultSeconds = 600.0

    private let lock = NSLock()
    private let process: Process
    private let name: String
    private let seconds: Double
    private var finished = false
    private var fired = false

    /// Arms the limit for `process`, which has been started; `name` names it in the error.
    public init(_ process: Process, name: String, seconds: Double = Watchdog.defaultSeconds) {
        (self.process, self.name, self.seconds) = (process, name, seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.fire() }
    }

    private func fire() {
        lock.withLock {
            guard !finished, process.isRunning else { return }
            fired = true
            kill(process.processIdentifier, SIGKILL)
        }
    }

    /// Disarms the limit once the process has exited; throws `ToolError.timedOut` if it was killed for running long.
    public func finish() throws {
        let killed = lock.withLock {
            finished = true
            return fired
        }
        if killed { throw ToolError.timedOut(name, seconds: seconds) }
    }
}

/// When SIGINT was sent, shared between the timer and the waiting test.
private final class InterruptTime: @unchecked Sendable {
    private let lock = NSLock()
    private var sent: Date?
    func mark() { lock.withLock { sent = Date() } }
    func secondsSince() -> Double? { lock.withLock { sent.map { Date().timeIntervalSince($0) } } }
}

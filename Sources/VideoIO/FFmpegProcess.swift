import Foundation
import VisionErrors

/// Finds Debian's `ffmpeg` / `ffprobe` on PATH (or in `$VISION_TASKS_FFMPEG_DIR`).
enum FFmpegTool {
    static func path(of tool: String) throws -> String {
        let env = ProcessInfo.processInfo.environment
        var dirs = (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        if let dir = env["VISION_TASKS_FFMPEG_DIR"] { dirs.insert(dir, at: 0) }
        for dir in dirs where !dir.isEmpty {
            let candidate = dir + "/" + tool
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw VisionTasksError.invalidVideo(
            "\(tool) was not found on PATH; install Debian's ffmpeg (apt-get install ffmpeg)")
    }
}

/// One running ffmpeg/ffprobe child with its three pipes. stderr is read on a thread of its own,
/// line by line, and handed to `onStderrLine`; the last lines it does not take (returns false for)
/// are kept for error messages.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let stdinPipe: Pipe?
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let lock = NSCondition()
    private var tail: [String] = []
    private var stderrDone = false
    private var terminated = false // guarded by `lock`

    /// Starts `tool` with `arguments`; `input` true gives it a stdin pipe (else /dev/null).
    init(
        tool: String, arguments: [String], input: Bool = false, onStderrLine: (@Sendable (String) -> Bool)? = nil,
        onStderrEnd: (@Sendable () -> Void)? = nil
    ) throws {
        ignoreSigpipe
        process.executableURL = URL(fileURLWithPath: try FFmpegTool.path(of: tool))
        process.arguments = arguments
        stdinPipe = input ? Pipe() : nil
        process.standardInput = stdinPipe ?? FileHandle.nullDevice
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        do {
            // A child starts with the signal mask of the thread that starts it, and Dispatch and Swift
            // concurrency threads block nearly every signal: ffmpeg would then never see `terminate()`'s
            // SIGTERM. SIGTERM is unblocked on this thread while the child starts.
            var unblocked = sigset_t(), previous = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, SIGTERM)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            try process.run()
        } catch {
            throw VisionTasksError.invalidVideo("could not start \(tool): \(error.localizedDescription)")
        }
        // 1 MiB pipes (Linux F_SETPIPE_SZ; the default is 64 KiB): a 1080p frame then crosses in a
        // few reads, not a hundred, each a wake-up of one process by the other.
        _ = fcntl(stdoutPipe.fileHandleForReading.fileDescriptor, 1031, 1 << 20)
        if let stdinPipe { _ = fcntl(stdinPipe.fileHandleForWriting.fileDescriptor, 1031, 1 << 20) }
        let handle = stderrPipe.fileHandleForReading
        let thread = Thread { [weak self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                // ffmpeg ends progress lines with \r, log lines with \n.
                while let cut = pending.firstIndex(where: { $0 == 10 || $0 == 13 }) {
                    let line = String(decoding: pending[pending.startIndex..<cut], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...cut)
                    if line.isEmpty { continue }
                    if onStderrLine?(line) != true { self?.keep(line) }
                }
            }
            if !pending.isEmpty {
                let line = String(decoding: pending, as: UTF8.self)
                if onStderrLine?(line) != true { self?.keep(line) }
            }
            onStderrEnd?()
            self?.finishStderr()
        }
        thread.start()
    }

    private func keep(_ line: String) {
        let line = Self.withoutAddresses(line)
        lock.lock()
        tail.append(line)
        if tail.count > 12 { tail.removeFirst(tail.count - 12) }
        lock.unlock()
    }

    private func finishStderr() {
        lock.lock()
        stderrDone = true
        lock.broadcast()
        lock.unlock()
    }

    /// The child's stdout, to read from.
    var stdoutDescriptor: Int32 { stdoutPipe.fileHandleForReading.fileDescriptor }

    /// Reads exactly `count` bytes into `buffer`; returns false at a clean end of stream before the first byte.
    func readExactly(into buffer: UnsafeMutableRawBufferPointer, what: String) throws -> Bool {
        var done = 0
        while done < buffer.count {
            let n = read(stdoutDescriptor, buffer.baseAddress! + done, buffer.count - done)
            if n > 0 {
                done += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw VisionTasksError.invalidVideo("reading \(what) from ffmpeg failed: errno \(errno)") }
            if done == 0 { return false }
            throw VisionTasksError.invalidVideo(
                "ffmpeg stopped in the middle of \(what) (\(done) of \(buffer.count) bytes)")
        }
        return true
    }

    /// All of stdout until the child closes it.
    func readAllStdout() -> Data {
        stdoutPipe.fileHandleForReading.readDataToEndOfFile()
    }

    /// Writes all of `bytes` to the child's stdin; throws if the child has gone.
    func write(_ bytes: UnsafeRawBufferPointer, what: String) throws {
        guard let stdinPipe else { throw VisionTasksError.invalidArgument("ffmpeg was started without an input pipe") }
        let fd = stdinPipe.fileHandleForWriting.fileDescriptor
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n > 0 {
                done += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            throw VisionTasksError.invalidVideo("ffmpeg stopped taking \(what): \(stderrOnceDone())")
        }
    }

    /// Closes stdin (the child sees end of input).
    func closeInput() {
        try? stdinPipe?.fileHandleForWriting.close()
    }

    /// How long a child asked to stop (SIGTERM) has before it is killed: ffmpeg blocked opening a named pipe that
    /// nothing opens ignores SIGTERM, and waiting for it would wait for good.
    static let stopGrace: TimeInterval = 5

    /// Waits for the child and its stderr; returns its exit status. A child asked to stop is killed after
    /// `stopGrace`.
    func wait() -> Int32 {
        if wasTerminated { killUnlessEnded(within: Self.stopGrace) }
        process.waitUntilExit()
        lock.lock()
        while !stderrDone { lock.wait() }
        lock.unlock()
        return process.terminationStatus
    }

    /// The child's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGTERM to the child if it still runs (safe from any thread; ffmpeg then ends its output), and SIGKILL
    /// if it still runs `stopGrace` later: ffmpeg blocked opening a named pipe that no one writes ignores SIGTERM, and
    /// a reader waiting for its next line (Ctrl-C on `--live fifo`) waited for good.
    func terminate() {
        lock.withLock { terminated = true }
        guard process.isRunning else { return }
        process.terminate()
        let process = self.process
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.stopGrace) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Whether `terminate()` was called: the child's end was asked for, not a failure of its own.
    var wasTerminated: Bool { lock.withLock { terminated } }

    /// Asks the child to stop (closes its output, SIGTERM) if it still runs, and reaps it (killed after `stopGrace`);
    /// `discarding` kills it
    /// (SIGKILL) instead, when what it writes is thrown away: ffmpeg ending an MP4 takes seconds under load.
    func stop(discarding: Bool = false) {
        // Close our end of stdout first: a child blocked writing a frame gets EPIPE instead of
        // waiting forever (SIGTERM alone does not interrupt a blocked write).
        try? stdoutPipe.fileHandleForReading.close()
        if process.isRunning {
            if discarding { kill(process.processIdentifier, SIGKILL) } else { process.terminate() }
        }
        closeInput()
        killUnlessEnded(within: Self.stopGrace)
        _ = wait()
    }

    /// Kills the child (SIGKILL) unless it ends within `seconds`.
    private func killUnlessEnded(within seconds: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// `lastStderr()` once the child has closed its stderr, waiting at most `seconds`: a child that stopped
    /// taking input is usually exiting, and its last lines say why.
    func stderrOnceDone(within seconds: Double = 2) -> String {
        let deadline = Date(timeIntervalSinceNow: seconds)
        lock.lock()
        while !stderrDone && lock.wait(until: deadline) {}
        lock.unlock()
        return lastStderr()
    }

    /// `line` without the addresses ffmpeg names its components by (`[mov,mp4,m4a @ 0x55d1f8f33580]` reads
    /// `[mov,mp4,m4a]`): they differ from run to run, so the same file's error did too.
    static func withoutAddresses(_ line: String) -> String {
        line.replacing(#/\s@\s0x[0-9a-fA-F]+\]/#, with: "]")
    }

    /// The last lines ffmpeg wrote on stderr, joined, for error messages.
    func lastStderr() -> String {
        lock.lock()
        defer { lock.unlock() }
        return tail.suffix(3).joined(separator: " | ")
    }
}

/// Writing to a child that has exited must be an error (EPIPE), not the end of this process.
private let ignoreSigpipe: Void = {
    signal(SIGPIPE, SIG_IGN)
}()

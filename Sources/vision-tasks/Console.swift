import Foundation
import VisionCore

/// Every write of the tool to standard output and standard error, with plain `write(2)` calls
/// (Foundation's `FileHandle.write` traps on an error). A closed standard output (the reader went
/// away, as in `vision-tasks … | head -1`) ends the tool quietly, as SIGPIPE ends any Unix filter
/// (status 141 in a shell), in every mode, also where the pipes to ffmpeg have SIGPIPE ignored. Any
/// other failure to write standard output (a full disk) is one `error:` line and exit status 1. A
/// closed standard error drops the message. Lines are written whole, one writer at a time.
enum Console {
    private static let lock = NSLock()

    /// Writes `text` to standard output.
    static func out(_ text: String) { out(Data(text.utf8)) }

    /// Writes `bytes` to standard output.
    static func out(_ bytes: Data) {
        let failure: Int32? = lock.withLock { writeAll(STDOUT_FILENO, bytes) }
        guard let failure else { return }
        if failure == EPIPE { endForClosedOutput() }
        _ = lock.withLock {
            writeAll(
                STDERR_FILENO,
                Data("error: cannot write to standard output: \(String(cString: strerror(failure)))\n".utf8))
        }
        exit(1)
    }

    /// Writes `text` to standard error (nothing if it is closed).
    static func error(_ text: String) {
        _ = lock.withLock { writeAll(STDERR_FILENO, Data(text.utf8)) }
    }

    /// Writes all of `bytes` to `descriptor`, retrying after signals and short writes; returns the
    /// errno of a failure, nil when everything was written.
    static func writeAll(_ descriptor: Int32, _ bytes: Data) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            guard var next = raw.baseAddress else { return nil }
            var left = raw.count
            while left > 0 {
                let n = write(descriptor, next, left)
                if n > 0 {
                    next += n
                    left -= n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return n < 0 ? errno : EIO
                }
            }
            return nil
        }
    }

    /// The signals that end a run from outside: Ctrl-C, `kill`, a closed terminal.
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Ends the process as a stop signal's default action does when one comes during `body`, once the files being
    /// written (MP4s, pictures, masks, trained models) are removed (`OutputFile.removePartialFiles`): a run stopped by
    /// Ctrl-C or `kill` left their `<path>.partial-<pid>` behind.
    static func endingCleanly<T>(_ body: () throws -> T) rethrows -> T {
        try handling(
            stopSignals,
            with: { number in
                OutputFile.removePartialFiles()
                end(by: number)
            }, body)
    }

    /// Calls `stop` with the stop signal that comes during `body` instead of ending the process (a live run stops
    /// reading and finishes what it writes; `kill`, as `docker stop` sends it, no longer loses a recording), again for
    /// a second one while it finishes.
    static func stopping<T>(_ stop: @escaping @Sendable (Int32) -> Void, _ body: () throws -> T) rethrows -> T {
        try handling(stopSignals, with: stop, body)
    }

    /// Runs `body` with `signals` calling `handler` (on a dispatch queue) instead of their default action, which is
    /// restored after it. A signal the process was started ignoring (a background job's SIGINT, `nohup`'s SIGHUP)
    /// stays ignored.
    private static func handling<T>(
        _ signals: [Int32], with handler: @escaping @Sendable (Int32) -> Void, _ body: () throws -> T
    ) rethrows -> T {
        let handled = signals.filter { number in
            var current = sigaction()
            sigaction(number, nil, &current)
            return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                != unsafeBitCast(SIG_IGN, to: Int.self)
        }
        let sources = handled.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
        defer {
            for (number, source) in zip(handled, sources) {
                source.cancel()
                signal(number, SIG_DFL)
            }
        }
        return try body()
    }

    /// Ends the process as SIGPIPE's default action does: no message, no backtrace, no partial MP4 left.
    static func endForClosedOutput() -> Never {
        OutputFile.removePartialFiles()
        end(by: SIGPIPE)
    }

    /// Ends the process by signal `number`'s default action. The signal is restored to its default and unblocked on
    /// this thread first (the video pipes ignore SIGPIPE, and dispatch threads may block signals); `_exit(128 +
    /// number)` is the fallback if it still returns.
    private static func end(by number: Int32) -> Never {
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        _exit(128 + number)
    }
}

import Dispatch
import Foundation
import VideoIO
import VisionTasks

/// Live-stream mode over anything ffmpeg opens: frames go to the task's async method as they
/// arrive (a file is played at its real rate); results come back through the delegate, in
/// timestamp order, and are printed as JSON lines. Frames the task could not keep up with are
/// dropped by its flow limiter and counted. A status line on stderr shows input fps, processed
/// fps and dropped frames; Ctrl-C (SIGINT) stops cleanly with a summary. `--annotate out.mp4`
/// writes the processed frames drawn over (see `LiveAnnotation`).
enum LiveRun {
    static func run<Task: DescribedTask>(
        _ source: String, options: MediaOptions, factory: MediaTaskFactory<Task>,
        output: JSONLines
    ) throws -> Bool {
        let stats = LiveStats()
        let isFile = VideoInfo.isRegularFile(source)
        // A file is written at the rate a video run writes it at (`VideoInfo.writingFrameRate`); a camera or stream
        // at 30 frames per second, as is a file ffprobe cannot read (the reader then reports it on the source's line).
        let annotation = options.annotate.map { path in
            LiveAnnotation<Task>(
                path: path, frameRate: (isFile ? try? VideoInfo.probe(path: source).writingFrameRate : nil) ?? "30",
                preset: options.quality.preset)
        }
        let sink = LiveStreamHandler<Task.TaskResult> { delivery in
            let timestamp = delivery.timestampInMilliseconds, result = try? delivery.get()
            annotation?.delivered(result, timestamp: timestamp)
            let frame = stats.delivered(
                timestamp: timestamp, failed: result == nil, found: result.map(Task.foundCount(in:)) ?? 0)
            output.process(input: source, frame: frame, timestamp: timestamp) { try delivery.get() }
        }
        let task = try factory.make(.liveStream, sink)
        defer { withExtendedLifetime(sink) {} } // the task holds its delegate weakly
        let reader = try VideoReader(
            liveSource: source, realTime: isFile, maxPixelCount: options.imageLimit.maxImagePixels)

        // Ctrl-C, kill or a closed terminal: stop reading (ffmpeg runs in its own process group: the interrupter
        // stops it), then finish the MP4; a second signal while it finishes changes nothing.
        let stopReader = reader.makeInterrupter()
        var failure: (any Error)?
        Console.stopping({ _ in
            stats.stop()
            stopReader()
        }) {
            let status = StatusLine(stats: stats)
            status.start()
            do {
                var lastSent: Int?
                while !stats.stopped, let frame = try reader.nextFrame() {
                    // A frame in the millisecond of the frame before (a source faster than 1000 frames/s, or a frame
                    // of no length) cannot be sent: live-stream timestamps strictly increase. It is dropped, as the
                    // flow limiter drops frames, and counted; a timestamp going back stops the run with its error.
                    if frame.timestampInMilliseconds == lastSent {
                        stats.droppedRepeating()
                        continue
                    }
                    lastSent = frame.timestampInMilliseconds
                    stats.read(frame: frame.index, timestamp: frame.timestampInMilliseconds)
                    annotation?.sent(frame)
                    try task.processAsync(frame.image(), timestampInMilliseconds: frame.timestampInMilliseconds)
                }
            } catch {
                if !stats.stopped { failure = error }
            }
            task.waitUntilIdle()
            status.stop()
            if failure == nil, let annotation {
                do { try annotation.finish() } catch { failure = error }
            }
        }
        if let failure {
            output.process(input: source) { () throws -> Task.TaskResult in throw failure }
        }
        if let warning = reader.streamWarning { Console.error("warning: \(warning)\n") }
        let summary = stats.summary(noun: Task.taskDescription.foundNoun)
        // "0 failed" counts frames: a run the source or the MP4 stopped says so.
        Console.error("summary: \(summary)\(failure.map { "; stopped by: \($0)" } ?? "")\n")
        return !output.anyFailed && stats.inOrder
    }
}

/// Counters shared by the reading loop, the delegate queue and the status line.
final class LiveStats: @unchecked Sendable {
    private let lock = NSLock()
    private let started = Date()
    private var frames: [(timestamp: Int, index: Int)] = []
    private var readCount = 0
    private var deliveredCount = 0
    private var failedCount = 0
    private var droppedCount = 0
    private var repeatingCount = 0
    private var foundCount = 0
    private var lastTimestamp = Int.min
    private var outOfOrder = 0
    private var isStopped = false

    /// A frame was read and sent.
    func read(frame index: Int, timestamp: Int) {
        lock.withLock {
            readCount += 1
            frames.append((timestamp, index))
        }
    }

    /// A frame was read and dropped unsent: its timestamp repeats the millisecond of the frame sent before it.
    func droppedRepeating() {
        lock.withLock {
            readCount += 1
            droppedCount += 1
            repeatingCount += 1
        }
    }

    /// A result (or error) was delivered; returns the frame index of its timestamp. Frames before
    /// it that got no result were dropped: they are counted and forgotten here, so memory stays bounded.
    func delivered(timestamp: Int, failed: Bool, found: Int) -> Int? {
        lock.withLock {
            deliveredCount += 1
            if failed { failedCount += 1 }
            foundCount += found
            if timestamp <= lastTimestamp { outOfOrder += 1 }
            lastTimestamp = timestamp
            var index: Int?
            while let first = frames.first, first.timestamp <= timestamp {
                if first.timestamp == timestamp { index = first.index } else { droppedCount += 1 }
                frames.removeFirst()
            }
            return index
        }
    }

    /// Ctrl-C was pressed.
    func stop() { lock.withLock { isStopped = true } }
    /// Whether Ctrl-C was pressed.
    var stopped: Bool { lock.withLock { isStopped } }
    /// Whether every result came in timestamp order.
    var inOrder: Bool { lock.withLock { outOfOrder == 0 } }

    /// "input 30.0 fps, processed 12.1 fps, dropped 35": the frames known dropped (a result for a
    /// later frame came), not those still in flight, so the count never goes down.
    func status() -> String {
        lock.withLock {
            let seconds = max(Date().timeIntervalSince(started), 1e-3)
            return String(
                format: "input %.1f fps, processed %.1f fps, dropped %d",
                Double(readCount) / seconds, Double(deliveredCount) / seconds, droppedCount)
        }
    }

    /// The final counts, once the task is idle: every frame sent was delivered or dropped, so those
    /// still waiting for a result (after the last one delivered) were dropped too.
    func summary(noun: String) -> String {
        lock.withLock {
            droppedCount += frames.count
            frames.removeAll()
        }
        let line = status()
        return lock.withLock {
            let repeating =
                repeatingCount == 0
                ? ""
                : " (\(repeatingCount) of them in the millisecond of the frame before: one frame a millisecond is sent)"
            return
                "\(readCount) frames read, \(deliveredCount) processed, \(droppedCount) dropped\(repeating), \(failedCount) failed, \(foundCount) \(noun) found, \(outOfOrder) out of order; \(line)"
        }
    }
}

/// Prints the live status on stderr once a second (rewriting one line on a terminal).
final class StatusLine: @unchecked Sendable {
    private let stats: LiveStats
    private let timer = DispatchSource.makeTimerSource(queue: .global())
    private let tty = isatty(STDERR_FILENO) == 1

    init(stats: LiveStats) { self.stats = stats }

    func start() {
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [stats, tty] in
            let line = (tty ? "\r\u{1B}[K" : "") + "live: " + stats.status() + (tty ? "" : "\n")
            Console.error(line)
        }
        timer.resume()
    }

    func stop() {
        timer.cancel()
        if tty { Console.error("\r\u{1B}[K") }
    }
}

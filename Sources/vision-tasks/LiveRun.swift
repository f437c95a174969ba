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
        var clock = LiveClock()
        Console.stopping({ _ in
            stats.stop()
            stopReader()
        }) {
            let status = StatusLine(stats: stats)
            status.start()
            do {
                while !stats.stopped, let read = try reader.nextFrame() {
                    // A frame in the millisecond of the frame before (a source faster than 1000 frames/s, or a frame
                    // of no length) cannot be sent: live-stream timestamps strictly increase. It is dropped, as the
                    // flow limiter drops frames, and counted.
                    guard let timestamp = clock.timestamp(of: read.timestampInMilliseconds) else {
                        stats.droppedRepeating()
                        continue
                    }
                    let frame = read.retimed(to: timestamp)
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
        if clock.restarts > 0 {
            Console.error(
                "warning: the clock of \(source) went back \(clock.restarts) time(s) (a joined stream, a restarted "
                    + "source): the frames after each went on from the frame before, their timestamps \(clock.shift) ms "
                    + "after the source's at the end\n")
        }
        let summary = stats.summary(noun: Task.taskDescription.foundNoun)
        // "0 failed" counts frames: a run the source or the MP4 stopped says so.
        Console.error("summary: \(summary)\(failure.map { "; stopped by: \($0)" } ?? "")\n")
        return !output.anyFailed && stats.inOrder
    }
}

/// A live source's timestamps as the task gets them: strictly increasing. A frame in the millisecond of the frame
/// before gets none (it is dropped); where the source's clock goes back (a joined stream, a restarted camera or
/// stream), the frames go on from the frame before, one frame interval after it, shifted from then on.
struct LiveClock {
    /// What is added to the source's timestamps (0 until its clock first goes back).
    private(set) var shift = 0
    /// How often the source's clock went back.
    private(set) var restarts = 0
    private var last: Int?
    private var interval = 1

    /// The timestamp to send a frame the source stamps `sourceTimestamp` at; nil for one in the last one's millisecond.
    mutating func timestamp(of sourceTimestamp: Int) -> Int? {
        var timestamp = sourceTimestamp.addingReportingOverflow(shift).partialValue
        if let last {
            if timestamp == last { return nil }
            if timestamp < last {
                restarts += 1
                shift =
                    shift.addingReportingOverflow(last.addingReportingOverflow(interval).partialValue - timestamp)
                    .partialValue
                timestamp = last.addingReportingOverflow(interval).partialValue
            } else {
                // The interval the frames after a restart go on at: the last step, within a second.
                interval = min(timestamp.subtractingReportingOverflow(last).partialValue, 1000)
            }
        }
        last = timestamp
        return timestamp
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

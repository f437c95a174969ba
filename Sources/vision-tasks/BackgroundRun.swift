import ArgumentParser
import Dispatch
import Foundation
import VideoIO
import VisionCore
import VisionTasks

/// One `background` run over three threads (ffmpeg decodes and encodes in processes of its own): a reader
/// takes decoded frames (a live source drops the oldest waiting frame rather than wait), the calling
/// thread renders each frame (`BackgroundRenderer`), and a writer hands the rendered frames to the MP4
/// or the virtual camera, then back to the renderer to be filled again. The queues hold two frames each,
/// so memory stays bounded. Ctrl-C ends a live run cleanly (the MP4 holds the frames up to then, as when the
/// source fails); it stops a video file's run with exit status 130 and no MP4 (the file would be cut short,
/// as when it fails). The summary is one JSON line on standard output.
final class BackgroundRun: @unchecked Sendable {
    /// Where the frames go.
    enum Destination {
        /// An H.264 MP4 file, encoded with the preset.
        case file(String, VideoWriter.Preset)
        /// A V4L2 output device, in the pixel format it takes.
        case camera(String, VirtualCamera.PixelFormat)

        /// The file or device written.
        var path: String {
            switch self {
            case .file(let path, _), .camera(let path, _): path
            }
        }
    }

    private let source: String
    private let live: Bool
    private let destination: Destination
    private let settings: BackgroundSettings
    private let segmenter: ImageSegmenter
    private let threads: Int
    /// The most pixels a source frame may have (`--max-image-pixels`).
    private let maxFramePixels: Int
    private let decoded = BlockingQueue<VideoFrame>(capacity: 2)
    private let rendered = BlockingQueue<(width: Int, height: Int, rgb: [UInt8], timestamp: Int)>(capacity: 2)
    /// Frames the writer has written, handed back for the renderer to fill again (no new frame's memory each time).
    private let spare = BlockingQueue<[UInt8]>(capacity: 2)
    private let lock = NSLock()
    private var firstFailure: (any Error)? // guarded by `lock`, as the two below
    private var interruption: Int32? // the stop signal that came, if one did
    private var finished = false // the destination was finished whole
    private var dropped = 0 // reader thread, read after it joined
    private var measures = BackgroundMeasures() // calling thread

    init(
        source: String, live: Bool, destination: Destination, settings: BackgroundSettings, segmenter: ImageSegmenter,
        threads: Int, maxFramePixels: Int
    ) {
        (self.source, self.live, self.destination, self.settings) = (source, live, destination, settings)
        (self.segmenter, self.threads, self.maxFramePixels) = (segmenter, threads, maxFramePixels)
    }

    /// Runs to the end of the source (or Ctrl-C, or the first failure, which it throws).
    func run() throws {
        let started = Date()
        let isFile = VideoInfo.isRegularFile(source)
        let reader =
            live
            ? try VideoReader(liveSource: source, realTime: isFile, maxPixelCount: maxFramePixels)
            : try VideoReader(
                contentsOfFile: source,
                decoderThreads: VideoRun.decoderThreads(
                    cores: ProcessInfo.processInfo.activeProcessorCount, inferenceThreads: threads),
                maxPixelCount: maxFramePixels)
        let info = reader.info ?? (isFile ? try? VideoInfo.probe(path: source) : nil)
        let rate = info?.writingFrameRate ?? "30"
        let stopReading = reader.makeInterrupter()
        nonisolated(unsafe) let handedOver = reader // used by the reader thread alone from here on
        // Ctrl-C, kill or a closed terminal: a live source's few waiting frames are rendered and its MP4 finished; a
        // video file's run is abandoned (its frames already decoded are not rendered, its MP4 not written).
        Console.stopping({ [self] number in
            lock.withLock {
                if interruption == nil { interruption = number }
            }
            stopReading()
            if !live {
                decoded.close()
                rendered.close()
            }
        }) {
            let readerThread = PipelineThread(name: "background-read") { self.readFrames(handedOver) }
            let writerThread = PipelineThread(name: "background-write") {
                self.writeFrames(rate: rate, fileStart: info?.fileStartSeconds ?? 0)
            }
            renderFrames()
            readerThread.join()
            writerThread.join()
        }
        if let warning = handedOver.streamWarning { Console.error("warning: \(warning)\n") }
        if let failure = lock.withLock({ firstFailure }) {
            if case .file(let path, _) = destination, lock.withLock({ finished }) {
                Console.error("\(path) holds the frames rendered before the failure below\n")
            }
            throw failure
        }
        if !live, let number = lock.withLock({ finished ? nil : interruption }) {
            var line = "error: interrupted after \(measures.frames) frames of \(source)"
            if case .file(let path, _) = destination { line += "; \(path) was not written" }
            Console.error(line + "\n")
            throw ExitCode(128 + number)
        }
        measures.finish(seconds: Date().timeIntervalSince(started), dropped: dropped)
        Console.out(try measures.summaryLine(stats: settings.measure) + "\n")
    }

    /// Records the first failure and stops every stage.
    private func fail(_ error: any Error) {
        lock.withLock { if firstFailure == nil { firstFailure = error } }
        decoded.close()
        rendered.close()
    }

    /// Reader thread: every frame; a live source drops the oldest waiting one when rendering lags.
    private func readFrames(_ reader: VideoReader) {
        defer { decoded.close() }
        do {
            while let frame = try reader.nextFrame() {
                if live {
                    if decoded.pushDroppingOldest(frame) { dropped += 1 }
                } else if !decoded.push(frame) {
                    return
                }
            }
        } catch {
            fail(error)
        }
    }

    /// Calling thread: each frame rendered in order (the renderer is made for the first frame's size).
    private func renderFrames() {
        defer { rendered.close() }
        var renderer: BackgroundRenderer?
        var lastTimestamp = Int.min
        do {
            while let frame = decoded.pop() {
                if renderer == nil {
                    do {
                        renderer = try BackgroundRenderer(
                            segmenter: segmenter, width: frame.width, height: frame.height, settings: settings)
                    } catch VisionTasksError.invalidArgument(let reason) {
                        throw VisionTasksError.invalidVideo("\(source) has \(reason)")
                    }
                }
                guard let renderer else { return }
                // Video mode needs increasing timestamps; a source repeating one moves on by a millisecond.
                lastTimestamp = max(frame.timestampInMilliseconds, lastTimestamp + 1)
                var out = spare.popIfAny() ?? []
                let report = try renderer.render(frame.image(), timestampInMilliseconds: lastTimestamp, into: &out)
                measures.add(report)
                // Placed in the MP4 by the source's own timestamp (a clock that goes back restarts there).
                guard rendered.push((frame.width, frame.height, out, frame.timestampInMilliseconds)) else { return }
            }
        } catch {
            fail(error)
        }
    }

    /// Writer thread: the frames to the file or device, opened for the first frame's size.
    private func writeFrames(rate: String, fileStart: Double) {
        var writer: VideoWriter?
        do {
            while let frame = rendered.pop() {
                if writer == nil {
                    switch destination {
                    case .file(let path, let preset):
                        // A video file's sound goes with it (a live source's frames may stop before its sound).
                        writer = try VideoWriter(
                            path: path, width: frame.width, height: frame.height, frameRate: rate, preset: preset,
                            audio: live
                                ? nil : .init(path: source, fromSeconds: Double(frame.timestamp) / 1000 - fileStart),
                            live: live)
                    case .camera(let device, let format):
                        writer = try VideoWriter(
                            v4l2Device: device, width: frame.width, height: frame.height, frameRate: rate,
                            format: format)
                    }
                }
                // A file plays in the source's time: frames a live run dropped, or a variable rate, are held.
                if case .file = destination {
                    try writer?.write(rgb: frame.rgb, timestampInMilliseconds: frame.timestamp)
                } else {
                    try writer?.write(rgb: frame.rgb)
                }
                spare.pushDroppingOldest(frame.rgb)
            }
            // A source that ended or was stopped before its first frame wrote nothing: a failure, said (a live run
            // stopped so used to end as if it had written its MP4).
            guard let writer else {
                if lock.withLock({ firstFailure == nil && (live || interruption == nil) }) {
                    throw VisionTasksError.processingFailed(
                        "no frame came from \(source) before the run ended, so \(destination.path) was not written")
                }
                return
            }
            // A video file's run that failed or was interrupted is cut short: its writer is dropped unfinished. A
            // live source's MP4 is the frames up to its end, however it ended (Ctrl-C, a camera unplugged).
            guard lock.withLock({ live || (firstFailure == nil && interruption == nil) }) else { return }
            try writer.finish()
            lock.withLock { finished = true }
            if case .file(let path, _) = destination { VideoRun.warnAbout(writer, path) }
        } catch {
            fail(error)
        }
    }
}

/// What a `background` run counts and, with `--stats`, measures of its masks (at the working size):
/// the mean frame-to-frame change of the model's masks (raw) and of the masks used (after reuse and
/// smoothing), the IoU at 0.5 of each mask used with that frame's own model mask, and of each reused
/// mask with the fresh one.
struct BackgroundMeasures {
    /// Frames rendered so far.
    private(set) var frames = 0
    private var reused = 0, seconds = 0.0, dropped = 0
    private var previousFresh: FloatPlane?, previousUsed: FloatPlane?
    private var rawChange = Mean(), usedChange = Mean(), usedIoU = Mean(), reusedIoU = Mean()

    /// A running mean with its minimum.
    struct Mean: Encodable {
        var sum = 0.0, count = 0, min = Double.infinity
        mutating func add(_ value: Double) {
            (sum, count, min) = (sum + value, count + 1, Swift.min(min, value))
        }
        var mean: Double? { count > 0 ? sum / Double(count) : nil }
    }

    /// Counts one rendered frame.
    mutating func add(_ report: BackgroundFrameReport) {
        frames += 1
        if report.reused { reused += 1 }
        if let fresh = report.fresh {
            if let previousFresh { rawChange.add(Double(MaskReusePolicy.meanAbsoluteDifference(previousFresh, fresh))) }
            if let previousUsed {
                usedChange.add(Double(MaskReusePolicy.meanAbsoluteDifference(previousUsed, report.mask)))
            }
            usedIoU.add(Self.iou(report.mask, fresh))
            if report.reused { reusedIoU.add(Self.iou(report.raw, fresh)) }
            previousFresh = fresh
        }
        previousUsed = report.mask
    }

    /// The run's length and the frames a live source dropped.
    mutating func finish(seconds: Double, dropped: Int) { (self.seconds, self.dropped) = (seconds, dropped) }

    /// The intersection over union of the pixels above 0.5 in `a` and `b` (1 when neither has any).
    static func iou(_ a: FloatPlane, _ b: FloatPlane) -> Double {
        var (both, either) = (0, 0)
        for (p, q) in zip(a.values, b.values) {
            let (x, y) = (p > 0.5, q > 0.5)
            if x && y { both += 1 }
            if x || y { either += 1 }
        }
        return either == 0 ? 1 : Double(both) / Double(either)
    }

    /// The summary JSON line: counts, frames per second and CPU seconds per frame (this process and its
    /// finished ffmpeg children), and with `stats` the mask measures.
    func summaryLine(stats: Bool) throws -> String {
        var usage = rusage(), children = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &children)
        let cpu = [usage.ru_utime, usage.ru_stime, children.ru_utime, children.ru_stime].reduce(0.0) {
            $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6
        }
        var line: [String: Double] = [
            "frames": Double(frames), "segmented": Double(frames - reused), "reused": Double(reused),
            "dropped": Double(dropped), "seconds": seconds,
            "framesPerSecond": seconds > 0 ? Double(frames) / seconds : 0,
            "cpuSecondsPerFrame": frames > 0 ? cpu / Double(frames) : 0,
        ]
        if stats {
            let measured: [(String, Double?)] = [
                ("flickerRaw", rawChange.mean), ("flickerSmoothed", usedChange.mean),
                ("iouUsedVsFreshMean", usedIoU.mean), ("iouUsedVsFreshMin", usedIoU.count > 0 ? usedIoU.min : nil),
                ("iouReusedVsFreshMean", reusedIoU.mean),
                ("iouReusedVsFreshMin", reusedIoU.count > 0 ? reusedIoU.min : nil),
            ]
            for case (let key, let value?) in measured { line[key] = value }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(line), as: UTF8.self)
    }
}

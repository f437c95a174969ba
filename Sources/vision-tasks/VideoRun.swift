import Foundation
import VideoIO
import VisionRender
import VisionTasks

// MARK: - Video run

/// Video mode over a video file: each selected frame goes to the task with its presentation
/// timestamp; one JSON line per frame; `--annotate out.mp4` writes the frames with results drawn.
///
/// Three threads overlap the work (ffmpeg decodes and encodes in processes of its own): a reader
/// takes decoded frames from ffmpeg (turned into RGB straight in the task's images), the calling thread runs the task
/// frame after frame, and a writer prints the JSON lines and draws and encodes the annotated
/// frames, in frame order. The queues between them hold `VideoPipeline.depth` frames each, so
/// memory stays bounded whatever the video's length.
enum VideoRun {
    /// ffmpeg's decoding threads beside a task of `inferenceThreads` threads on `cores` cores: the
    /// cores the task leaves, at least one (ffmpeg's own choice is about one per core: on 2 cores at
    /// 720p, one thread took 18% less of ffmpeg's CPU and 30 MB less memory, and no longer).
    static func decoderThreads(cores: Int, inferenceThreads: Int) -> Int { max(1, cores - inferenceThreads) }

    /// Processes the video at `path`, writing its lines to `output`; returns false if it or a frame failed.
    static func run<Task: DescribedTask>(
        _ path: String, options: MediaOptions, factory: MediaTaskFactory<Task>,
        output: JSONLines
    ) throws -> Bool {
        let failuresBefore = output.failures
        // The model loads while ffprobe and ffmpeg start, in processes of their own.
        let making = BackgroundValue(name: "video-task") { try factory.make(.video, nil) }
        let reader: VideoReader
        do {
            reader = try VideoReader(
                contentsOfFile: path, startMs: try options.startMs, endMs: try options.endMs,
                decoderThreads: decoderThreads(
                    cores: ProcessInfo.processInfo.activeProcessorCount,
                    inferenceThreads: factory.threads),
                maxPixelCount: options.imageLimit.maxImagePixels)
        } catch {
            _ = try? making.value()
            output.process(input: path) { () throws -> Task.TaskResult in throw error }
            return false
        }
        let task = try making.value()
        let pipeline = VideoPipeline(path: path, reader: reader, task: task, output: output, options: options)
        let started = Date()
        pipeline.run()
        if let failure = pipeline.failure {
            output.process(input: path) { () throws -> Task.TaskResult in throw failure }
            return false
        }
        if pipeline.seen == 0, let start = options.start {
            // Nothing at or after --start (or up to --end): say so rather than end with no line at all.
            let begins = reader.info?.startSeconds.flatMap { $0 > 0.0005 ? String(format: ", from %.3f s", $0) : nil }
            let length = reader.info?.durationSeconds.map { String(format: " (%.2f s long%@)", $0, begins ?? "") } ?? ""
            let startSeconds = Double((try? options.startMs ?? 0) ?? 0) / 1000
            let last = (reader.info?.startSeconds ?? 0) + (reader.info?.durationSeconds ?? .infinity)
            let reason =
                if let end = options.end, startSeconds < last {
                    "no frame of \(path)\(length) lies between --start \(start) and --end \(end)"
                } else {
                    "\(start) is past the last frame of \(path)\(length)"
                }
            output.process(input: path) { () throws -> Task.TaskResult in
                throw VisionTasksError.invalidOption(name: "--start", reason: reason)
            }
            return false
        }
        if let warning = reader.streamWarning { Console.error("warning: \(warning)\n") }
        let seconds = Date().timeIntervalSince(started)
        Console.error(
            String(
                format: "summary: %d frames decoded, %d processed, %d %@ found, %d failed, %.1f frames/s\n",
                pipeline.seen, pipeline.processed, pipeline.found, Task.taskDescription.foundNoun,
                output.failures - failuresBefore,
                seconds > 0 ? Double(pipeline.processed) / seconds : 0))
        return output.failures == failuresBefore
    }

    /// Says on standard error what `writer`'s MP4 at `path` does not keep of its source (`VideoWriter.omissions`).
    static func warnAbout(_ writer: VideoWriter, _ path: String) {
        for omission in writer.omissions(naming: path) { Console.error("warning: \(omission)\n") }
    }

    /// The rate to write every `every`-th frame at: "30/1" with 2 → "30/2", and at least 1 frame a second (the frames
    /// are placed by their timestamps, so a slower one is held; at "30/60000" the last frame lasted 2000 s).
    static func rate(_ frameRate: String, every: Int) -> String {
        let parts = frameRate.split(separator: "/")
        guard let num = parts.first.flatMap({ Int($0) }), num > 0 else { return "25" }
        let den = max(1, parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
        let (product, overflow) = den.multipliedReportingOverflow(by: every)
        return overflow || product > num ? "1" : "\(num)/\(product)"
    }

    /// The advice ending the error of a frame that shares a millisecond, in a run keeping one frame in `every`: the
    /// `--every` that brings a video of `framesPerSecond` (0 when unknown) under 1000 frames/s, at least twice `every`
    /// and within `MediaOptions.everyRange` (empty when `every` is its top already).
    static func everyAdvice(every: Int, framesPerSecond: Double) -> String {
        let needed = framesPerSecond.isFinite ? (framesPerSecond / 1000).rounded(.up) : 0
        let next = Int(min(Double(MediaOptions.everyRange.upperBound), max(Double(every) * 2, needed)))
        return next > every ? "; --every \(next) keeps one frame in \(next)" : ""
    }
}

// MARK: - Pipeline stages

/// One `--video` run's three stages and what they share. Each stage's state is touched by its own
/// thread only; the counters are read after the threads have joined.
final class VideoPipeline<Task: DescribedTask>: @unchecked Sendable {
    /// Frames each queue holds (decoded and waiting for the task; done and waiting for the writer).
    static var depth: Int { 2 }

    private let path: String
    private let reader: VideoReader
    private let task: Task
    private let output: JSONLines
    private let every: Int
    private let annotate: String?
    private let masks: String?
    private let quality: VideoQuality
    private let rate: String
    /// Where the sound copied into the annotated video ends, seconds after the file's start (`--end`; nil: its end).
    private let soundEnd: Double?
    private let bar: ProgressBar?
    private let decoded = BlockingQueue<VideoFrame>(capacity: depth)
    private let done = BlockingQueue<(frame: VideoFrame, result: Swift.Result<Task.TaskResult, any Error>)>(
        capacity: depth)
    private let lock = NSLock()
    private var firstFailure: (any Error)?
    /// Frames decoded (reader thread), processed (task thread), things found (writer thread).
    private(set) var seen = 0, processed = 0, found = 0

    init(path: String, reader: VideoReader, task: Task, output: JSONLines, options: MediaOptions) {
        self.path = path
        self.reader = reader
        self.task = task
        self.output = output
        every = options.every
        annotate = options.annotate
        masks = options.masks
        quality = options.quality
        rate = reader.info.map { VideoRun.rate($0.writingFrameRate, every: options.every) } ?? "25"
        soundEnd = (try? options.endMs)?.map { Double($0) / 1000 - (reader.info?.fileStartSeconds ?? 0) }
        bar = options.showProgress ? reader.info?.frameCount.map { ProgressBar(total: $0, unit: "frames") } : nil
    }

    /// What stopped the run (a decoding, drawing or encoding error), if anything did.
    var failure: (any Error)? { lock.withLock { firstFailure } }

    /// Runs the three stages to the end of the video (or the first failure).
    func run() {
        let readerThread = PipelineThread(name: "video-read") { self.readFrames() }
        let writerThread = PipelineThread(name: "video-write") { self.writeResults() }
        runTask()
        readerThread.join()
        writerThread.join()
        bar?.clear()
    }

    /// Stops every stage at once (a drawing or encoding failure).
    private func fail(_ error: any Error) {
        lock.withLock { if firstFailure == nil { firstFailure = error } }
        decoded.close()
        done.close()
    }

    /// Reader thread: decoded frames, every `every`-th one.
    private func readFrames() {
        defer { decoded.close() }
        do {
            while let frame = try reader.nextFrame() {
                seen += 1
                guard (seen - 1) % every == 0 else { continue }
                guard decoded.push(frame) else { return }
            }
        } catch {
            // Decoding stopped early (a truncated file): the frames already read still go through the
            // task and the writer, in order, and the error is reported after them.
            lock.withLock { if firstFailure == nil { firstFailure = error } }
        }
    }

    /// Calling thread: the task on each frame in order (a frame's error goes to the writer, which
    /// prints it as that frame's line).
    private func runTask() {
        defer { done.close() }
        var last: (index: Int, timestampInMilliseconds: Int)?
        let advice = VideoRun.everyAdvice(every: every, framesPerSecond: reader.info?.framesPerSecond ?? 0)
        while let frame = decoded.pop() {
            processed += 1
            bar?.update(done: frame.index + 1)
            let result = Swift.Result {
                if let repeated = frame.repeatedTimestamp(
                    after: last, in: path, framesPerSecond: reader.info?.framesPerSecond, advice: advice)
                {
                    throw repeated
                }
                last = (frame.index, frame.timestampInMilliseconds)
                return try MaskFiles.writing(
                    try task.processVideoFrame(frame.image(), timestampInMilliseconds: frame.timestampInMilliseconds),
                    to: masks
                ) { MaskFiles.framePath(folder: $0, video: path, frame: frame.index, name: $1) }
            }
            guard done.push((frame, result)) else { return }
        }
    }

    /// Writer thread: the JSON line of each frame, then (with `--annotate`) the frame drawn and encoded.
    private func writeResults() {
        var writer: VideoWriter?
        var annotation: Annotation?
        do {
            while let (frame, result) = done.pop() {
                output.process(input: path, frame: frame.index, timestamp: frame.timestampInMilliseconds) {
                    try result.get()
                }
                let drawn = try? result.get()
                if let drawn { found += Task.foundCount(in: drawn) }
                guard let annotate else { continue }
                if writer == nil {
                    // The file's sound from the first frame written (`--start`) to `--end`.
                    let soundStart =
                        Double(frame.timestampInMilliseconds) / 1000 - (reader.info?.fileStartSeconds ?? 0)
                    writer = try VideoWriter(
                        path: annotate, width: frame.width, height: frame.height, frameRate: rate,
                        preset: quality.preset,
                        audio: .init(path: path, fromSeconds: soundStart, toSeconds: soundEnd))
                }
                // One canvas for the whole video: each frame is copied into it, drawn on, and packed
                // for the encoder straight from the canvas.
                let picture = frame.image()
                if let annotation, annotation.width == frame.width, annotation.height == frame.height {
                    try annotation.replace(with: picture)
                } else {
                    annotation = try Annotation(image: picture)
                }
                guard let annotation else { continue }
                if let drawn { drawn.draw(on: annotation) }
                if let writer {
                    try annotation.withBGRXBytes {
                        try writer.write(
                            pixels: $0, layout: .bgrx, rowBytes: $1,
                            timestampInMilliseconds: frame.timestampInMilliseconds)
                    }
                }
            }
            // A run that failed anywhere (a truncated file too) leaves no MP4: the writer, dropped unfinished,
            // removes its partial file, so a short video never looks whole at the path.
            if lock.withLock({ firstFailure == nil }) {
                try writer?.finish()
                if let writer, let annotate { VideoRun.warnAbout(writer, annotate) }
            }
        } catch {
            fail(error)
        }
    }
}

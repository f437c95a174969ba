import Foundation
import VisionCore
import VisionErrors

// MARK: - Frame

/// One decoded video frame: upright RGB pixels and the frame's presentation timestamp.
public struct VideoFrame: Sendable {
    /// The frame's position among the frames ffmpeg decoded, from 0 at the start of the stream.
    public let index: Int
    /// The presentation timestamp in milliseconds (the stream's own, rounded to the nearest ms).
    public let timestampInMilliseconds: Int
    /// The frame as an upright RGB image (ffmpeg's pixels converted, or read when ffmpeg decoded RGB, straight into it).
    let picture: MPImage

    /// Width in pixels.
    public var width: Int { picture.width }
    /// Height in pixels.
    public var height: Int { picture.height }

    /// A copy of the packed RGB bytes (3 per pixel), row by row, `width * height * 3` in all.
    public var pixels: [UInt8] { picture.withUnsafeBufferBytes { [UInt8]($0) } }

    /// The frame as an upright RGB `MPImage`, ready for a task's `detect(videoFrame:timestampInMilliseconds:)`
    /// (the frame's own pixels, not a copy).
    public func image() -> MPImage { picture }

    /// The same frame (the same pixels) at `timestamp`: for a live run that goes on after its source's clock went back.
    public func retimed(to timestamp: Int) -> VideoFrame {
        VideoFrame(index: index, timestampInMilliseconds: timestamp, picture: picture)
    }

    /// The error for this frame of `source` when its timestamp does not pass `previous`, the frame a video-mode task
    /// took last (whole milliseconds that must increase); nil when it passes or there was none. A repeated millisecond
    /// in a source of fewer than 1000 `framesPerSecond` is a frame of no length; otherwise (or at an unknown rate: a
    /// Matroska file of 1500 frames/s declares its 1 ms clock as its rate) it is a video faster than 1000 frames/s,
    /// which cannot give every frame, and `advice` ends the message.
    public func repeatedTimestamp(
        after previous: (index: Int, timestampInMilliseconds: Int)?, in source: String,
        framesPerSecond: Double? = nil, advice: String = ""
    ) -> VisionTasksError? {
        guard let previous, timestampInMilliseconds <= previous.timestampInMilliseconds else { return nil }
        let last = "frame \(previous.index) (\(previous.timestampInMilliseconds) ms)"
        guard timestampInMilliseconds == previous.timestampInMilliseconds else {
            return .invalidTimestamp(
                "frame \(index) of \(source) is at \(timestampInMilliseconds) ms, before \(last), the last the task took: "
                    + "the video's timestamps go back (a cut or joined stream), and video mode takes them increasing only"
            )
        }
        if let framesPerSecond, framesPerSecond > 0, framesPerSecond < 1000 {
            return .invalidTimestamp(
                "frame \(index) of \(source) repeats the timestamp of \(last): the file holds a frame of no length, and "
                    + "video mode takes one frame a timestamp")
        }
        return .invalidTimestamp(
            "frame \(index) of \(source) is at \(timestampInMilliseconds) ms, not after \(last): video mode takes at "
                + "most one frame a millisecond, so a video faster than 1000 frames/s cannot give every frame\(advice)")
    }
}

// MARK: - Reader

/// Decodes a video file or a live source with ffmpeg into upright RGB frames with their real
/// presentation timestamps (ffmpeg's `showinfo`, with `-copyts`), honouring rotation metadata
/// as ffmpeg's autorotate does. Read frames with `nextFrame()` until it returns nil.
public final class VideoReader {
    /// The file or source this reader decodes.
    public let source: String
    /// What ffprobe said about the file (nil for devices and streams, which are not probed).
    public let info: VideoInfo?
    private let child: ChildProcess
    private let log: ShowinfoLog
    private let earlyEnd: EarlyEndCheck
    private let conversion = RGBConversion()
    private let startMs: Int?
    private let endMs: Int?
    private let maxPixelCount: Int
    private var finished = false
    /// What the frames read so far do not show: ffmpeg logged errors while decoding a stream that still gave the
    /// frames it announces (or announces none, as raw H.264; MPEG-TS estimates its length from what is there), so it
    /// may be cut or damaged, which cannot be told from a whole file there (known at its end); or frames changed size
    /// mid-stream (ffmpeg scales them to the first frame's size, so their results are in a stretched picture; known
    /// from the first such frame read, at `--end` or Ctrl-C too). Nil otherwise (a file that ends before its
    /// announced length throws).
    public var streamWarning: String? {
        var warnings = damage.map { [$0] } ?? []
        if let resized = log.firstResized, resized.index <= lastIndex ?? -1 {
            warnings.append(
                "the frames of \(source) change size: frame \(resized.index) on is \(resized.size), scaled to the first "
                    + "frame's \(resized.first) (their results are in that stretched picture)")
        }
        return warnings.isEmpty ? nil : warnings.joined(separator: "; ")
    }
    /// Set at the end of a stream ffmpeg logged errors in (`streamWarning`).
    private var damage: String?
    /// The index of the last frame read.
    private var lastIndex: Int?
    /// The pixel format ffmpeg decodes the frames to (`yuv420p`, `yuv420p10le`, ...), before they are turned
    /// into RGB; nil until the first frame is read.
    public private(set) var decodedPixelFormat: String?

    /// Opens a video file. Frames before `startMs` are skipped and decoding stops after `endMs`
    /// (both in the stream's timestamps). `decoderThreads` caps ffmpeg's decoding threads (nil:
    /// ffmpeg's choice, about one per core; a caller running inference beside it leaves it the cores
    /// it does not use).
    /// - Parameters:
    ///   - path: The video file.
    ///   - startMs: The first timestamp kept, in milliseconds (nil: from the start).
    ///   - endMs: The last timestamp kept, in milliseconds (nil: to the end).
    ///   - decoderThreads: ffmpeg's decoding threads, at least 1 (nil: ffmpeg's choice).
    ///   - maxPixelCount: The most pixels a frame may have (as `ImageDecodingOptions` for images): a small file
    ///     of huge frames fails at its first frame instead of taking gigabytes.
    /// - Throws: `VisionTasksError.fileNotFound` for a missing file; `.invalidVideo` naming the file when it
    ///   is a directory, not a video ffprobe reads, has no video stream, or ffmpeg cannot be found or
    ///   started; `.invalidOption` for `decoderThreads` or `maxPixelCount` below 1.
    public convenience init(
        contentsOfFile path: String, startMs: Int? = nil, endMs: Int? = nil,
        decoderThreads: Int? = nil, maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount
    ) throws {
        if let decoderThreads, decoderThreads < 1 {
            throw VisionTasksError.invalidOption(
                name: "decoderThreads", reason: "must be at least 1, got \(decoderThreads)")
        }
        // ffprobe and ffmpeg start together; the probe's answer is awaited once decoding has begun.
        let probe = try VideoInfo.PendingProbe(path: path, maxPixelCount: maxPixelCount)
        do {
            try self.init(
                source: path, input: VideoInfo.fileInput(path), info: { try probe.result() },
                inputOptions: decoderThreads.map { ["-threads", String($0)] } ?? [],
                startMs: startMs, endMs: endMs, maxPixelCount: maxPixelCount)
        } catch {
            probe.cancel() // ffmpeg did not start: ffprobe is not left running unattended (a no-op once it answered)
            throw error
        }
    }

    /// Opens anything ffmpeg opens (a V4L2 device such as /dev/video0, a stream URL, a file).
    /// `realTime` plays a file at its own frame rate (`-re`), as a camera would deliver it. A regular
    /// file is probed too, so that a truncated one is reported as it is for `init(contentsOfFile:)`, and read as the
    /// file of that name (`file:`), whatever protocol its name looks like.
    /// - Parameters:
    ///   - source: A device path, a stream URL or a file, as ffmpeg's `-i` takes it.
    ///   - realTime: Whether to read at the stream's own frame rate (`-re`).
    ///   - maxPixelCount: The most pixels a frame may have, as for `init(contentsOfFile:)`.
    /// - Throws: `VisionTasksError.invalidVideo` when ffmpeg cannot be found or started, a file's frames are over
    ///   `maxPixelCount`, or the source is standard input (ffmpeg's is not this process's); `.invalidOption` for
    ///   `maxPixelCount` below 1. A source ffmpeg cannot open fails at the first `nextFrame()`.
    public convenience init(
        liveSource source: String, realTime: Bool, maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount
    ) throws {
        if ["-", "pipe:", "pipe:0", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(source) {
            throw VisionTasksError.invalidVideo(
                "\(source) is standard input, which ffmpeg is not given: write the stream into a named pipe "
                    + "(mkfifo) and give its path")
        }
        var options: [String] = realTime ? ["-re"] : []
        if source.hasPrefix("/dev/video") { options += ["-f", "v4l2"] }
        let facts = VideoInfo.fileFacts(source)
        let isFile = facts?.kind == S_IFREG // a link to one too
        if isFile, facts?.size == 0 { throw VideoInfo.emptyFile(source) }
        let probe = isFile ? try? VideoInfo.PendingProbe(path: source, maxPixelCount: maxPixelCount) : nil
        let info = try probe?.resultIfReadable()
        try self.init(
            source: source, input: isFile ? VideoInfo.fileInput(source) : source, info: { info },
            inputOptions: options, startMs: nil, endMs: nil, maxPixelCount: maxPixelCount)
    }

    /// Starts ffmpeg on `input` (`source` as ffmpeg's `-i` takes it), then takes `info` (which may wait for a probe
    /// started before it); ffmpeg is stopped if that throws.
    private init(
        source: String, input: String, info: () throws -> VideoInfo?, inputOptions: [String], startMs: Int?,
        endMs: Int?, maxPixelCount: Int
    ) throws {
        guard maxPixelCount >= 1 else {
            throw VisionTasksError.invalidOption(
                name: "maxPixelCount", reason: "must be at least 1, got \(maxPixelCount)")
        }
        self.source = source
        self.startMs = startMs
        self.endMs = endMs
        self.maxPixelCount = maxPixelCount
        // The filter's name is drawn anew for each reader: a frame line is one that starts with it, so text
        // from the file (a title tag, which ffmpeg prints to the same stderr) cannot pose as one.
        let log = ShowinfoLog(filterName: "showinfo@f" + String(UInt64.random(in: .min ... .max), radix: 16))
        self.log = log
        let earlyEnd = EarlyEndCheck()
        self.earlyEnd = earlyEnd
        // showinfo without its per-plane checksums and statistics, which cost more CPU per frame
        // than decoding (we read only the pts, size, pixel format and colours from it). Frames come
        // in the format they were decoded to, turned into RGB here (`RGBConversion`). The decoder itself
        // refuses frames over `maxPixelCount` (`-max_pixels`), before it allocates them.
        child = try ChildProcess(
            tool: "ffmpeg",
            arguments: [
                "-hide_banner", "-nostdin", "-nostats", "-loglevel", "level+info",
                "-max_pixels", String(min(maxPixelCount, Int(Int32.max))),
            ] + inputOptions + [
                "-i", input, "-map", "0:v:0", "-copyts", "-fps_mode", "passthrough",
                "-vf", log.filterName + "=checksum=0", "-f", "rawvideo", "pipe:1",
            ], onStderrLine: { log.take($0) || earlyEnd.take($0) }, onStderrEnd: { log.close() })
        do {
            self.info = try info()
        } catch {
            child.stop()
            throw error
        }
    }

    deinit {
        child.stop()
    }

    /// The next frame, or nil at the end of the stream (or after `endMs`, or once the interrupter ran).
    /// - Returns: The next frame kept, or nil at the end.
    /// - Throws: `VisionTasksError.invalidVideo` naming the source when ffmpeg fails, the stream has no frames,
    ///   its frames have more than `maxPixelCount` pixels, a frame's pixels cannot be read or converted or its
    ///   timestamp lies outside `FrameContext.timestampRange`, and
    ///   naming the frame where decoding stopped when a file ends early; `.invalidImage` for a frame too large
    ///   to hold.
    public func nextFrame() throws -> VideoFrame? {
        while !finished {
            guard let entry = log.entry() else {
                return try end()
            }
            let layout = entry.layout
            decodedPixelFormat = layout.pixelFormat
            guard layout.width >= 1, layout.height >= 1 else {
                close()
                throw VisionTasksError.invalidVideo(
                    "ffmpeg gave frames of \(layout.width)x\(layout.height) for \(source), which is no picture size")
            }
            let (pixels, overflow) = layout.width.multipliedReportingOverflow(by: layout.height)
            guard !overflow, pixels <= maxPixelCount else {
                close()
                throw tooLarge(width: layout.width, height: layout.height)
            }
            let picture: MPImage?
            do {
                picture = try MPImage.filling(
                    width: layout.width, height: layout.height, format: .rgb8, slack: RGBConversion.padding,
                    { rgb in
                        try conversion.fill(rgb, layout: layout, source: source) {
                            try child.readExactly(into: $0, what: "frame \(entry.index) of \(source)")
                        }
                    })
            } catch _ where child.wasTerminated {
                return try end() // interrupted in the middle of a frame: the end that was asked for
            }
            guard let picture else { return try end() }
            guard FrameContext.timestampRange.contains(entry.timestampMs) else {
                close()
                throw VisionTasksError.invalidVideo(
                    "frame \(entry.index) of \(source) has timestamp \(entry.timestampMs) ms, beyond the ±"
                        + "\(FrameContext.timestampRange.upperBound) ms a frame may carry")
            }
            if let startMs, entry.timestampMs < startMs { continue }
            if let endMs, entry.timestampMs > endMs {
                finished = true
                child.stop()
                return nil
            }
            lastIndex = entry.index
            return VideoFrame(index: entry.index, timestampInMilliseconds: entry.timestampMs, picture: picture)
        }
        return nil
    }

    private func end() throws -> VideoFrame? {
        finished = true
        let status = child.wait()
        if child.wasTerminated { return nil }
        if let info, info.width * info.height > maxPixelCount {
            throw tooLarge(width: info.width, height: info.height) // ffmpeg refused the first frame
        }
        if status != 0 {
            throw VisionTasksError.invalidVideo(
                "ffmpeg could not decode \(source) (stopped at frame \(log.framesSeen)): \(child.lastStderr())")
        }
        if log.framesSeen == 0 {
            throw VisionTasksError.invalidVideo("\(source) has no video frames")
        }
        if let message = earlyEnd.earlyEnd(source: source, decoded: log.framesSeen, info: info) {
            throw VisionTasksError.invalidVideo(message)
        }
        if let error = earlyEnd.lastErrorMessage {
            // Decoded to the length the file gives, or it gives none (MPEG-TS estimates it from what is there, raw
            // H.264 gives none): an error may be a cut end or a damaged stretch ffmpeg concealed, or harmless (a
            // capture that starts mid-GOP).
            damage =
                "ffmpeg reported errors while decoding \(source): it may be truncated or damaged (\(log.framesSeen) "
                + "frames read; last: \(error))"
        }
        return nil
    }

    /// The error for frames of `width`×`height`, over `maxPixelCount`.
    private func tooLarge(width: Int, height: Int) -> VisionTasksError {
        Self.framesTooLarge(source, width: width, height: height, limit: maxPixelCount)
    }

    /// The error for `source`'s frames of `width`×`height`, over `limit` pixels (from the decoder or the probe).
    static func framesTooLarge(_ source: String, width: Int, height: Int, limit: Int) -> VisionTasksError {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return .invalidVideo(
            "\(source) has frames of \(width)x\(height) (\(overflow ? "over \(Int.max)" : "\(pixels)") pixels), more than the limit of "
                + "\(limit) pixels a frame (the images' limit, ImageDecodingOptions.maxPixelCount)")
    }

    /// A function that makes ffmpeg stop, callable from any thread (a signal handler, say): the
    /// reading thread then sees the stream end (`nextFrame()` returns nil).
    public func makeInterrupter() -> @Sendable () -> Void {
        let child = self.child
        return { child.terminate() }
    }

    /// Stops decoding early; later `nextFrame()` calls return nil.
    public func close() {
        finished = true
        child.stop()
    }
}

// MARK: - showinfo log

/// The per-frame lines of ffmpeg's `showinfo` filter, parsed as they arrive on stderr: time base
/// from the config line, then for each frame its pts, size and pixel format, and after any side
/// data lines, its colour line.
final class ShowinfoLog: @unchecked Sendable {
    /// The filter instance's name (`showinfo@…`): its lines, and only they, start with `[` and this name.
    let filterName: String
    private let linePrefix: String

    /// A log of the lines of the showinfo instance named `filterName`.
    init(filterName: String) {
        self.filterName = filterName
        linePrefix = "[" + filterName + " @ "
    }

    struct Entry {
        let index: Int
        let timestampMs: Int
        /// How the frame's bytes arrive on the pipe.
        let layout: RGBConversion.Layout
    }

    /// The frames' entries, from the stderr thread to the reader; not bounded: ffmpeg writes a
    /// frame's lines just before its pixels, and the pixel pipe holds at most a frame or two.
    private let entries = BlockingQueue<Entry>(capacity: nil)
    private let counting = NSLock()
    private var count = 0 // guarded by `counting`
    // Touched only by `take` and `close`, on the stderr thread.
    private var timeBase: (num: Int64, den: Int64) = (1, 1000)
    private var output: (width: Int, height: Int, pixelFormat: String)?
    private var pending: (index: Int, timestampMs: Int)? // a frame line whose colour line is still to come
    private var resized: (index: Int, size: String, first: String)?

    /// The first frame whose size is not the first frame's (which ffmpeg scales to it), with both sizes; read once the
    /// stream ended (ffmpeg's stderr is read to its end before its frames are).
    var firstResized: (index: Int, size: String, first: String)? { counting.withLock { resized } }

    /// How many frames showinfo reported so far.
    var framesSeen: Int { counting.withLock { count } }

    /// Takes one stderr line; true if it was showinfo's.
    func take(_ line: String) -> Bool {
        guard line.hasPrefix(linePrefix) else { return false }
        if let range = line.range(of: "config in time_base: ") {
            let fraction = line[range.upperBound...].prefix { $0 != "," }.split(separator: "/")
            if fraction.count == 2, let n = Int64(fraction[0]), let d = Int64(fraction[1]), n > 0, d > 0 {
                timeBase = (n, d)
            }
        } else if line.contains(" n:"), let pts = Self.field("pts:", in: line).flatMap({ Int64($0) }),
            let size = Self.field("s:", in: line)
        {
            flush()
            let dims = size.split(separator: "x").compactMap { Int($0) }
            // The output keeps the first frame's size and pixel format (ffmpeg scales later frames to them).
            if output == nil, dims.count == 2, let format = Self.field("fmt:", in: line) {
                output = (dims[0], dims[1], format)
            }
            if let output, dims.count == 2, dims != [output.width, output.height] {
                counting.withLock {
                    if resized == nil { resized = (count, String(size), "\(output.width)x\(output.height)") }
                }
            }
            let ms = (Double(pts) * Double(timeBase.num) * 1000 / Double(timeBase.den)).rounded()
            let index = counting.withLock { () -> Int in
                defer { count += 1 }
                return count
            }
            // Clamped, not trapped: `nextFrame` refuses a timestamp outside `FrameContext.timestampRange`.
            pending = (index, Int(min(max(ms, -9e18), 9e18)))
        } else if line.contains(" color_range:") {
            flush(
                space: Self.field("color_space:", in: line) ?? "unknown",
                range: Self.field("color_range:", in: line) ?? "unknown")
        }
        return true
    }

    /// Hands on the pending frame with these colours (unknown: its colour line never came).
    private func flush(space: String = "unknown", range: String = "unknown") {
        guard let frame = pending else { return }
        pending = nil
        guard let output else { return }
        entries.push(
            Entry(
                index: frame.index, timestampMs: frame.timestampMs,
                layout: RGBConversion.Layout(
                    pixelFormat: output.pixelFormat, width: output.width, height: output.height, colorSpace: space,
                    colorRange: range)))
    }

    /// Marks the end of stderr.
    func close() {
        flush()
        entries.close()
    }

    /// The next frame's entry, waiting for it; nil when stderr ended without one.
    func entry() -> Entry? { entries.pop() }

    private static func field(_ name: String, in line: String) -> String? {
        guard let range = line.range(of: " " + name) else { return nil }
        let rest = line[range.upperBound...].drop { $0 == " " }
        return String(rest.prefix { $0 != " " })
    }
}

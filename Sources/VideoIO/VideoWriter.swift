import Foundation
import VisionCore
import VisionErrors

/// Writes RGB frames as an H.264 MP4 (libx264, yuv420p) at a constant frame rate, through
/// ffmpeg's stdin: each frame once, or placed by its timestamp when one is given (`FramePlacement`); with a source
/// file's sound when asked (`AudioTrack`). Frames are packed to I420 here (half the bytes of RGB through the pipe, and
/// ffmpeg's slower RGB conversion skipped). The MP4 is written beside its path as its `OutputFile` partial file
/// (`<path>.partial-<pid>`, which a run ended by a signal removes) and `finish()` renames it into place, so a failed
/// or interrupted run never leaves a short video that looks whole at the path (nor replaces a file there); a writer
/// dropped unfinished stops ffmpeg and removes the partial file.
public final class VideoWriter {
    /// How libx264 trades encoding speed for file size (every preset plays in browsers: yuv420p, MP4).
    public enum Preset: String, Sendable, CaseIterable {
        /// libx264 `ultrafast`: the least CPU per frame, files several times larger.
        case ultrafast
        /// libx264 `superfast`: a fraction of `veryfast`'s CPU for somewhat larger files.
        case superfast
        /// libx264 `veryfast`: small files at a moderate CPU cost.
        case veryfast
        /// libx264 `medium` (x264's default): the smallest files here, several times `veryfast`'s CPU.
        case medium
    }

    /// A source file's sound, copied into the MP4 beside the frames: its first audio stream (none: the MP4 is
    /// silent), from `fromSeconds` to `toSeconds` after the file's start (its earliest stream's) when given, encoded as
    /// AAC.
    public struct AudioTrack: Sendable, Equatable {
        /// The file the sound is taken from.
        public let path: String
        /// Where the sound starts, seconds after the file's start (nil: at its start).
        public let fromSeconds: Double?
        /// Where it ends, seconds after the file's start (nil: at its end).
        public let toSeconds: Double?

        /// The sound of `path` from `fromSeconds` to `toSeconds` after its start.
        public init(path: String, fromSeconds: Double? = nil, toSeconds: Double? = nil) {
            (self.path, self.fromSeconds, self.toSeconds) = (path, fromSeconds, toSeconds)
        }

        /// ffmpeg's options before the file's `-i`: where its sound starts (none under half a millisecond, which
        /// `%.3f` writes as 0) and ends (no end at or before the start).
        var range: [String] {
            let from = max(0, fromSeconds ?? 0)
            return (from >= 0.0005 ? ["-ss", String(format: "%.3f", from)] : [])
                + (toSeconds.flatMap { $0 > from ? ["-to", String(format: "%.3f", $0)] : nil } ?? [])
        }

        /// ffmpeg's second input and the output options that take its sound.
        var arguments: [String] {
            // -max_error_rate 1: a sound damaged further in (its start decodes) is concealed, not the MP4 lost (ffmpeg
            // gives up past 2/3 of packets in error by default).
            ["-max_error_rate", "1"] + range + [
                "-i", VideoInfo.fileInput(path), "-map", "0:v", "-map", "1:a:0", "-c:a", "aac", "-b:a", "160k",
            ]
        }

        /// Whether the MP4 takes this sound, found by decoding its first 0.2 s (an audio stream ffmpeg cannot decode
        /// failed the whole MP4 at its first packet), and why not when the file has a sound it cannot take (nil: it
        /// takes it, or the file is silent).
        func check() -> (takes: Bool, problem: String?) {
            if let toSeconds, toSeconds <= max(0, fromSeconds ?? 0) { return (false, nil) } // one instant: no sound
            guard
                let probe = try? ChildProcess(
                    tool: "ffmpeg",
                    arguments: ["-v", "error", "-nostdin"] + range + [
                        "-i", VideoInfo.fileInput(path), "-map", "0:a:0", "-t", "0.2", "-f", "null", "-",
                    ])
            else { return (false, "ffmpeg could not be started to read it") }
            guard probe.wait() == 0 else {
                let reason = probe.lastStderr()
                if reason.contains("matches no streams") { return (false, nil) } // no audio stream
                return (false, reason.isEmpty ? "ffmpeg cannot decode it" : reason)
            }
            return (true, nil)
        }
    }

    /// Why the source's sound was left out of this MP4 (`AudioTrack.check`: one ffmpeg cannot decode), if it was.
    public let soundLeftOut: String?

    /// The file being written.
    public let path: String
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    private let child: ChildProcess
    /// The file ffmpeg writes until `finish()` renames it to `target`, the file `path` is or links to (nil:
    /// ffmpeg writes `path` itself).
    private let partial: (file: String, target: String)?
    private var finished = false
    private var written = 0
    private var packed: [UInt8]
    /// Where timestamped frames went so far, with the gaps it shortened and the restarts of their clock.
    public private(set) var placement: FramePlacement

    /// What the MP4 does not keep of its source, one sentence each naming it as `name` (for a warning): a sound
    /// ffmpeg could not decode, holds `placement` shortened (the sound after them then plays early), restarts of the
    /// source's clock.
    public func omissions(naming name: String) -> [String] {
        var lines = soundLeftOut.map { ["\(name) is silent: the source's sound: \($0)"] } ?? []
        if placement.shortenedGaps > 0 {
            let ordinary = Int(FramePlacement.ordinaryHoldSeconds)
            lines.append(
                "\(name): \(placement.shortenedGaps) long gap(s) between frames were shortened (each to "
                    + "\(Int(FramePlacement.longestHoldSeconds)) s at most; after "
                    + "\(Int(FramePlacement.longHoldBudgetSeconds / 60)) minutes of gaps over \(ordinary) s, to "
                    + "\(ordinary) s); any sound after them plays early")
        }
        if placement.clockJumps > 0 {
            lines.append(
                "\(name): \(placement.clockJumps) hold(s) were cut to the wall time that passed (and a second): the "
                    + "source's clock ran ahead of it (a jump in it, or the frames' processing stalled)")
        }
        if placement.restarts > 0 {
            lines.append(
                "\(name): the source's clock went back \(placement.restarts) time(s) (a joined stream); the frames after each go "
                    + "on from the frame before")
        }
        return lines
    }

    /// Starts writing `path` (replaced by `finish()` if it exists) with frames of `width`×`height` at
    /// `frameRate` (a number or a fraction such as "30000/1001") with libx264's `preset`. Odd sizes grow
    /// by one pixel for H.264, the last column or row repeated. `path` must be a regular file or none yet
    /// (`destinationProblem`).
    /// - Parameters:
    ///   - path: The MP4 file to write.
    ///   - width: Frame width in pixels, 1...16384.
    ///   - height: Frame height in pixels, 1...16384.
    ///   - frameRate: Frames per second: a positive number or fraction ("30", "30000/1001").
    ///   - preset: libx264's speed/size trade-off.
    ///   - audio: A file whose sound the MP4 takes (nil: silent).
    ///   - live: Whether the frames come from a live source: a timestamped frame is then held at most as long as the
    ///     wall clock ran until the next (`FramePlacement`'s `wallClock`).
    /// - Throws: `VisionTasksError.invalidArgument` for a size outside 1...16384 or a `path` that is no regular
    ///   file; `.invalidOption` for a frame rate that is not positive; `.invalidVideo` when ffmpeg cannot be found or
    ///   started.
    public convenience init(
        path: String, width: Int, height: Int, frameRate: String, preset: Preset = .veryfast, audio: AudioTrack? = nil,
        live: Bool = false
    ) throws {
        if let problem = Self.destinationProblem(path) { throw VisionTasksError.invalidArgument(problem) }
        let partial = OutputFile.beginPartial(for: path)
        let sound = audio.map { ($0, $0.check()) }
        try self.init(
            path: path, width: width, height: height, frameRate: frameRate,
            output: (sound.flatMap { $0.1.takes ? $0.0.arguments : nil } ?? []) + [
                "-c:v", "libx264", "-preset", preset.rawValue, "-crf", "20",
                "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", partial.file,
            ], partial: partial, soundLeftOut: sound?.1.problem, live: live)
    }

    /// Why an MP4 cannot be written at `path` (it, or the file a link there points to, exists and is a pipe, a device,
    /// a socket or a folder: an MP4's index is written last, over its start, and this writer renames a finished file
    /// into place), or nil when it can be. A pipe there made ffmpeg wait for a reader, for good.
    public static func destinationProblem(_ path: String) -> String? {
        guard let kind = VideoInfo.fileFacts(path)?.kind else { return nil }
        guard kind == S_IFREG else {
            return "\(path) is not a regular file (a pipe, a device, a socket or a folder): an MP4 is written to a file"
        }
        guard !OutputFile.isInProc(OutputFile.target(of: path)) else {
            return
                "\(path) leads to a process's open file (/dev/stdout, /proc/self/fd/N): an MP4 is written to a file by its name"
        }
        return nil
    }

    /// Starts ffmpeg taking I420 frames of `width`×`height` (padded to even) at `frameRate` on its stdin
    /// and writing them as `output` (ffmpeg's output options and destination) says; `path` names the
    /// destination in errors, and `finish()` renames `partial.file`, if given, to `partial.target`; `live`: as the MP4
    /// initializer takes it. Throws as the MP4 initializer does.
    init(
        path: String, width: Int, height: Int, frameRate: String, output: [String],
        partial: (file: String, target: String)? = nil, soundLeftOut: String? = nil, live: Bool = false
    ) throws {
        // The partial file reserved for this writer is released when it fails before ffmpeg starts.
        var started = false
        defer { if !started, let partial { OutputFile.endPartial(partial.file) } }
        self.soundLeftOut = soundLeftOut
        // H.264 (libx264) takes at most 16384 pixels a side; refusing more here also bounds the
        // packing buffer.
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw VisionTasksError.invalidArgument(
                "video frames of \(width)×\(height) for \(path) (H.264 takes 1 to 16384 pixels a side)")
        }
        guard let framesPerSecond = VideoInfo.rate(frameRate) else {
            throw VisionTasksError.invalidOption(
                name: "frameRate", reason: "\(frameRate) is not a positive rate for \(path)")
        }
        placement = FramePlacement(
            framesPerSecond: framesPerSecond, wallClock: live ? FramePlacement.monotonicSeconds : nil)
        self.path = path
        self.width = width
        self.height = height
        self.partial = partial
        packed = [UInt8](repeating: 0, count: I420Packing.byteCount(width: width, height: height))
        child = try ChildProcess(
            tool: "ffmpeg",
            arguments: Self.inputArguments(width: width, height: height, frameRate: frameRate) + output, input: true)
        if let partial { OutputFile.setWriter(child.processIdentifier, of: partial.file) }
        started = true
    }

    /// Removes `partial`'s file and forgets it.
    private static func discard(_ partial: (file: String, target: String)?) {
        guard let partial else { return }
        OutputFile.endPartial(partial.file)
        unlink(partial.file)
    }

    /// ffmpeg's options up to its input: raw I420 frames of the padded size at `frameRate` on stdin.
    static func inputArguments(width: Int, height: Int, frameRate: String) -> [String] {
        let (w2, h2) = I420Packing.paddedSize(width: width, height: height)
        return [
            "-hide_banner", "-nostats", "-loglevel", "error", "-y",
            "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(w2)x\(h2)", "-framerate", frameRate, "-i", "pipe:0",
        ]
    }

    deinit {
        guard !finished else { return }
        child.stop(discarding: partial != nil)
        Self.discard(partial)
    }

    /// Appends one frame of packed RGB bytes (exactly `width * height * 3`).
    /// - Parameters:
    ///   - pixels: The frame's RGB bytes, row by row.
    ///   - timestampInMilliseconds: The frame's time, to place it by (`FramePlacement`); nil appends it once.
    /// - Throws: `VisionTasksError.invalidArgument` for a wrong byte count or a finished writer;
    ///   `.invalidVideo` when ffmpeg stopped taking frames.
    public func write(rgb pixels: [UInt8], timestampInMilliseconds: Int? = nil) throws {
        guard pixels.count == width * height * 3 else {
            throw VisionTasksError.invalidArgument(
                "a frame for \(path) needs \(width * height * 3) RGB bytes, got \(pixels.count)")
        }
        try pixels.withUnsafeBytes {
            try write(pixels: $0, layout: .rgb, rowBytes: width * 3, timestampInMilliseconds: timestampInMilliseconds)
        }
    }

    /// Appends one frame: the image as it shows upright, whose size must be the writer's.
    /// - Parameter image: The frame, `width`×`height` once upright.
    /// - Throws: `VisionTasksError.invalidArgument` for another size or a finished writer; `.invalidImage`
    ///   when the upright copy cannot be allocated; `.invalidVideo` when ffmpeg stopped taking frames.
    public func write(_ image: MPImage) throws {
        guard image.width == width, image.height == height else {
            throw VisionTasksError.invalidArgument(
                "a frame for \(path) must be \(width)x\(height), got \(image.width)x\(image.height)")
        }
        let upright = try image.uprightRGB()
        try upright.withUnsafeBufferBytes { try write(pixels: $0, layout: .rgb, rowBytes: upright.bufferBytesPerRow) }
    }

    /// Appends one frame of the writer's size in `layout`, rows `rowBytes` apart (a drawing
    /// canvas's own buffer, say, with no copy to RGB first).
    /// - Parameters:
    ///   - pixels: The frame's bytes.
    ///   - layout: How a pixel is stored (RGB or BGRX).
    ///   - rowBytes: Bytes from one row's start to the next's.
    ///   - timestampInMilliseconds: The frame's time, to place it by (`FramePlacement`: the frame before it is
    ///     held until then, and a frame whose slot is taken is left out); nil appends it once.
    /// - Throws: `VisionTasksError.invalidArgument` for a finished writer or a buffer too small for the
    ///   frame; `.invalidVideo` when ffmpeg stopped taking frames.
    public func write(
        pixels: UnsafeRawBufferPointer, layout: I420Packing.Layout, rowBytes: Int, timestampInMilliseconds: Int? = nil
    ) throws {
        guard !finished else { throw VisionTasksError.invalidArgument("\(path) is already finished") }
        let (width, height) = (width, height)
        guard
            let needed = I420Packing.sourceByteCount(width: width, height: height, rowBytes: rowBytes, layout: layout),
            pixels.count >= needed
        else {
            throw VisionTasksError.invalidArgument(
                "a frame for \(path) of \(width)x\(height) \(layout) pixels \(rowBytes) bytes apart does not fit in \(pixels.count) bytes"
            )
        }
        if let timestampInMilliseconds {
            let place = placement.place(timestampInMilliseconds: timestampInMilliseconds)
            guard place.write else { return }
            for _ in 0..<place.repeatsOfPrevious { try writePacked() } // `packed` still holds the frame before
        }
        try packed.withUnsafeMutableBytes {
            try I420Packing.pack(pixels, layout: layout, width: width, height: height, rowBytes: rowBytes, into: $0)
        }
        try writePacked()
    }

    /// Sends the packed frame to ffmpeg.
    private func writePacked() throws {
        try packed.withUnsafeBytes { try child.write($0, what: "frame \(written) for \(path)") }
        written += 1
    }

    /// Closes the input, waits for ffmpeg to finish the file and puts it at `path`; throws if it failed
    /// (and then leaves nothing at `path`).
    /// - Throws: `VisionTasksError.invalidVideo` with ffmpeg's last message when it failed, or the reason
    ///   the finished file could not be renamed to `path`.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        child.closeInput()
        let status = child.wait()
        guard status == 0 else {
            Self.discard(partial)
            throw VisionTasksError.invalidVideo("ffmpeg could not write \(path): \(child.lastStderr())")
        }
        if let partial {
            OutputFile.endPartial(partial.file)
            if rename(partial.file, partial.target) != 0 {
                let reason = String(cString: strerror(errno))
                unlink(partial.file)
                throw VisionTasksError.invalidVideo("could not put the finished video at \(path): \(reason)")
            }
        }
    }
}

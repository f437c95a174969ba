import Foundation
import VisionCore
import VisionErrors

/// What `ffprobe` says about a video file's first video stream, with its rotation applied.
public struct VideoInfo: Codable, Sendable, Equatable {
    /// Width of the upright picture in pixels (after the rotation metadata is honoured).
    public let width: Int
    /// Height of the upright picture in pixels.
    public let height: Int
    /// The rotation metadata of the stream in degrees (0, 90, 180, 270); frames are delivered upright.
    public let rotation: Int
    /// Frames per second as a fraction, e.g. "30000/1001" (the stream's average, else its base rate).
    public let frameRate: String
    /// Length in seconds, when the container says.
    public let durationSeconds: Double?
    /// Number of frames, when the container says.
    public let frameCount: Int?
    /// The stream's base rate, when ffprobe gives one (`r_frame_rate`: the rate every timestamp falls on; above the
    /// average in a variable-rate video).
    public var baseFrameRate: String? = nil
    /// When the stream starts, in seconds (its first presentation time: a cut or joined stream may start after 0; the
    /// frames' timestamps are counted from the same origin).
    public var startSeconds: Double? = nil
    /// When the file starts, in seconds: its earliest stream's start (its sound may start before its frames); ffmpeg's
    /// `-ss` counts from here.
    public var fileStartSeconds: Double? = nil

    /// `frameRate` as a number (0 if unknown).
    public var framesPerSecond: Double { Self.rate(frameRate) ?? 0 }

    /// The rate to write this video's frames at, placed by their timestamps (`FramePlacement`): the average rate, or
    /// the base rate where it is higher (a variable-rate video's dense parts then keep their frames) up to
    /// `highestWritingRate`; an average above `highestConstantRate`, or none, gives `highestWritingRate`.
    public var writingFrameRate: String {
        let fallback = "\(Int(Self.highestWritingRate))"
        guard let base = baseFrameRate, let baseRate = Self.rate(base), baseRate > framesPerSecond else {
            return framesPerSecond > 0 && framesPerSecond <= Self.highestConstantRate ? frameRate : fallback
        }
        if baseRate <= Self.highestWritingRate { return base }
        return framesPerSecond > 0 && framesPerSecond >= Self.highestWritingRate
            && framesPerSecond <= Self.highestConstantRate ? frameRate : fallback
    }

    /// The highest rate `writingFrameRate` takes from a base rate (a file's base rate may be its clock's, 90000), and
    /// its rate when the file gives none it takes.
    public static let highestWritingRate = 60.0
    /// The highest average rate `writingFrameRate` keeps: video mode takes one frame a millisecond at most.
    public static let highestConstantRate = 1000.0

    /// Whether `path` is a regular file, a link to one too (a video file, to be played at its real rate as a live
    /// source), not a camera, a pipe or a stream's URL, whatever its name says (a file in /dev/shm is a file).
    public static func isRegularFile(_ path: String) -> Bool {
        fileFacts(path)?.kind == S_IFREG
    }

    /// The kind of file at `path` (`st_mode & S_IFMT`: `S_IFREG`, `S_IFIFO`, ...) and its size in bytes, links
    /// followed; nil when there is none. The one question VideoIO asks of a path before ffmpeg opens it or writes it.
    static func fileFacts(_ path: String) -> (kind: mode_t, size: Int)? {
        var status = stat()
        return stat(path, &status) == 0 ? (status.st_mode & S_IFMT, Int(status.st_size)) : nil
    }

    /// The error for a regular file of 0 bytes (ffmpeg's own words for one are about a missing "moov atom").
    static func emptyFile(_ path: String) -> VisionTasksError {
        .invalidVideo("\(path) is empty (0 bytes)")
    }

    /// The `-i` of ffmpeg and ffprobe for the file at `path`: its absolute path behind the `file:` protocol, so a name
    /// such as `clip:1.mp4` or `concat:a.mp4|b.mp4` is the file of that name, not a protocol reading others.
    static func fileInput(_ path: String) -> String {
        "file:" + URL(fileURLWithPath: path).path
    }

    /// Probes `path` with ffprobe.
    /// - Parameters:
    ///   - path: The video file.
    ///   - maxPixelCount: The most pixels a frame may have: ffprobe decodes a frame or two to learn the stream,
    ///     and a small file of huge frames would take it gigabytes (`-max_pixels` makes its decoder refuse them).
    /// - Throws: `VisionTasksError.fileNotFound` for a missing file; `.invalidVideo` for a directory, a file
    ///   ffprobe cannot read or without a video stream, frames over `maxPixelCount` (saying their size), or when
    ///   ffprobe cannot be found or started.
    public static func probe(
        path: String, maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount
    ) throws -> VideoInfo {
        try PendingProbe(path: path, maxPixelCount: maxPixelCount).result()
    }

    /// A probe running while the caller does something else (starts the decoder, say): the file
    /// checks and ffprobe's launch happen at once, `result()` waits for its answer.
    struct PendingProbe {
        private let path: String
        private let child: ChildProcess
        private let maxPixelCount: Int
        private let refused = RefusedFrameSize()

        /// Checks that `path` is a file and starts ffprobe on it, its decoder refusing frames over
        /// `maxPixelCount` pixels; throws as `probe(path:maxPixelCount:)`.
        init(path: String, maxPixelCount: Int) throws {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw VisionTasksError.fileNotFound(path: path)
            }
            guard !isDirectory.boolValue else {
                throw VisionTasksError.invalidVideo("\(path) is a directory, not a video")
            }
            // ffprobe would wait on a pipe for a writer, for good (as the reader's ffmpeg would).
            guard let facts = VideoInfo.fileFacts(path), facts.kind == S_IFREG else {
                throw VisionTasksError.invalidVideo(
                    "\(path) is not a regular file (a pipe, a device or a socket); read a stream as a live source")
            }
            guard facts.size > 0 else { throw VideoInfo.emptyFile(path) }
            self.path = path
            self.maxPixelCount = Swift.max(1, maxPixelCount)
            let refused = self.refused
            child = try ChildProcess(
                tool: "ffprobe",
                arguments: [
                    "-v", "error", "-max_pixels", String(Swift.min(self.maxPixelCount, Int(Int32.max))),
                    "-select_streams", "v:0",
                    "-show_entries",
                    "stream=width,height,r_frame_rate,avg_frame_rate,duration,nb_frames,start_time:stream_side_data=rotation:stream_tags=rotate:format=duration,start_time",
                    "-of", "json", VideoInfo.fileInput(path),
                ], onStderrLine: { refused.take($0) })
        }

        /// What ffprobe found, or nil when it could not read the file or its answer (ffmpeg may still: a live source);
        /// throws for frames over the pixel limit, and for a file ffprobe read whole that holds no video stream (an
        /// audio file: ffmpeg's own words for it name a stream map).
        func resultIfReadable() throws -> VideoInfo? {
            guard let output = try answer() else { return nil }
            do {
                return try VideoInfo.parse(json: output, path: path)
            } catch let error as VisionTasksError where error == VideoInfo.noVideoStream(path) {
                throw error
            } catch {
                return nil
            }
        }

        /// Stops ffprobe without waiting for its answer (the caller gave up on the file).
        func cancel() {
            child.stop()
        }

        /// What ffprobe found (its output is small: it never waits on the pipe for us).
        func result() throws -> VideoInfo {
            guard let output = try answer() else {
                throw VisionTasksError.invalidVideo("\(path) is not a video ffprobe can read: \(child.lastStderr())")
            }
            return try VideoInfo.parse(json: output, path: path)
        }

        /// ffprobe's answer, or nil when it failed; throws for frames over the pixel limit.
        private func answer() throws -> Data? {
            let output = child.readAllStdout()
            guard child.wait() == 0 else {
                if let (width, height) = refused.size {
                    throw VideoReader.framesTooLarge(path, width: width, height: height, limit: maxPixelCount)
                }
                return nil
            }
            return output
        }
    }

    private struct Probe: Decodable {
        struct Stream: Decodable {
            struct SideData: Decodable { let rotation: Double? }
            let width: Int?
            let height: Int?
            let r_frame_rate: String?
            let avg_frame_rate: String?
            let duration: String?
            let nb_frames: String?
            let start_time: String?
            let side_data_list: [SideData]?
            let tags: [String: String]?
        }
        struct Format: Decodable {
            let duration: String?
            let start_time: String?
        }
        let streams: [Stream]?
        let format: Format?
    }

    static func parse(json: Data, path: String) throws -> VideoInfo {
        let probe: Probe
        do {
            probe = try JSONDecoder().decode(Probe.self, from: json)
        } catch {
            throw VisionTasksError.invalidVideo("ffprobe's answer about \(path) could not be read: \(error)")
        }
        guard let stream = probe.streams?.first, let w = stream.width, let h = stream.height, w > 0, h > 0 else {
            throw noVideoStream(path)
        }
        // Typed step by step: Swift 6.2.3 infers the one-line form as `Optional<Any>??`.
        let sideData: Double? = stream.side_data_list?.compactMap(\.rotation).first
        let tag: Double? = stream.tags?["rotate"].flatMap { Double($0) }
        let degrees: Double = sideData ?? tag ?? 0
        guard degrees.isFinite else {
            throw VisionTasksError.invalidVideo("\(path) gives its rotation as \(degrees) degrees")
        }
        let rotation = ((Int(degrees.truncatingRemainder(dividingBy: 360).rounded()) % 360) + 360) % 360
        let quarter = rotation == 90 || rotation == 270
        let avg = stream.avg_frame_rate.flatMap { rate($0) ?? 0 > 0 ? $0 : nil }
        let duration = stream.duration.flatMap(Double.init) ?? probe.format?.duration.flatMap(Double.init)
        var info = VideoInfo(
            width: quarter ? h : w, height: quarter ? w : h, rotation: rotation,
            frameRate: avg ?? stream.r_frame_rate ?? "0/1", durationSeconds: duration,
            frameCount: stream.nb_frames.flatMap(Int.init))
        info.baseFrameRate = stream.r_frame_rate.flatMap { rate($0) == nil ? nil : $0 }
        info.startSeconds = stream.start_time.flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        info.fileStartSeconds = probe.format?.start_time.flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        return info
    }

    /// The error for a file that holds no video stream.
    static func noVideoStream(_ path: String) -> VisionTasksError {
        .invalidVideo("\(path) has no video stream")
    }

    /// "30000/1001" → 29.97; nil when not a positive fraction.
    public static func rate(_ text: String) -> Double? {
        let parts = text.split(separator: "/")
        guard let num = parts.first.flatMap({ Double($0) }) else { return nil }
        let den = parts.count > 1 ? Double(parts[1]) ?? 0 : 1
        guard den > 0, num > 0 else { return nil }
        return num / den
    }
}

/// The frame size an ffmpeg decoder refused for being over `-max_pixels`, read from its stderr line
/// "Picture size WxH exceeds specified max pixel count N".
final class RefusedFrameSize: @unchecked Sendable {
    private let lock = NSLock()
    private var found: (width: Int, height: Int)?

    /// The refused width and height, once a line said them.
    var size: (width: Int, height: Int)? { lock.withLock { found } }

    /// Takes `line` (returns true) when it is the refusal, keeping its size.
    func take(_ line: String) -> Bool {
        guard let range = line.range(of: "Picture size "), line.contains("exceeds specified max pixel count") else {
            return false
        }
        let dimensions = line[range.upperBound...].prefix { $0 != " " }.split(separator: "x")
        guard dimensions.count == 2, let width = Int(dimensions[0]), let height = Int(dimensions[1]) else {
            return false
        }
        lock.withLock { found = (width, height) }
        return true
    }
}

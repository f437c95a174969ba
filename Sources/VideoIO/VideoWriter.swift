import Foundation
import TFLite
import VisionCore

/// Writes RGB frames as an H.264 MP4 (libx264, yuv420p) at a constant frame rate, through
/// ffmpeg's stdin. Call `finish()` to close the file; a writer dropped unfinished stops ffmpeg.
public final class VideoWriter {
    /// The file being written.
    public let path: String
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    private let child: ChildProcess
    private var finished = false
    private var written = 0

    /// Starts writing `path` (replaced if it exists) with frames of `width`×`height` at `frameRate`
    /// (a number or a fraction such as "30000/1001"). Odd sizes are padded by one pixel for H.264.
    public init(path: String, width: Int, height: Int, frameRate: String) throws {
        guard width > 0, height > 0 else {
            throw VisionTasksError.invalidArgument("video frames of \(width)×\(height) for \(path)")
        }
        guard VideoInfo.rate(frameRate) != nil else {
            throw VisionTasksError.invalidOption(name: "frameRate", reason: "\(frameRate) is not a positive rate for \(path)")
        }
        self.path = path
        self.width = width
        self.height = height
        child = try ChildProcess(tool: "ffmpeg", arguments: [
            "-hide_banner", "-nostats", "-loglevel", "error", "-y",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", "-framerate", frameRate, "-i", "pipe:0",
            "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20",
            "-pix_fmt", "yuv420p", "-movflags", "+faststart", path,
        ], input: true)
    }

    deinit {
        if !finished { child.stop() }
    }

    /// Appends one frame of packed RGB bytes (`width * height * 3`).
    public func write(rgb pixels: [UInt8]) throws {
        try pixels.withUnsafeBytes { try write(rgbBytes: $0) }
    }

    /// Appends one frame: the image as it shows upright, whose size must be the writer's.
    public func write(_ image: MPImage) throws {
        guard image.width == width, image.height == height else {
            throw VisionTasksError.invalidArgument("a frame for \(path) must be \(width)x\(height), got \(image.width)x\(image.height)")
        }
        try image.uprightRGB().withUnsafeBufferBytes { try write(rgbBytes: $0) }
    }

    private func write(rgbBytes pixels: UnsafeRawBufferPointer) throws {
        guard !finished else { throw VisionTasksError.invalidArgument("\(path) is already finished") }
        guard pixels.count == width * height * 3 else {
            throw VisionTasksError.invalidArgument("a frame for \(path) needs \(width * height * 3) RGB bytes, got \(pixels.count)")
        }
        try child.write(pixels, what: "frame \(written) for \(path)")
        written += 1
    }

    /// Closes the input and waits for ffmpeg to finish the file; throws if it failed.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        child.closeInput()
        let status = child.wait()
        guard status == 0 else {
            throw VisionTasksError.invalidVideo("ffmpeg could not write \(path): \(child.lastStderr())")
        }
    }
}

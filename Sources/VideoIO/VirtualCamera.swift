import Foundation
import VisionErrors

/// A V4L2 video output device, such as the virtual camera a v4l2loopback device is: checked before any
/// frame is made, then written by ffmpeg (`-f v4l2`) in a pixel format the device accepts, so that video
/// call programs see it as a camera.
public enum VirtualCamera {
    /// The pixel formats written to the device.
    public enum PixelFormat: String, Sendable, CaseIterable {
        /// Packed 4:2:2 (V4L2 `YUYV`), what browsers and video call programs take most widely.
        case yuyv422
        /// Planar 4:2:0 (V4L2 `YU12`).
        case yuv420p

        /// The V4L2 four-character code of the format.
        public var fourCC: UInt32 { self == .yuyv422 ? Self.code("YUYV") : Self.code("YU12") }

        /// The little-endian four-character code of `text`'s four ASCII letters.
        static func code(_ text: String) -> UInt32 {
            text.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        }
    }

    /// The one-time setup that makes a virtual camera (/dev/videoN) on Linux.
    public static let setupLine = "sudo modprobe v4l2loopback exclusive_caps=1 card_label=VisionTasks"

    /// The format to write for a device listing `formats` (V4L2 codes): YUYV when listed or when the list
    /// is empty (a v4l2loopback device takes any format until a writer sets one), else YU12.
    /// - Throws: `VisionTasksError.invalidVideo` naming `device` when it lists neither.
    public static func pixelFormat(device: String, formats: [UInt32]) throws -> PixelFormat {
        if formats.isEmpty || formats.contains(PixelFormat.yuyv422.fourCC) { return .yuyv422 }
        if formats.contains(PixelFormat.yuv420p.fourCC) { return .yuv420p }
        let names = formats.map { code in
            String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }, as: UTF8.self)
        }
        throw VisionTasksError.invalidVideo(
            "\(device) takes neither YUYV nor YU12 frames (it lists \(names.joined(separator: ", ")))")
    }

    /// ffmpeg's whole command line (after `ffmpeg`) for I420 frames of `width`×`height` at `frameRate` on
    /// stdin written to `device` in `format`.
    public static func ffmpegArguments(
        device: String, width: Int, height: Int, frameRate: String, format: PixelFormat
    ) -> [String] {
        VideoWriter.inputArguments(width: width, height: height, frameRate: frameRate)
            + outputArguments(device: device, format: format)
    }

    /// ffmpeg's output options: the frames converted to `format` and written to `device` with `-f v4l2`.
    static func outputArguments(device: String, format: PixelFormat) -> [String] {
        ["-pix_fmt", format.rawValue, "-f", "v4l2", device]
    }

    /// Checks that `device` is a V4L2 video output and returns the pixel format to write it in.
    /// - Throws: `VisionTasksError.invalidVideo` naming the device and the setup line when it does not
    ///   exist, is not a V4L2 device, or is one that only captures.
    public static func check(device: String) throws -> PixelFormat {
        let setup =
            "make one with `\(setupLine)` (once per boot; the device is then /dev/videoN, see `v4l2-ctl --list-devices`)"
        var status = stat()
        guard stat(device, &status) == 0 else {
            throw VisionTasksError.invalidVideo("\(device) does not exist: \(setup)")
        }
        guard status.st_mode & S_IFMT == S_IFCHR else {
            let kind = [S_IFREG: "a file", S_IFDIR: "a folder", S_IFIFO: "a pipe", S_IFSOCK: "a socket"][
                status.st_mode & S_IFMT, default: "not a character device"]
            throw VisionTasksError.invalidVideo("\(device) is \(kind), not a video device: \(setup)")
        }
        let fd = open(device, O_RDWR | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            // Permissions are the usual reason; a device that is there but has no driver behind it (ENXIO, ENODEV)
            // is not a V4L2 device at all.
            let advice =
                code == EACCES || code == EPERM
                ? "check its permissions (the video group), or " : "it is no V4L2 device: "
            throw VisionTasksError.invalidVideo(
                "\(device) cannot be opened for writing (\(String(cString: strerror(code)))): \(advice)\(setup)")
        }
        defer { close(fd) }
        // VIDIOC_QUERYCAP: struct v4l2_capability (104 bytes), capabilities at 84, device_caps at 88.
        var capability = [UInt8](repeating: 0, count: 104)
        guard capability.withUnsafeMutableBytes({ ioctl(fd, UInt(0x8068_5600), $0.baseAddress!) }) == 0 else {
            throw VisionTasksError.invalidVideo("\(device) is not a V4L2 video device: \(setup)")
        }
        let word = { (at: Int) in capability[at..<(at + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        let caps = word(84) & 0x8000_0000 != 0 ? word(88) : word(84)
        // V4L2_CAP_VIDEO_OUTPUT, V4L2_CAP_VIDEO_OUTPUT_MPLANE.
        guard caps & (0x0000_0002 | 0x0000_2000) != 0 else {
            throw VisionTasksError.invalidVideo(
                "\(device) is a V4L2 device that does not take video output (a camera, say), not a virtual camera: \(setup)"
            )
        }
        return try pixelFormat(device: device, formats: outputFormats(fd))
    }

    /// The formats VIDIOC_ENUM_FMT lists for video output on an open device.
    private static func outputFormats(_ fd: Int32) -> [UInt32] {
        var formats: [UInt32] = []
        // struct v4l2_fmtdesc (64 bytes): index at 0, type at 4 (2: video output), pixelformat at 44.
        for index in 0..<64 {
            var description = [UInt8](repeating: 0, count: 64)
            description[0] = UInt8(index)
            description[4] = 2
            guard description.withUnsafeMutableBytes({ ioctl(fd, UInt(0xC040_5602), $0.baseAddress!) }) == 0 else {
                break
            }
            formats.append(description[44..<48].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        return formats
    }
}

extension VideoWriter {
    /// Starts writing frames of `width`×`height` at `frameRate` to the V4L2 output `device` in `format`
    /// (`VirtualCamera.check(device:)` gives the format); `finish()` closes it.
    /// - Throws: As the MP4 initializer does.
    public convenience init(
        v4l2Device device: String, width: Int, height: Int, frameRate: String, format: VirtualCamera.PixelFormat
    ) throws {
        try self.init(
            path: device, width: width, height: height, frameRate: frameRate,
            output: VirtualCamera.outputArguments(device: device, format: format))
    }
}

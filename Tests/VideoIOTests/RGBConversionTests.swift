import Foundation
import Testing
import VisionErrors

@testable import VideoIO

/// Frames cross the pipe in the format ffmpeg decoded them to and become RGB here: the pixels must
/// be those `ffmpeg -pix_fmt rgb24` writes, byte for byte, whatever the format, matrix and range.
@Suite struct RGBConversionTests {
    /// (what it is, the pixel format it decodes to, ffmpeg's encoding arguments, file name)
    static let videos: [(String, String, [String], String)] = [
        ("H.264 4:2:0, no colour tags", "yuv420p", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], "plain.mp4"),
        (
            "H.264 BT.709, limited range", "yuv420p",
            ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_range", "tv"], "bt709.mp4"
        ),
        (
            "H.264 BT.2020, limited range", "yuv420p",
            ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "bt2020nc", "-color_range", "tv"], "bt2020.mp4"
        ),
        ("H.264 full range (yuvj420p)", "yuvj420p", ["-c:v", "libx264", "-pix_fmt", "yuvj420p"], "full.mp4"),
        ("Motion JPEG", "yuvj420p", ["-c:v", "mjpeg"], "mjpeg.avi"),
        ("H.264 4:4:4", "yuv444p", ["-c:v", "libx264", "-pix_fmt", "yuv444p"], "444.mp4"),
        (
            "H.264 10-bit BT.709", "yuv420p10le",
            ["-c:v", "libx264", "-pix_fmt", "yuv420p10le", "-colorspace", "bt709"], "10bit.mp4"
        ),
        ("FFV1 odd size 4:2:0", "yuv420p", ["-vf", "scale=67:49", "-c:v", "ffv1", "-pix_fmt", "yuv420p"], "odd.mkv"),
        (
            "FFV1 4:2:0 tagged full range", "yuv420p", ["-c:v", "ffv1", "-pix_fmt", "yuv420p", "-color_range", "pc"],
            "full.mkv"
        ),
        ("FFV1 grey", "gray", ["-c:v", "ffv1", "-pix_fmt", "gray"], "grey.mkv"),
        ("GIF", "bgra", [], "anim.gif"),
        ("PNG frames with a palette", "pal8", ["-c:v", "png", "-pix_fmt", "pal8"], "palette.mov"),
        ("raw RGB", "rgb24", ["-c:v", "rawvideo", "-pix_fmt", "rgb24"], "rgb.nut"),
        // The packed and semi-planar formats cameras deliver (V4L2 webcams, capture cards).
        ("raw YUYV", "yuyv422", ["-c:v", "rawvideo", "-pix_fmt", "yuyv422"], "yuyv.nut"),
        ("raw UYVY", "uyvy422", ["-c:v", "rawvideo", "-pix_fmt", "uyvy422"], "uyvy.nut"),
        ("raw NV12", "nv12", ["-c:v", "rawvideo", "-pix_fmt", "nv12"], "nv12.nut"),
        ("raw 1-bit", "monob", ["-c:v", "rawvideo", "-pix_fmt", "monob"], "mono.nut"),
    ]

    @Test(arguments: videos)
    func framesAreFFmpegsRGBByteForByte(_ video: (String, String, [String], String)) throws {
        let (what, decoded, encoding, name) = video
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent(name)
        try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=96x64:r=10:d=0.5"] + encoding + [url.path])
        let expected = try Self.ffmpegRGB(of: url)
        let (frames, decodedFormat) = try Self.readFrames(of: url)
        let got = Data(frames.flatMap(\.pixels))
        #expect(decodedFormat == decoded, "\(what)")
        #expect(frames.count == 5, "\(what)")
        #expect(got.count == expected.count, "\(what)")
        #expect(Self.firstDifference(got, expected) == nil, "\(what): the frames differ from ffmpeg's rgb24")
    }

    /// One yuv420p frame of ffmpeg's testsrc2 at `width`×`height`, its planes' bytes.
    static func testFrame(width: Int, height: Int) throws -> Data {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let yuv = dir.appendingPathComponent("frame.yuv")
        try TestVideos.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=1:d=1", "-frames:v", "1",
            "-f", "rawvideo", "-pix_fmt", "yuv420p", yuv.path,
        ])
        return try Data(contentsOf: yuv)
    }

    /// libswscale may write past a row's end: Debian 12's on x86-64 wrote past the last RGB row of a
    /// frame whose width is not a multiple of 16 (a 360-pixel-wide H.264 video corrupted the heap of
    /// `vision-tasks --video`). The conversion writes nothing past the frame it is given.
    @Test(arguments: [360, 344, 362, 100])
    func theConversionWritesNothingPastTheFrame(width: Int) throws {
        let height = 48
        let planes = try Self.testFrame(width: width, height: height)
        let size = width * height * 3, canary: UInt8 = 0xA5
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: size + 4096, alignment: 64)
        defer { block.deallocate() }
        block.initializeMemory(as: UInt8.self, repeating: canary)
        let layout = RGBConversion.Layout(
            pixelFormat: "yuv420p", width: width, height: height,
            colorSpace: "unknown", colorRange: "unknown")
        let filled = try RGBConversion().fill(
            UnsafeMutableRawBufferPointer(rebasing: block[0..<size]), layout: layout,
            source: "frame.yuv"
        ) { buffer in
            #expect(buffer.count == planes.count)
            planes.copyBytes(to: buffer)
            return true
        }
        #expect(filled)
        #expect(block[0..<size].contains { $0 != canary }, "\(width)x\(height): no pixel written")
        let past = block[size...].filter { $0 != canary }.count
        #expect(past == 0, "\(width)x\(height): \(past) bytes written past the frame")
    }

    /// Given `padding` bytes of room past the frame (a reader's frame storage), the conversion writes straight
    /// into it: the same pixels as through its own buffer, and nothing past the room.
    @Test(arguments: [360, 1280])
    func withRoomPastTheFrameItConvertsInPlaceToTheSameBytes(width: Int) throws {
        let height = 48
        let planes = try Self.testFrame(width: width, height: height)
        let size = width * height * 3, room = size + RGBConversion.padding, canary: UInt8 = 0xA5
        let layout = RGBConversion.Layout(
            pixelFormat: "yuv420p", width: width, height: height, colorSpace: "unknown", colorRange: "unknown")
        let read = { (buffer: UnsafeMutableRawBufferPointer) -> Bool in
            planes.copyBytes(to: buffer)
            return true
        }
        var exact = [UInt8](repeating: 0, count: size)
        _ = try exact.withUnsafeMutableBytes {
            try RGBConversion().fill($0, layout: layout, source: "frame.yuv", read: read)
        }
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: room + 4096, alignment: 64)
        defer { block.deallocate() }
        block.initializeMemory(as: UInt8.self, repeating: canary)
        let filled = try RGBConversion().fill(
            UnsafeMutableRawBufferPointer(rebasing: block[0..<room]), layout: layout, source: "frame.yuv", read: read)
        #expect(filled && Array(block[0..<size]) == exact)
        #expect(block[room...].allSatisfy { $0 == canary }, "\(width)x\(height): written past the room")
    }

    /// What `ffmpeg -pix_fmt rgb24` writes for `url`, with the reader's own stream choice and timestamps.
    static func ffmpegRGB(of url: URL) throws -> Data {
        let reference = url.appendingPathExtension("rgb")
        try TestVideos.ffmpeg([
            "-i", url.path, "-map", "0:v:0", "-copyts", "-fps_mode", "passthrough",
            "-f", "rawvideo", "-pix_fmt", "rgb24", reference.path,
        ])
        return try Data(contentsOf: reference)
    }

    /// Every frame `VideoReader` gives for `url`, and the pixel format ffmpeg decoded them to.
    static func readFrames(of url: URL) throws -> (frames: [VideoFrame], decoded: String?) {
        let reader = try VideoReader(contentsOfFile: url.path)
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return (frames, reader.decodedPixelFormat)
    }

    /// The first byte offset where `a` and `b` differ (nil if equal): a small value for a failure to
    /// show, where comparing the two buffers would print a diff of every byte.
    static func firstDifference(_ a: Data, _ b: Data) -> Int? {
        if a == b { return nil }
        return zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    }

    /// A quarter-turned video: ffmpeg turns the decoded planes, the conversion sees the upright size.
    @Test func turnedVideoMatchesFFmpegsRGB() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.mp4"), turned = dir.appendingPathComponent("turned.mp4")
        try TestVideos.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=96x64:r=10:d=0.3", "-c:v", "libx264", "-pix_fmt", "yuv420p", plain.path,
        ])
        try TestVideos.ffmpeg(["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned.path])
        let expected = try Self.ffmpegRGB(of: turned)
        let frames = try Self.readFrames(of: turned).frames
        #expect(frames.allSatisfy { $0.width == 64 && $0.height == 96 })
        let got = Data(frames.flatMap(\.pixels))
        #expect(got.count == 3 * 64 * 96 * 3)
        #expect(Self.firstDifference(got, expected) == nil)
    }

    /// A stream whose size and format change midway (MPEG-TS segments joined): ffmpeg scales the later
    /// frames to the first frame's size and format, so every frame arrives in the first layout, and
    /// the reader stays in step. Those frames are scaled (to 4:2:0 here) and then converted, where
    /// ffmpeg's rgb24 does both at once: a few levels apart on this sharp test pattern (4.0-4.1 on
    /// average, tolerance 6), not equal; the frames before the change are equal.
    @Test func aStreamChangingSizeMidwayKeepsTheFirstLayout() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("a.ts"), second = dir.appendingPathComponent("b.ts")
        let joined = dir.appendingPathComponent("joined.ts")
        try TestVideos.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=96x64:r=10:d=0.5", "-c:v", "libx264", "-pix_fmt", "yuv420p", first.path,
        ])
        try TestVideos.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=48x32:r=10:d=0.5", "-c:v", "libx264", "-pix_fmt", "yuv444p",
            "-output_ts_offset", "0.5", second.path,
        ])
        try TestVideos.ffmpeg(["-i", "concat:\(first.path)|\(second.path)", "-c", "copy", joined.path])
        let expected = [UInt8](try Self.ffmpegRGB(of: joined))
        let read = try Self.readFrames(of: joined).frames
        #expect(read.allSatisfy { $0.width == 96 && $0.height == 64 })
        let frames = read.map(\.pixels)
        let size = 96 * 64 * 3
        #expect(frames.count == 10 && expected.count == 10 * size)
        guard frames.count == 10, expected.count == 10 * size else { return }
        for (i, frame) in frames.enumerated() {
            let theirs = expected[i * size..<(i + 1) * size]
            let meanDifference = Double(zip(frame, theirs).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(size)
            if i < 5 {
                #expect(meanDifference == 0, "frame \(i)")
            } else {
                #expect(meanDifference < 6, "frame \(i): \(meanDifference)")
            }
        }
    }

    /// showinfo's colour line comes after the frame line and any side data lines; a frame whose colour
    /// line never comes still goes on, with unknown colours, when the next frame line or the end arrives.
    @Test func showinfoColourLinesFollowTheirFrame() {
        let log = ShowinfoLog(filterName: "showinfo@frames")
        let tag = "[showinfo@frames @ 0x5555] [info] "
        for line in [
            "config in time_base: 1/1000, frame_rate: 25/1",
            "n:   0 pts:      0 pts_time:0 pos: 48 fmt:yuv420p sar:1/1 s:320x240 i:P iskey:1 type:I ",
            "  side data - User Data Unregistered:",
            "UUID=dc45e9bd-e6d9-48b7-962c-d820d923eeef",
            "color_range:tv color_space:bt709 color_primaries:bt709 color_trc:bt709",
            "n:   1 pts:     40 pts_time:0.04 pos: 900 fmt:yuv444p sar:1/1 s:640x480 i:P iskey:0 type:P ",
            "n:   2 pts:     80 pts_time:0.08 pos: 1900 fmt:yuv420p sar:1/1 s:320x240 i:P iskey:0 type:P ",
        ] { #expect(log.take(tag + line)) }
        #expect(!log.take("[info] frame=    2 fps=0.0"))
        log.close()
        let first = log.entry(), second = log.entry(), third = log.entry()
        #expect(log.entry() == nil)
        #expect(
            first?.timestampMs == 0
                && first?.layout
                    == RGBConversion.Layout(
                        pixelFormat: "yuv420p", width: 320, height: 240, colorSpace: "bt709", colorRange: "tv")
        )
        // Later frames keep the first frame's size and format (ffmpeg scales them to it).
        #expect(
            second?.timestampMs == 40
                && second?.layout
                    == RGBConversion.Layout(
                        pixelFormat: "yuv420p", width: 320, height: 240, colorSpace: "unknown", colorRange: "unknown")
        )
        #expect(third?.index == 2 && third?.layout.colorSpace == "unknown")
    }

    @Test func aFormatWithoutConversionIsAClearError() throws {
        let conversion = RGBConversion()
        let rgb = UnsafeMutableRawBufferPointer.allocate(byteCount: 12, alignment: 16)
        defer { rgb.deallocate() }
        for format in ["no_such_format", "vaapi"] {
            #expect(
                throws: VisionTasksError.invalidVideo(
                    "ffmpeg decodes clip.mp4 to pixel format \(format), which has no conversion to RGB")
            ) {
                _ = try conversion.fill(
                    rgb,
                    layout: .init(
                        pixelFormat: format, width: 2, height: 2, colorSpace: "unknown",
                        colorRange: "unknown"), source: "clip.mp4"
                ) { _ in
                    Issue.record("bytes were read for a frame that cannot be converted")
                    return true
                }
            }
        }
    }
}

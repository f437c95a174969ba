import Foundation
import Testing
import VisionTasks

/// Raw YUV frames (nv12, i420, yuyv) converted by `MPImage(pixels:...format:colorSpace:)` against
/// ffmpeg's own conversion of the same frames (swscale with exact rounding, chroma taken from the
/// covering sample). Tolerance: one level per channel.
@Suite struct YUVConversionTests {
    static let formats: [(YUVFormat, String)] = [(.nv12, "nv12"), (.i420, "yuv420p"), (.yuyv, "yuyv422")]
    static let spaces: [YUVColorSpace] = [.bt601Limited, .bt601Full, .bt709Limited, .bt709Full]
    static let cases: [(format: Int, space: Int)] = (0..<3).flatMap { f in (0..<4).map { (f, $0) } }

    /// ffmpeg's names for a colour space's matrix and range.
    private static func ffmpegNames(_ space: YUVColorSpace) -> (matrix: String, range: String) {
        (space.matrix.rawValue, space.range == .limited ? "tv" : "pc")
    }

    @Test(arguments: 0..<12) func conversionMatchesFFmpegWithinOneLevel(index: Int) throws {
        #expect(Self.cases.count == 12)
        let (format, ffmpegFormat) = Self.formats[Self.cases[index].format]
        let space = Self.spaces[Self.cases[index].space]
        let (matrix, range) = Self.ffmpegNames(space)
        let (width, height) = (128, 96)
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let yuv = dir.appendingPathComponent("frame.yuv"), rgb = dir.appendingPathComponent("frame.rgb")
        // The frame: a real photo, as ffmpeg encodes it in this format and colour space.
        try TestVideos.ffmpeg([
            "-i", TestVideos.fixtures.appendingPathComponent("astronaut.png").path,
            "-vf", "scale=\(width):\(height):out_color_matrix=\(matrix):out_range=\(range),format=\(ffmpegFormat)",
            "-f", "rawvideo", yuv.path,
        ])
        // ffmpeg's conversion back to RGB.
        try TestVideos.ffmpeg([
            "-f", "rawvideo", "-pix_fmt", ffmpegFormat, "-s", "\(width)x\(height)", "-i", yuv.path,
            "-vf",
            "scale=in_color_matrix=\(matrix):in_range=\(range):flags=neighbor+accurate_rnd+full_chroma_int,format=rgb24",
            "-f", "rawvideo", rgb.path,
        ])
        let reference = [UInt8](try Data(contentsOf: rgb))
        #expect(reference.count == width * height * 3)
        let image = try MPImage(
            pixels: try Data(contentsOf: yuv), width: width, height: height,
            format: format, colorSpace: space)
        #expect(image.width == width && image.height == height && image.bufferFormat == .rgb8)
        let ours = image.withUnsafeBufferBytes { [UInt8]($0) }
        let worst = zip(ours, reference).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(worst <= 1, "\(format) \(space.matrix) \(space.range): largest difference \(worst) levels")
    }

    @Test func badFramesThrowNamingTheFormat() throws {
        let bytes = Data(repeating: 128, count: 100)
        #expect(throws: VisionTasksError.invalidImage("raw nv12 frame: size 0x8 is empty or negative")) {
            try MPImage(pixels: bytes, width: 0, height: 8, format: .nv12)
        }
        #expect(
            throws: VisionTasksError.invalidImage(
                "raw i420 frame: 100 bytes given, 10x10 with bytesPerRow 10 needs 150")
        ) {
            try MPImage(pixels: bytes, width: 10, height: 10, format: .i420)
        }
        #expect(throws: VisionTasksError.self) {
            try MPImage(pixels: bytes, width: 8, height: 2, bytesPerRow: 4, format: .yuyv)
        }
        #expect(throws: VisionTasksError.self) { try MPImage(pixels: bytes, width: 70_000, height: 1, format: .yuyv) }
        // A stride past the bytes given: refused before it is multiplied by the height (Int.max trapped).
        for format in [YUVFormat.nv12, .i420, .yuyv] {
            #expect(
                throws: VisionTasksError.invalidImage(
                    "raw \(format) frame: bytesPerRow \(Int.max) is more than the \(bytes.count) bytes given")
            ) { try MPImage(pixels: bytes, width: 1, height: 2, bytesPerRow: Int.max, format: format) }
        }
        // Odd sizes round the chroma planes up: 5x3 nv12 is 15 + 3 * 2 * 2 = 27 bytes.
        let odd = try MPImage(pixels: Data(repeating: 128, count: 27), width: 5, height: 3, format: .nv12)
        #expect(odd.width == 5 && odd.height == 3)
        // Gray in, gray out: Y 126 in limited range is (126 - 16) * 255 / 219 = 128.08 -> 128.
        let grayFrame = Data(repeating: 126, count: 4 * 2) + Data(repeating: 128, count: 2 * 2)
        let gray = try MPImage(pixels: grayFrame, width: 4, height: 2, format: .i420)
        #expect(gray.withUnsafeBufferBytes { [UInt8]($0) }.allSatisfy { $0 == 128 })
    }
}

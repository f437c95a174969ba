import Foundation
import Testing
import VisionTasks

/// `I420Packing`, the RGB → yuv420p conversion the video writer does before ffmpeg, against
/// ffmpeg's own conversion of the same photo (BT.601 limited range, chroma the 2×2 block's
/// mean as swscale's `area` filter takes it). Tolerance: one level of luma, two of chroma.
@Suite struct I420PackingTests {
    /// The astronaut photo at `width`×`height` as packed RGB.
    private static func photo(width: Int, height: Int, in dir: URL) throws -> [UInt8] {
        let rgb = dir.appendingPathComponent("photo.rgb")
        try TestVideos.ffmpeg([
            "-i", TestVideos.fixtures.appendingPathComponent("astronaut.png").path,
            "-vf", "scale=\(width):\(height)", "-pix_fmt", "rgb24", "-f", "rawvideo", rgb.path,
        ])
        let bytes = [UInt8](try Data(contentsOf: rgb))
        #expect(bytes.count == width * height * 3)
        return bytes
    }

    private static func pack(_ pixels: [UInt8], layout: I420Packing.Layout, width: Int, height: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: I420Packing.byteCount(width: width, height: height))
        try pixels.withUnsafeBytes { source in
            try out.withUnsafeMutableBytes {
                try I420Packing.pack(
                    source, layout: layout, width: width, height: height,
                    rowBytes: width * layout.bytesPerPixel, into: $0)
            }
        }
        return out
    }

    @Test func packingMatchesFFmpeg() throws {
        let (width, height) = (128, 96)
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rgb = try Self.photo(width: width, height: height, in: dir)
        try Data(rgb).write(to: dir.appendingPathComponent("in.rgb"))
        let yuv = dir.appendingPathComponent("ffmpeg.yuv")
        try TestVideos.ffmpeg([
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)",
            "-i", dir.appendingPathComponent("in.rgb").path,
            "-vf", "scale=out_color_matrix=bt601:out_range=tv:flags=area+accurate_rnd,format=yuv420p",
            "-f", "rawvideo", yuv.path,
        ])
        let reference = [UInt8](try Data(contentsOf: yuv))
        let ours = try Self.pack(rgb, layout: .rgb, width: width, height: height)
        #expect(ours.count == width * height * 3 / 2 && reference.count == ours.count)
        let lumaCount = width * height
        let lumaError =
            zip(ours.prefix(lumaCount), reference.prefix(lumaCount)).map { abs(Int($0) - Int($1)) }.max() ?? 99
        let chromaError =
            zip(ours.dropFirst(lumaCount), reference.dropFirst(lumaCount)).map { abs(Int($0) - Int($1)) }.max() ?? 99
        #expect(lumaError <= 1, "luma differs by \(lumaError)")
        #expect(chromaError <= 2, "chroma differs by \(chromaError)")
    }

    @Test func cairoWordsAndPaddedRowsPackAsTheirRGB() throws {
        let (width, height) = (37, 21)
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rgb = try Self.photo(width: width, height: height, in: dir)
        var bgrx = [UInt8](repeating: 0xEE, count: width * height * 4)
        for i in 0..<(width * height) {
            (bgrx[4 * i], bgrx[4 * i + 1], bgrx[4 * i + 2]) = (rgb[3 * i + 2], rgb[3 * i + 1], rgb[3 * i])
        }
        let fromWords = try Self.pack(bgrx, layout: .bgrx, width: width, height: height)
        let fromBytes = try Self.pack(rgb, layout: .rgb, width: width, height: height)
        #expect(fromWords == fromBytes)
        // Rows with padding between them (a canvas's stride) pack as the compact rows do.
        let padding = 5
        var padded = [UInt8](repeating: 0x77, count: height * (width * 3 + padding))
        for y in 0..<height {
            padded.replaceSubrange(
                y * (width * 3 + padding)..<y * (width * 3 + padding) + width * 3,
                with: rgb[y * width * 3..<(y + 1) * width * 3])
        }
        var fromPadded = [UInt8](repeating: 0, count: I420Packing.byteCount(width: width, height: height))
        try padded.withUnsafeBytes { source in
            try fromPadded.withUnsafeMutableBytes {
                try I420Packing.pack(
                    source, layout: .rgb, width: width, height: height, rowBytes: width * 3 + padding, into: $0)
            }
        }
        #expect(fromPadded == fromBytes)
    }

    @Test func oddSizesRepeatTheLastColumnAndRow() throws {
        let (width, height) = (5, 3)
        // A column of white at the right and a row of black at the bottom, grey elsewhere.
        var rgb = [UInt8](repeating: 128, count: width * height * 3)
        for y in 0..<height { for c in 0..<3 { rgb[(y * width + width - 1) * 3 + c] = 255 } }
        for x in 0..<width { for c in 0..<3 { rgb[((height - 1) * width + x) * 3 + c] = 0 } }
        let out = try Self.pack(rgb, layout: .rgb, width: width, height: height)
        let padded = I420Packing.paddedSize(width: width, height: height)
        #expect(padded.width == 6 && padded.height == 4)
        #expect(out.count == 6 * 4 + 2 * 3 * 2)
        let luma = Array(out.prefix(24))
        // Row 0: grey ×4, white, white (repeated); rows 2 and 3 black (row 3 repeats row 2).
        #expect(Array(luma[0..<6]) == [126, 126, 126, 126, 235, 235])
        #expect(Array(luma[12..<24]) == [UInt8](repeating: 16, count: 12))
        #expect(throws: VisionTasksError.self) {
            try Self.pack(Array(rgb.dropLast()), layout: .rgb, width: width, height: height)
        }
    }
}

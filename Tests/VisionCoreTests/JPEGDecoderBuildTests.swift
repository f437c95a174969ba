import CImageCodecs
import CStb
import FixtureSupport
import Foundation
import Testing

@testable import VisionCore

/// Our build of stb_image (CImageCodecs/jpeg_decode.c: stb's JPEG loader compiled in, with a vector
/// YCbCr-to-RGB row in its colour-kernel slot, and baseline YCbCr scans decoded band by band) gives
/// the bytes of Debian's libstb, the library MediaPipe's pixels were checked against: the vector row
/// against stb's own row on every (Y, Cb, Cr), and whole decodes against `stbi_load_from_memory` on
/// every fixture JPEG, on every chroma sampling, on 2 and 12 megapixel photos, and on files whose
/// surprises after the scan send them back to stb's own loader. Tolerance: exact.
@Suite struct JPEGDecoderBuildTests {
    /// What a decoder gave: size, channels and pixels (empty when it failed).
    struct Decoded: CustomStringConvertible {
        var width = 0, height = 0, channels = 0
        var pixels: [UInt8] = []

        var description: String { "\(width)x\(height)x\(channels)" }

        /// How many bytes differ from `other`'s (all of them when the sizes differ).
        func differingBytes(from other: Decoded) -> Int {
            guard (width, height, channels) == (other.width, other.height, other.channels) else {
                return max(pixels.count, 1)
            }
            if memcmp(pixels, other.pixels, pixels.count) == 0 { return 0 }
            return zip(pixels, other.pixels).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
        }
    }

    /// `bytes` through `ic_decode_jpeg` (structure check, our stb build); nil when refused before decoding.
    /// `inBands`: whether it went band by band.
    static func ours(_ bytes: [UInt8]) -> (decoded: Decoded, inBands: Bool)? {
        var image = ic_image()
        var message = [CChar](repeating: 0, count: Int(IC_MESSAGE_SIZE))
        let status = bytes.withUnsafeBufferPointer {
            ic_decode_jpeg($0.baseAddress, $0.count, 1 << 26, 1, &image, &message)
        }
        let inBands = ic_jpeg_last_decode_in_bands() != 0
        guard status == 0, let pixels = image.pixels else { return nil }
        defer { ic_pixels_free(pixels) }
        let count = Int(image.width) * Int(image.height) * Int(image.channels)
        let decoded = Decoded(
            width: Int(image.width), height: Int(image.height), channels: Int(image.channels),
            pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
        return (decoded, inBands)
    }

    /// `bytes` through Debian's libstb (`stbi_load_from_memory`, channels as stored).
    static func debian(_ bytes: [UInt8]) -> Decoded {
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        guard
            let pixels = bytes.withUnsafeBufferPointer({
                stbi_load_from_memory($0.baseAddress, Int32($0.count), &width, &height, &channels, 0)
            })
        else { return Decoded() }
        defer { stbi_image_free(pixels) }
        let count = Int(width) * Int(height) * Int(channels)
        return Decoded(
            width: Int(width), height: Int(height), channels: Int(channels),
            pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    @Test func vectorRowIsStbsRowOnEveryLevel() throws {
        // Row y: that luma beside all 65,536 (Cb, Cr) pairs, then again from an odd start and with an
        // odd length, so the vector body and its one-pixel tail both meet every value.
        let count = 65_536
        let cb = (0..<count).map { UInt8($0 & 255) }, cr = (0..<count).map { UInt8($0 >> 8) }
        // Room for the byte stb's row writes after its last pixel.
        var expected = [UInt8](repeating: 0, count: 3 * count + 1), got = expected
        var differing = 0
        for level in 0..<256 {
            let y = [UInt8](repeating: UInt8(level), count: count)
            for (start, length) in [(0, count), (5, count - 16)] {
                let stb = ic_jpeg_ycbcr_to_rgb(
                    &expected, Array(y[start...]), Array(cb[start...]), Array(cr[start...]),
                    Int32(length), IC_JPEG_COLOR_STB)
                let vector = ic_jpeg_ycbcr_to_rgb(
                    &got, Array(y[start...]), Array(cb[start...]), Array(cr[start...]),
                    Int32(length), IC_JPEG_COLOR_VECTOR)
                try #require(stb == 0 && vector == 0, "this CPU has no vector row (AVX2 or NEON)")
                differing += memcmp(expected, got, 3 * length) == 0 ? 0 : 1
            }
        }
        #expect(differing == 0, "\(differing) of 512 rows differ")
        // Short rows: the tail alone.
        for length in 1..<40 {
            let y = (0..<length).map { UInt8(($0 * 97) & 255) }, cbs = (0..<length).map { UInt8(($0 * 31 + 7) & 255) }
            let crs = (0..<length).map { UInt8(($0 * 57 + 200) & 255) }
            var a = [UInt8](repeating: 0, count: 3 * length + 1), b = a
            #expect(ic_jpeg_ycbcr_to_rgb(&a, y, cbs, crs, Int32(length), IC_JPEG_COLOR_STB) == 0)
            #expect(ic_jpeg_ycbcr_to_rgb(&b, y, cbs, crs, Int32(length), IC_JPEG_COLOR_VECTOR) == 0)
            #expect(a.prefix(3 * length) == b.prefix(3 * length), "\(length) pixels")
        }
    }

    @Test func fixturesDecodeAsDebiansLibstb() throws {
        let root = Fixtures.root
        let paths = try #require(FileManager.default.subpaths(atPath: root.path))
            .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".jpeg") }.sorted()
        var compared = 0
        var inBands: [String] = []
        for relative in paths {
            let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent(relative)))
            // Files the structure check refuses, or beyond the pixel limit (the fuzz bombs), never reach stb.
            guard let (decoded, banded) = Self.ours(bytes) else { continue }
            compared += 1
            if banded { inBands.append(relative) }
            let reference = Self.debian(bytes)
            #expect(decoded.differingBytes(from: reference) == 0, "\(relative): ours \(decoded), Debian's \(reference)")
        }
        // The photos, the ten JPEG kinds (gray, 4:2:0, 4:2:2, 4:4:4, progressive, restarts, CMYK) and fuzz inputs.
        #expect(paths.count >= 17 && compared >= 15, "\(compared) of \(paths.count)")
        // Baseline YCbCr in bands (the 80 training photos of gestures/ among them: baseline 4:2:0 from PIL); gray,
        // CMYK and progressive files through stb's own loader.
        let gestures = paths.filter { $0.hasPrefix("gestures/") }
        #expect(gestures.count == 80 && gestures.allSatisfy(inBands.contains))
        #expect(
            inBands.filter { !$0.hasPrefix("gestures/") } == [
                "fuzz/image/ok-restart-every-mcu-flat.jpg", "fuzz/image/ok-tiny.jpg", "images/hand_thumb_up.jpg",
                "images/jpeg-variants/restart420.jpg", "images/jpeg-variants/tiny.jpg",
                "images/jpeg-variants/ycc420.jpg", "images/jpeg-variants/ycc422.jpg",
                "images/jpeg-variants/ycc444.jpg", "images/two_thumbs_up.jpg", "images/woman_sitting.jpg",
            ])
    }

    @Test(arguments: ["yuvj420p", "yuvj422p", "yuvj444p", "yuvj440p", "yuvj411p"])
    func everyChromaSamplingDecodesInBandsAsDebiansLibstb(pixelFormat: String) throws {
        // 333x217: neither side a whole number of MCUs; 4:4:0 upsamples vertically only, 4:1:1 by four.
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(pixelFormat).jpg").path
        try Tool.ffmpeg([
            "-i", Fixtures.path("images/woman_sitting.jpg"), "-vf", "scale=333:217",
            "-pix_fmt", pixelFormat, "-q:v", "3", file,
        ])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let (decoded, inBands) = try #require(Self.ours(bytes))
        #expect(inBands)
        #expect(decoded.differingBytes(from: Self.debian(bytes)) == 0, "\(pixelFormat): ours \(decoded)")
    }

    /// The marker segments of `bytes` before its first scan, the scan's offset and EOI's.
    static func layout(_ bytes: [UInt8]) throws -> (
        segments: [(marker: UInt8, at: Int, length: Int)], scan: Int, end: Int
    ) {
        var segments: [(marker: UInt8, at: Int, length: Int)] = []
        var at = 2
        while bytes[at + 1] != 0xDA {
            try #require(bytes[at] == 0xFF)
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            segments.append((bytes[at + 1], at, 2 + length))
            at += 2 + length
        }
        try #require(Array(bytes.suffix(2)) == [0xFF, 0xD9])
        return (segments, at, bytes.count - 2)
    }

    @Test func surprisesAfterTheScanGoBackToStb() throws {
        let good = [UInt8](try Fixtures.data("images/jpeg-variants/ycc420.jpg"))
        let (segments, scan, end) = try Self.layout(good)
        let app0 = try #require(segments.first { $0.marker == 0xE0 })
        let withoutJFIF = Array(good[..<app0.at] + good[(app0.at + app0.length)...])
        let adobe: [UInt8] = [0xFF, 0xEE, 0, 14] + Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 0] // transform 0: RGB
        let comment: [UInt8] = [0xFF, 0xFE, 0, 7] + Array("hello".utf8)
        let cases: [(String, [UInt8], Bool)] = [
            // The scan again: stb decodes it twice into its planes.
            ("a second scan", Array(good[..<end] + good[scan..<end]) + [0xFF, 0xD9], false),
            // No JFIF, and an Adobe segment after the scan saying the samples are RGB: stb copies them.
            ("RGB said after the scan", Array(withoutJFIF.dropLast(2)) + adobe + [0xFF, 0xD9], false),
            ("a comment after the scan", Array(good[..<end]) + comment + [0xFF, 0xD9], true),
            ("no JFIF segment", withoutJFIF, true),
        ]
        for (name, bytes, banded) in cases {
            let (decoded, inBands) = try #require(Self.ours(bytes), "\(name)")
            #expect(inBands == banded, "\(name)")
            #expect(decoded.differingBytes(from: Self.debian(bytes)) == 0, "\(name): ours \(decoded)")
        }
    }

    /// A fixture photo tiled (every other tile mirrored) to `width`×`height` and encoded as a 4:2:0 JPEG.
    static func photo(_ name: String, width: Int, height: Int, quality: Int) throws -> [UInt8] {
        let source = try MPImage(contentsOfFile: Fixtures.path("images/\(name)"))
        let (w, h) = (source.bufferWidth, source.bufferHeight)
        let tiled = try #require(
            try MPImage.filling(width: width, height: height, format: .rgb8) { target in
                source.withUnsafeBufferBytes { pixels in
                    for y in 0..<height {
                        let row = target.baseAddress! + 3 * width * y
                        let flipped = (y / h) % 2 == 1
                        let from = pixels.baseAddress! + 3 * w * (flipped ? h - 1 - y % h : y % h)
                        for x in stride(from: 0, to: width, by: w) {
                            (row + 3 * x).copyMemory(from: from, byteCount: 3 * min(w, width - x))
                        }
                    }
                }
                return true
            })
        return [UInt8](try tiled.jpegData(quality: quality))
    }

    @Test(arguments: [(1800, 1200, "two_thumbs_up.jpg"), (4000, 3000, "woman_sitting.jpg")])
    func largePhotosDecodeAsDebiansLibstb(width: Int, height: Int, name: String) throws {
        let bytes = try Self.photo(name, width: width, height: height, quality: 90)
        let (decoded, inBands) = try #require(Self.ours(bytes))
        #expect(inBands)
        let reference = Self.debian(bytes)
        #expect(decoded.width == width && decoded.height == height && decoded.channels == 3)
        #expect(decoded.differingBytes(from: reference) == 0, "ours \(decoded), Debian's \(reference)")
    }
}

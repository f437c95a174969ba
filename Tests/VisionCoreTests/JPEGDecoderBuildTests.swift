import CImageCodecs
import CStb
import Foundation
import Testing
@testable import VisionCore

/// Our build of stb_image (CImageCodecs/jpeg_decode.c: stb's JPEG loader compiled in, with a vector
/// YCbCr-to-RGB row in its colour-kernel slot) gives the bytes of Debian's libstb, the library
/// MediaPipe's pixels were checked against: the vector row against stb's own row on every (Y, Cb, Cr),
/// and whole decodes against `stbi_load_from_memory` on every fixture JPEG and on 2 and 12 megapixel
/// photos. Tolerance: exact.
@Suite struct JPEGDecoderBuildTests {
    /// What a decoder gave: size, channels and pixels (empty when it failed).
    struct Decoded: CustomStringConvertible {
        var width = 0, height = 0, channels = 0
        var pixels: [UInt8] = []

        var description: String { "\(width)x\(height)x\(channels)" }

        /// How many bytes differ from `other`'s (all of them when the sizes differ).
        func differingBytes(from other: Decoded) -> Int {
            guard (width, height, channels) == (other.width, other.height, other.channels) else { return max(pixels.count, 1) }
            if memcmp(pixels, other.pixels, pixels.count) == 0 { return 0 }
            return zip(pixels, other.pixels).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
        }
    }

    /// `bytes` through `ic_decode_jpeg` (structure check, our stb build); nil when refused before decoding.
    static func ours(_ bytes: [UInt8]) -> Decoded? {
        var image = ic_image()
        var message = [CChar](repeating: 0, count: Int(IC_MESSAGE_SIZE))
        let status = bytes.withUnsafeBufferPointer { ic_decode_jpeg($0.baseAddress, $0.count, 1 << 26, &image, &message) }
        guard status == 0, let pixels = image.pixels else { return nil }
        defer { ic_pixels_free(pixels) }
        let count = Int(image.width) * Int(image.height) * Int(image.channels)
        return Decoded(width: Int(image.width), height: Int(image.height), channels: Int(image.channels),
                       pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// `bytes` through Debian's libstb (`stbi_load_from_memory`, channels as stored).
    static func debian(_ bytes: [UInt8]) -> Decoded {
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        guard let pixels = bytes.withUnsafeBufferPointer({
            stbi_load_from_memory($0.baseAddress, Int32($0.count), &width, &height, &channels, 0)
        }) else { return Decoded() }
        defer { stbi_image_free(pixels) }
        let count = Int(width) * Int(height) * Int(channels)
        return Decoded(width: Int(width), height: Int(height), channels: Int(channels),
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
                let stb = ic_jpeg_ycbcr_to_rgb(&expected, Array(y[start...]), Array(cb[start...]), Array(cr[start...]),
                                               Int32(length), IC_JPEG_COLOR_STB)
                let vector = ic_jpeg_ycbcr_to_rgb(&got, Array(y[start...]), Array(cb[start...]), Array(cr[start...]),
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
        for relative in paths {
            let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent(relative)))
            // Files the structure check refuses, or beyond the pixel limit (the fuzz bombs), never reach stb.
            guard let decoded = Self.ours(bytes) else { continue }
            compared += 1
            let reference = Self.debian(bytes)
            #expect(decoded.differingBytes(from: reference) == 0, "\(relative): ours \(decoded), Debian's \(reference)")
        }
        // The photos, the ten JPEG kinds (gray, 4:2:0, 4:2:2, 4:4:4, progressive, restarts, CMYK) and fuzz inputs.
        #expect(paths.count >= 17 && compared >= 15, "\(compared) of \(paths.count)")
    }

    /// A fixture photo tiled (every other tile mirrored) to `width`×`height` and encoded as a 4:2:0 JPEG.
    static func photo(_ name: String, width: Int, height: Int, quality: Int) throws -> [UInt8] {
        let source = try MPImage(contentsOfFile: Fixtures.path("images/\(name)"))
        let (w, h) = (source.bufferWidth, source.bufferHeight)
        let tiled = try #require(try MPImage.filling(width: width, height: height, format: .rgb8) { target in
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
        let decoded = try #require(Self.ours(bytes))
        let reference = Self.debian(bytes)
        #expect(decoded.width == width && decoded.height == height && decoded.channels == 3)
        #expect(decoded.differingBytes(from: reference) == 0, "ours \(decoded), Debian's \(reference)")
    }
}

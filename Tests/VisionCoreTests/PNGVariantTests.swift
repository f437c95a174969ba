import CDeflate
import FixtureSupport
import Foundation
import Testing

@testable import VisionCore

/// Every PNG colour type and bit depth (Tests/Fixtures/images/png-variants, written by
/// tools/references/make_image_refs.py) decodes to exactly what MediaPipe's loader gives: 1/2/4-bit gray
/// scaled to 0...255, 16-bit samples cut to their high byte, palettes expanded, tRNS as alpha,
/// Adam7 interlacing undone. Gray with alpha, which MediaPipe refuses, decodes to RGBA: its gray level in R, G and
/// B, its alpha kept (PIL's reading of the file). Tolerance: exact.
@Suite struct PNGVariantTests {
    static func manifest() throws -> [String: [String: Any]] {
        try #require(try Fixtures.json("references/image/png_variants.json") as? [String: [String: Any]])
    }

    @Test func allVariantsAreThere() throws {
        #expect(try Self.manifest().count == 20)
    }

    @Test(arguments: try manifest().keys.sorted())
    func decodesAsMediaPipe(_ name: String) throws {
        let entry = try #require(try Self.manifest()[name])
        let image = try MPImage(contentsOfFile: Fixtures.path("images/png-variants/\(name).png"))
        let grayAlpha = (entry["expectedGrayAlpha"] as? [[[Int]]])?.map { $0.map { [$0[0], $0[0], $0[0], $0[1]] } }
        let expected = try #require((entry["mediapipe"] as? [[[Int]]]) ?? grayAlpha)
        let channels = expected[0][0].count
        #expect(image.width == expected[0].count && image.height == expected.count)
        #expect(image.bufferFormat == [1: PixelFormat.gray8, 3: .rgb8, 4: .rgba8][channels], "\(name)")
        let pixels = image.withUnsafeBufferBytes { [UInt8]($0) }
        let flat = expected.flatMap { $0.flatMap { $0 } }
        #expect(pixels.map(Int.init) == flat, "\(name)")
        if entry["mediapipeError"] != nil {
            #expect(grayAlpha != nil && channels == 4, "\(name)")
        }
    }

    /// A PNG whose text chunks inflate to far more than the file holds decodes without inflating them: 100 zTXt
    /// chunks of 8,000,000 bytes each (about 8 KB apiece in the file) before a 1×1 interlaced picture (libpng's
    /// path). libpng inflated and kept every one, 800 MB here (8 GB with a thousand of them), taking seconds.
    @Test func textChunksAreNotInflated() throws {
        func zlib(_ bytes: [UInt8]) throws -> [UInt8] {
            let compressor = try #require(libdeflate_alloc_compressor(9))
            defer { libdeflate_free_compressor(compressor) }
            var out = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, bytes.count))
            let size = libdeflate_zlib_compress(compressor, bytes, bytes.count, &out, out.count)
            return Array(out.prefix(try #require(size > 0 ? size : nil)))
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let crc = libdeflate_crc32(0, body, body.count)
            func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
            return be32(data.count) + body + be32(Int(crc))
        }
        let text = chunk("zTXt", Array("Comment".utf8) + [0, 0] + (try zlib([UInt8](repeating: 65, count: 8_000_000))))
        let png: [UInt8] =
            [137, 80, 78, 71, 13, 10, 26, 10] + chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 1])
            + Array(repeating: text, count: 100).flatMap { $0 } + chunk("IDAT", try zlib([0, 200])) + chunk("IEND", [])
        let start = CPUTime.threadSeconds()
        let image = try MPImage(encodedData: Data(png), name: "text.png")
        #expect(CPUTime.threadSeconds() - start < 0.5)
        #expect(image.width == 1 && image.withUnsafeBufferBytes { $0.first } == 200)
    }
}

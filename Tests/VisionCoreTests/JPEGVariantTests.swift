import Foundation
import Testing
import VisionErrors

@testable import VisionCore

/// JPEG kinds (Tests/Fixtures/images/jpeg-variants, written by tools/references/make_image_refs.py) decode to
/// exactly the pixels MediaPipe's loader (stb_image) gives; and bytes whose marker structure is
/// broken are refused with a message before stb_image reads them. Tolerance: exact.
@Suite struct JPEGVariantTests {
    static func manifest() throws -> [String: [String: Any]] {
        try #require(try Fixtures.json("references/image/jpeg_variants.json") as? [String: [String: Any]])
    }

    @Test func allVariantsAreThere() throws {
        #expect(try Self.manifest().count == 10)
    }

    @Test(arguments: try manifest().keys.sorted())
    func decodesAsMediaPipe(_ name: String) throws {
        let entry = try #require(try Self.manifest()[name])
        let image = try MPImage(contentsOfFile: Fixtures.path("images/jpeg-variants/\(name).jpg"))
        let expected = try #require(entry["mediapipe"] as? [[[Int]]])
        let channels = expected[0][0].count
        #expect(image.width == expected[0].count && image.height == expected.count)
        #expect(image.bufferFormat == (channels == 1 ? .gray8 : .rgb8), "\(name)")
        let pixels = image.withUnsafeBufferBytes { [UInt8]($0) }
        #expect(pixels.map(Int.init) == expected.flatMap { $0.flatMap { $0 } }, "\(name)")
    }

    /// The offset of the first `marker` segment (0xFF, marker) in `bytes`.
    private func segment(_ marker: UInt8, in bytes: [UInt8]) throws -> Int {
        try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == marker })
    }

    private func expectRefused(_ bytes: [UInt8], _ name: String, saying words: String) {
        do {
            _ = try MPImage(encodedData: Data(bytes), name: name)
            Issue.record("\(name) decoded")
        } catch let error as VisionTasksError {
            guard case .invalidImage(let message) = error else {
                Issue.record("\(name): unexpected error \(error)")
                return
            }
            #expect(
                message.hasPrefix("\(name): corrupt or unsupported JPEG: ") && message.contains(words), "\(message)")
        } catch {
            Issue.record("\(name): unexpected error \(error)")
        }
    }

    /// More scans than the image can need are refused: each costs a pass over every block, data or not (stb reads
    /// zeros past a scan's end), and a few MB of empty scan headers on a 64-megapixel frame took hours. A
    /// sequential JPEG has one scan per component at most, a progressive one `IC_JPEG_MAX_PROGRESSIVE_SCANS` (100).
    @Test func scansPastWhatTheImageNeedsAreRefused() throws {
        /// `bytes` with its last scan (header and data, up to the end-of-image marker) written `copies` more times.
        func repeatingLastScan(_ name: String, _ copies: Int) throws -> [UInt8] {
            let bytes = [UInt8](try Fixtures.data("images/jpeg-variants/\(name).jpg"))
            let last = try #require(bytes.indices.dropLast().last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
            let scan = bytes[last..<bytes.count - 2]
            return Array(bytes.dropLast(2)) + Array(repeating: scan, count: copies).flatMap { $0 } + [0xFF, 0xD9]
        }
        _ = try MPImage(encodedData: Data(try repeatingLastScan("progressive420", 2)), name: "twice.jpg")
        expectRefused(
            try repeatingLastScan("progressive420", 100), "scans.jpg", saying: "more scans than a progressive")
        expectRefused(try repeatingLastScan("gray", 1), "gray.jpg", saying: "more scans than colour components")
    }

    @Test func brokenStructureIsRefused() throws {
        let good = [UInt8](try Fixtures.data("images/jpeg-variants/ycc420.jpg"))
        // A Huffman table claiming more than 256 codes (stb_image would write past its tables).
        var bigTable = good
        let dht = try segment(0xC4, in: good)
        bigTable[dht + 5] = 200
        bigTable[dht + 6] = 200
        expectRefused(bigTable, "dht.jpg", saying: "more than 256 codes")
        // A scan naming an AC table that was never defined.
        var undefined = good
        let sos = try segment(0xDA, in: good)
        undefined[sos + 6] = undefined[sos + 6] & 0xF0 | 3
        expectRefused(undefined, "table.jpg", saying: "undefined Huffman table")
        // Cut inside the image data: no end-of-image marker.
        expectRefused(Array(good.prefix(good.count - 40)), "cut.jpg", saying: "truncated")
        // Only the end-of-image marker is missing.
        expectRefused(Array(good.dropLast(2)), "noeoi.jpg", saying: "truncated")
        // A frame header of zero width.
        var zeroWidth = good
        let sof = try segment(0xC0, in: good)
        zeroWidth[sof + 7] = 0
        zeroWidth[sof + 8] = 0
        expectRefused(zeroWidth, "width.jpg", saying: "zero")
        // A frame header claiming 60000 x 60000 pixels: refused by the pixel limit before any pixel memory is taken.
        var huge = good
        huge.replaceSubrange(sof + 5..<sof + 9, with: [0xEA, 0x60, 0xEA, 0x60])
        #expect(
            throws: VisionTasksError.invalidImage(
                "huge.jpg: the JPEG header declares 60000x60000 (3600000000 pixels), more than "
                    + "the limit of 64000000 pixels; raise ImageDecodingOptions.maxPixelCount (--max-image-pixels) if the image is trusted"
            )
        ) {
            try MPImage(encodedData: Data(huge), name: "huge.jpg")
        }
        // A segment length that runs past the end of the file.
        var long = good
        long[dht + 2] = 0xFF
        expectRefused(long, "length.jpg", saying: "past the end")
        // Lossless coding (SOF3), which stb_image does not decode.
        var lossless = good
        lossless[sof + 1] = 0xC3
        expectRefused(lossless, "sof3.jpg", saying: "unsupported JPEG coding")
    }

    @Test func seededByteDamageThrowsOrDecodes() throws {
        // Thousands of damaged copies: each must throw VisionTasksError or decode; none may crash.
        let sources = try ["ycc420", "progressive420", "gray", "cmyk", "restart420"].map {
            [UInt8](try Fixtures.data("images/jpeg-variants/\($0).jpg"))
        }
        var generator = LinearCongruential(state: 20261122)
        var refused = 0, decoded = 0
        for round in 0..<1500 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                case 1: bytes[at] = UInt8.random(in: 0...255, using: &generator)
                default: bytes[at] = 0xFF
                }
            }
            do {
                _ = try MPImage(encodedData: Data(bytes), name: "damaged.jpg")
                decoded += 1
            } catch is VisionTasksError {
                refused += 1
            }
        }
        #expect(refused > 0 && decoded > 0, "refused \(refused), decoded \(decoded)")
    }
}

/// Knuth's 64-bit linear congruential generator: repeatable pseudo-random test inputs.
struct LinearCongruential: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state ^ (state >> 29)
    }
}

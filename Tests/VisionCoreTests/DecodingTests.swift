import FixtureSupport
import Foundation
import Testing
import VisionErrors

@testable import VisionCore

/// Decoding the fixture photos, compared with MediaPipe's own loader (stb_image, EXIF applied;
/// tools/references/make_image_refs.py, 2000 sampled pixels each). Tolerance: exact, JPEG and PNG alike.
@Suite struct DecodingTests {
    static let names = ["astronaut.png", "hand_thumb_up.jpg", "two_thumbs_up.jpg", "woman_sitting.jpg"]

    @Test(arguments: names)
    func fixtureMatchesReferences(_ name: String) throws {
        let all = try #require(try Fixtures.json("references/image/decode.json") as? [String: [String: Any]])
        let ref = try #require(all[name])
        let image = try MPImage(contentsOfFile: Fixtures.path("images/\(name)"))
        #expect(image.width == ref["width"] as? Int && image.height == ref["height"] as? Int)
        #expect(image.orientation == .up)
        let channels = try #require(ref["channels"] as? Int)
        #expect(image.bufferFormat == (channels == 1 ? .gray8 : .rgb8))
        let xs = try #require(ref["x"] as? [Int]), ys = try #require(ref["y"] as? [Int])
        let mediapipe = try #require(ref["mediapipe"] as? [[Int]])
        var differing = 0
        image.withUnsafeBufferBytes { pixels in
            for i in xs.indices {
                for c in 0..<channels {
                    let ours = Int(pixels[(ys[i] * image.bufferWidth + xs[i]) * channels + c])
                    if ours != mediapipe[i][c] { differing += 1 }
                }
            }
        }
        #expect(
            differing == 0,
            "\(name): \(differing) of \(xs.count * channels) sampled levels differ from MediaPipe's loader")
    }

    @Test func exifOrientationIsApplied() throws {
        // two_thumbs_up.jpg with an EXIF orientation 6 (turn 90° clockwise) spliced in as APP1.
        let plain = try Fixtures.data("images/two_thumbs_up.jpg")
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1] // big-endian TIFF, IFD0 with 1 entry
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0] + [0, 0, 0, 0] // Orientation = 6; no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        let rotated = Data(plain.prefix(2)) + Data(app1) + Data(plain.dropFirst(2))
        let image = try MPImage(encodedData: rotated, name: "exif6.jpg")
        let upright = try MPImage(contentsOfFile: Fixtures.path("images/two_thumbs_up.jpg"))
        #expect(image.width == 427 && image.height == 640 && image.orientation == .up)
        // Pixel (x, y) of the turned image is pixel (y, H-1-x) of the stored one.
        let a = image.withUnsafeBufferBytes { [UInt8]($0) }, b = upright.withUnsafeBufferBytes { [UInt8]($0) }
        for (x, y) in [(0, 0), (426, 0), (100, 300), (426, 639)] {
            let sx = y, sy = 426 - x
            #expect(a[(y * 427 + x) * 3..<(y * 427 + x) * 3 + 3] == b[(sy * 640 + sx) * 3..<(sy * 640 + sx) * 3 + 3])
        }
    }

    @Test func littleEndianExifOrientation8() throws {
        // Orientation 8 (turn 90° counterclockwise) in a little-endian TIFF block.
        let plain = try Fixtures.data("images/hand_thumb_up.jpg")
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0]
        tiff += [0x12, 0x01, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0] + [0, 0, 0, 0]
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload
        let image = try MPImage(encodedData: Data(plain.prefix(2)) + Data(app1) + Data(plain.dropFirst(2)))
        let stored = try MPImage(contentsOfFile: Fixtures.path("images/hand_thumb_up.jpg"))
        #expect(image.width == stored.height && image.height == stored.width)
        // Pixel (x, y) of the turned image is pixel (W-1-y, x) of the stored one.
        let a = image.withUnsafeBufferBytes { [UInt8]($0) }, b = stored.withUnsafeBufferBytes { [UInt8]($0) }
        let (w, h) = (image.width, image.height)
        for (x, y) in [(0, 0), (w - 1, 0), (17, 300), (w - 1, h - 1)] {
            let (sx, sy) = (stored.width - 1 - y, x)
            #expect(
                a[(y * w + x) * 3..<(y * w + x) * 3 + 3]
                    == b[(sy * stored.width + sx) * 3..<(sy * stored.width + sx) * 3 + 3])
        }
    }

    /// `jpeg` with an EXIF block (big-endian TIFF) giving orientation `exif` spliced in after SOI.
    static func jpeg(_ jpeg: [UInt8], exif: Int) -> [UInt8] {
        let tiff: [UInt8] =
            [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1] + [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(exif), 0, 0] + [0, 0, 0, 0]
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        return Array(jpeg.prefix(2)) + [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload + Array(jpeg.dropFirst(2))
    }

    /// MediaPipe's loader's turn: pixel (x, y) of the picture turned by `exif` is this pixel of the stored one.
    static func stored(x: Int, y: Int, exif: Int, width w: Int, height h: Int) -> (Int, Int) {
        switch exif {
        case 2: return (w - 1 - x, y)
        case 3: return (w - 1 - x, h - 1 - y)
        case 4: return (x, h - 1 - y)
        case 5: return (y, x)
        case 6: return (y, h - 1 - x)
        case 7: return (w - 1 - y, h - 1 - x)
        case 8: return (w - 1 - y, x)
        default: return (x, y)
        }
    }

    @Test(arguments: [
        "images/hand_thumb_up.jpg", "images/jpeg-variants/ycc420.jpg", "images/jpeg-variants/progressive420.jpg",
        "images/jpeg-variants/gray.jpg",
    ])
    func everyExifOrientationTurnsThePixels(_ name: String) throws {
        // Baseline photos (521 rows: bands of 16 and a last one of 9; 29 rows) are turned band by band as
        // they are decoded; progressive and gray files are decoded whole, then turned.
        let plain = [UInt8](try Fixtures.data(name))
        let stored = try MPImage(encodedData: Data(plain))
        let (w, h, bpp) = (stored.width, stored.height, stored.bufferFormat.bytesPerPixel)
        let pixels = stored.withUnsafeBufferBytes { [UInt8]($0) }
        for exif in 1...8 {
            let image = try MPImage(encodedData: Data(Self.jpeg(plain, exif: exif)), name: "exif\(exif).jpg")
            let swaps = exif >= 5
            #expect(image.width == (swaps ? h : w) && image.height == (swaps ? w : h) && image.orientation == .up)
            var expected = [UInt8](repeating: 0, count: w * h * bpp)
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let (sx, sy) = Self.stored(x: x, y: y, exif: exif, width: w, height: h)
                    for c in 0..<bpp { expected[(y * image.width + x) * bpp + c] = pixels[(sy * w + sx) * bpp + c] }
                }
            }
            #expect(image.withUnsafeBufferBytes { $0.elementsEqual(expected) }, "\(name), orientation \(exif)")
        }
    }

    /// The message for an image declaring `width`x`height` over a limit of `limit` pixels.
    static func tooManyPixels(_ name: String, _ kind: String, _ width: Int, _ height: Int, _ limit: Int)
        -> VisionTasksError
    {
        .invalidImage(
            "\(name): the \(kind) header declares \(width)x\(height) (\(width * height) pixels), more than the limit of "
                + "\(limit) pixels; raise ImageDecodingOptions.maxPixelCount (--max-image-pixels) if the image is trusted"
        )
    }

    /// `jpeg` with the size in its start-of-frame (baseline or progressive) set to `width`x`height`.
    static func jpeg(_ jpeg: Data, claiming width: Int, _ height: Int) throws -> Data {
        var bytes = [UInt8](jpeg)
        let sof = try #require(
            (2..<bytes.count - 9).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) })
        bytes.replaceSubrange(
            sof + 5..<sof + 9, with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return Data(bytes)
    }

    /// `png` with the size in its IHDR set to `width`x`height` and the chunk's CRC fixed.
    static func png(_ png: Data, claiming width: Int, _ height: Int) -> Data {
        var bytes = [UInt8](png)
        for (offset, value) in [(16, width), (20, height)] {
            bytes.replaceSubrange(
                offset..<offset + 4,
                with: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes[12..<29] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc
        bytes.replaceSubrange(
            29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        return Data(bytes)
    }

    @Test func decompressionBombsAreRefusedFromTheHeader() throws {
        // Tiny files claiming 11584x11584 (134 megapixels, 400 MB of RGB) fail at once under the default
        // 64-megapixel limit, before any pixel memory is allocated (issue 10: the JPEG decoded into 600 MB).
        let limit = ImageDecodingOptions.defaultMaxPixelCount
        let bombs: [(String, String, Data)] = [
            (
                "bomb.jpg", "JPEG",
                try Self.jpeg(try Fixtures.data("images/jpeg-variants/tiny.jpg"), claiming: 11584, 11584)
            ),
            (
                "bomb-progressive.jpg", "JPEG",
                try Self.jpeg(try Fixtures.data("images/jpeg-variants/progressive420.jpg"), claiming: 11584, 11584)
            ),
            ("bomb.png", "PNG", Self.png(try Fixtures.data("images/png-variants/rgba8.png"), claiming: 11584, 11584)),
        ]
        for (name, kind, bytes) in bombs {
            #expect(bytes.count < 5000)
            let start = CPUTime.threadSeconds()
            #expect(throws: Self.tooManyPixels(name, kind, 11584, 11584, limit)) {
                try MPImage(encodedData: bytes, name: name)
            }
            #expect(CPUTime.threadSeconds() - start < 1, "\(name)")
        }
        // The progressive case of issue 10 (4133x12290, 51 megapixels) is under the default but not under a lower limit.
        let progressive = try Self.jpeg(
            try Fixtures.data("images/jpeg-variants/progressive420.jpg"), claiming: 4133, 12290)
        #expect(throws: Self.tooManyPixels("p.jpg", "JPEG", 4133, 12290, 10_000_000)) {
            try MPImage(
                encodedData: progressive, name: "p.jpg",
                decodingOptions: ImageDecodingOptions(maxPixelCount: 10_000_000))
        }
    }

    @Test func thePixelLimitIsExactAndSettable() throws {
        // astronaut.png is 512x512: decoded at a limit of exactly its pixel count, refused one below.
        let path = Fixtures.path("images/astronaut.png")
        #expect(
            try MPImage(contentsOfFile: path, decodingOptions: ImageDecodingOptions(maxPixelCount: 512 * 512)).width
                == 512)
        #expect(throws: Self.tooManyPixels(path, "PNG", 512, 512, 512 * 512 - 1)) {
            try MPImage(contentsOfFile: path, decodingOptions: ImageDecodingOptions(maxPixelCount: 512 * 512 - 1))
        }
        #expect(throws: VisionTasksError.invalidOption(name: "maxPixelCount", reason: "must be positive, got 0")) {
            try MPImage(contentsOfFile: path, decodingOptions: ImageDecodingOptions(maxPixelCount: 0))
        }
    }

    /// A file larger than any image within the pixel limit is refused before it is read (a sparse 1.9 GB "photo" took
    /// 2 GB of memory per thread to be found truncated).
    @Test func aFileTooLargeForThePixelLimitIsRefusedUnread() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sparse.jpg").path
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("images/hand_thumb_up.jpg")))
        try jpeg.prefix(2000).write(to: URL(fileURLWithPath: path))
        #expect(truncate(path, 80 << 20) == 0) // 80 MiB, almost none of it on disk
        let options = ImageDecodingOptions(maxPixelCount: 1000)
        #expect(options.largestFileBytes == 1000 * 9 + 64 << 20)
        #expect(
            throws: VisionTasksError.fileUnreadable(
                path: path,
                reason: "\(80 << 20) bytes is too large for an image file (at most 67117864, the most an image of 1000 "
                    + "pixels takes)")
        ) { try MPImage(contentsOfFile: path, decodingOptions: options) }
        #expect(ImageDecodingOptions(maxPixelCount: Int.max).largestFileBytes == Int(Int32.max))
    }

    @Test func truncatedAndCorruptFilesThrow() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpeg = try Fixtures.data("images/woman_sitting.jpg"), png = try Fixtures.data("images/astronaut.png")
        var corruptPNG = png
        corruptPNG[png.count / 2] ^= 0xFF // breaks an IDAT CRC
        let files: [(String, Data)] = [
            ("half.jpg", jpeg.prefix(jpeg.count / 2)),
            ("header-only.jpg", jpeg.prefix(600)),
            ("half.png", png.prefix(png.count / 2)),
            ("crc.png", corruptPNG),
            ("signature.png", png.prefix(8)),
            ("garbage.jpg", Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })),
            ("empty.png", Data()),
            ("text.png", Data("not an image".utf8)),
        ]
        for (name, bytes) in files {
            let url = dir.appendingPathComponent(name)
            try bytes.write(to: url)
            do {
                _ = try MPImage(contentsOf: url)
                Issue.record("\(name) decoded without error")
            } catch let error as VisionTasksError {
                guard case .invalidImage(let message) = error else {
                    Issue.record("\(name): unexpected error \(error)")
                    continue
                }
                #expect(message.hasPrefix(url.path + ": "), "\(message)")
                print("\(name): \(error)")
            }
        }
        // Cut short with the end-of-image marker put back: stb decoded the missing blocks from zero bits, a picture
        // grey and black below the cut, without an error. (A flat picture with a restart after every block, whose
        // blocks all come after their marker was read ahead, still decodes: fuzz/image/ok-restart-every-mcu-flat.jpg.)
        let hand = try Fixtures.data("images/hand_thumb_up.jpg")
        for (name, whole) in [("woman_sitting.jpg", jpeg), ("hand_thumb_up.jpg", hand)] {
            for kept in [0.33, 0.5, 0.98] {
                let cut = whole.prefix(Int(Double(whole.count) * kept)) + Data([0xFF, 0xD9])
                #expect("\(name) cut at \(kept)") {
                    try MPImage(encodedData: cut)
                } throws: {
                    "\($0)".contains("truncated image data")
                }
            }
        }
        #expect(throws: VisionTasksError.fileNotFound(path: dir.appendingPathComponent("missing.jpg").path)) {
            try MPImage(contentsOfFile: dir.appendingPathComponent("missing.jpg").path)
        }
        #expect(throws: VisionTasksError.self) { try MPImage(contentsOfFile: dir.path) }
    }
}

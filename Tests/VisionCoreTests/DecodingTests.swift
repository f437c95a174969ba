import Foundation
import Testing
@testable import VisionCore
import VisionErrors

/// Decoding the fixture photos, compared with MediaPipe's own loader (stb_image, EXIF applied;
/// tools/make_image_refs.py, 2000 sampled pixels each). Tolerance: exact, JPEG and PNG alike.
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
        #expect(differing == 0, "\(name): \(differing) of \(xs.count * channels) sampled levels differ from MediaPipe's loader")
    }

    @Test func exifOrientationIsApplied() throws {
        // two_thumbs_up.jpg with an EXIF orientation 6 (turn 90° clockwise) spliced in as APP1.
        let plain = try Fixtures.data("images/two_thumbs_up.jpg")
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1]     // big-endian TIFF, IFD0 with 1 entry
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0] + [0, 0, 0, 0]  // Orientation = 6; no next IFD
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
            #expect(a[(y * 427 + x) * 3 ..< (y * 427 + x) * 3 + 3] == b[(sy * 640 + sx) * 3 ..< (sy * 640 + sx) * 3 + 3])
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
            #expect(a[(y * w + x) * 3 ..< (y * w + x) * 3 + 3] == b[(sy * stored.width + sx) * 3 ..< (sy * stored.width + sx) * 3 + 3])
        }
    }

    @Test func hugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        // A PNG whose header claims 60000 x 60000 RGBA pixels (14 GB): refused, not allocated.
        let png = try Fixtures.data("images/png-variants/rgba8.png")
        var bytes = [UInt8](png)
        let big: [UInt8] = [0, 0, 0xEA, 0x60]  // 60000
        bytes.replaceSubrange(16..<20, with: big)
        bytes.replaceSubrange(20..<24, with: big)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes[12..<29] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc
        bytes.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        do {
            _ = try MPImage(encodedData: Data(bytes), name: "huge.png")
            Issue.record("a 60000x60000 PNG decoded")
        } catch let error as VisionTasksError {
            #expect(error == .invalidImage("huge.png: corrupt or unsupported PNG: unsupported PNG size 60000x60000"))
        }
    }

    @Test func truncatedAndCorruptFilesThrow() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpeg = try Fixtures.data("images/woman_sitting.jpg"), png = try Fixtures.data("images/astronaut.png")
        var corruptPNG = png
        corruptPNG[png.count / 2] ^= 0xFF  // breaks an IDAT CRC
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
        #expect(throws: VisionTasksError.fileNotFound(path: dir.appendingPathComponent("missing.jpg").path)) {
            try MPImage(contentsOfFile: dir.appendingPathComponent("missing.jpg").path)
        }
        #expect(throws: VisionTasksError.self) { try MPImage(contentsOfFile: dir.path) }
    }
}

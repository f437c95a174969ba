import Foundation
import Testing
import VisionErrors

@testable import VisionCore

/// Writing images: PNG round-trips exactly; JPEG (quality 95, 4:2:0 chroma) round-trips within
/// 32 levels per channel (colour edges) with a mean under 1 level; the upright image is written.
@Suite struct EncodingTests {
    @Test func pngAndJpegRoundTrip() throws {
        let image = try MPImage(contentsOfFile: Fixtures.path("images/hand_thumb_up.jpg"))
        let original = image.withUnsafeBufferBytes { [UInt8]($0) }
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }

        let pngURL = dir.appendingPathComponent("out.png")
        try image.write(to: pngURL)
        let png = try MPImage(contentsOf: pngURL)
        #expect(png.withUnsafeBufferBytes { [UInt8]($0) } == original)

        let jpegURL = dir.appendingPathComponent("out.JPG")
        try image.write(to: jpegURL, jpegQuality: 95)
        let jpeg = try MPImage(contentsOf: jpegURL)
        let decoded = jpeg.withUnsafeBufferBytes { [UInt8]($0) }
        #expect(decoded.count == original.count)
        let diffs = zip(decoded, original).map { abs(Int($0) - Int($1)) }
        let mean = Double(diffs.reduce(0, +)) / Double(diffs.count)
        print("JPEG q95 round trip: max \(diffs.max() ?? -1) mean \(mean)")
        #expect((diffs.max() ?? 99) <= 32 && mean < 1)

        #expect(throws: VisionTasksError.self) { try image.write(to: dir.appendingPathComponent("out.bmp")) }
        #expect(throws: VisionTasksError.self) { try image.jpegData(quality: 0) }
        // A file that cannot be written says so (it once read "Cannot read file").
        let nowhere = dir.appendingPathComponent("no-such-folder/out.png")
        #expect { try image.write(to: nowhere) } throws: {
            "\($0)".hasPrefix("Cannot write file \(nowhere.path): ")
                && ($0 as? VisionTasksError).map { if case .fileUnwritable = $0 { true } else { false } } == true
        }
    }

    @Test func writesTheUprightImage() throws {
        // A 3x2 gray frame stored turned: orientation .right makes it 2 wide, 3 tall.
        let stored: [UInt8] = [
            1, 2, 3,
            4, 5, 6,
        ]
        let image = try MPImage(
            pixels: Data(stored), width: 3, height: 2, bytesPerRow: 3, format: .gray8,
            orientation: .right)
        let back = try MPImage(encodedData: try image.pngData())
        #expect(back.width == 2 && back.height == 3 && back.bufferFormat == .gray8)
        // Turning the stored rows 90° clockwise: the first upright row is (4, 1).
        #expect(back.withUnsafeBufferBytes { [UInt8]($0) } == [4, 1, 5, 2, 6, 3])
    }
}

import Foundation
import Testing

@testable import VisionCore

/// Every PNG colour type and bit depth (Tests/Fixtures/images/png-variants, written by
/// tools/references/make_image_refs.py) decodes to exactly what MediaPipe's loader gives: 1/2/4-bit gray
/// scaled to 0...255, 16-bit samples cut to their high byte, palettes expanded, tRNS as alpha,
/// Adam7 interlacing undone. Gray with alpha, which MediaPipe refuses, decodes to its gray level.
/// Tolerance: exact.
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
        let expected = try #require((entry["mediapipe"] ?? entry["expectedGray"]) as? [[[Int]]])
        let channels = expected[0][0].count
        #expect(image.width == expected[0].count && image.height == expected.count)
        #expect(image.bufferFormat == [1: PixelFormat.gray8, 3: .rgb8, 4: .rgba8][channels], "\(name)")
        let pixels = image.withUnsafeBufferBytes { [UInt8]($0) }
        let flat = expected.flatMap { $0.flatMap { $0 } }
        #expect(pixels.map(Int.init) == flat, "\(name)")
        if entry["mediapipeError"] != nil {
            #expect(channels == 1)
        }
    }
}

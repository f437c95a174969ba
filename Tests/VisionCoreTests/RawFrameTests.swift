import Foundation
import Testing
import VisionErrors

@testable import VisionCore

/// Raw frames (the Linux stand-in for CVPixelBuffer): size and stride validation, orientations.
@Suite struct RawFrameTests {
    @Test func invalidFramesThrow() throws {
        let bytes = Data(repeating: 1, count: 64)
        let bad: [(Int, Int, Int, PixelFormat)] = [
            (0, 4, 16, .rgba8), (4, 0, 16, .rgba8), (-1, 4, 16, .rgba8), // empty or negative
            (4, 4, 12, .rgba8), // stride shorter than a row
            (4, 5, 16, .rgba8), // buffer too small for the rows
            (5, 4, 20, .rgb8), // 3 strides + one row = 75 bytes > 64
            (Int.max / 2, 2, Int.max / 2, .rgba8), // overflow
            // Strides whose frame spans more than an Int counts (they trapped while the error was worded), or wraps.
            (1, 2, Int.max, .rgba8), (1, 3, Int.max / 2, .rgba8), (1, 2, Int.max - 2, .rgba8),
            (1, 4, Int.max / 2, .rgba8),
        ]
        for (w, h, stride, format) in bad {
            let error = #expect(throws: VisionTasksError.self, "\(w)x\(h) stride \(stride) \(format)") {
                try MPImage(pixels: bytes, width: w, height: h, bytesPerRow: stride, format: format)
            }
            #expect(error.map { !"\($0)".contains("needs -") } ?? true, "\(error.map { "\($0)" } ?? "")")
        }
        // A stride that is never stepped (one row) is no error.
        #expect(try MPImage(pixels: bytes, width: 1, height: 1, bytesPerRow: Int.max, format: .rgba8).width == 1)
        // The last row need not be padded to the full stride.
        let ok = try MPImage(
            pixels: Data(repeating: 1, count: 2 * 20 + 12), width: 4, height: 3, bytesPerRow: 20, format: .rgb8)
        #expect(ok.width == 4 && ok.height == 3 && ok.bufferBytesPerRow == 12)
    }

    @Test func orientationsTurnToTheSameUprightPixels() throws {
        let upright = try MPImage(contentsOfFile: Fixtures.path("images/hand_thumb_up.jpg"))
        let w = upright.width, h = upright.height
        let rgb = upright.withUnsafeBufferBytes { [UInt8]($0) }
        func frame(_ orientation: ImageOrientation) throws -> MPImage {
            // Store the photo turned so that `orientation` turns it back upright.
            let (sw, sh) = orientation.swapsWidthAndHeight ? (h, w) : (w, h)
            var stored = [UInt8](repeating: 0, count: sw * sh * 4)
            for v in 0..<h {
                for u in 0..<w {
                    let (x, y): (Int, Int)
                    switch orientation {
                    case .right: (x, y) = (v, sh - 1 - u)
                    case .left: (x, y) = (sw - 1 - v, u)
                    case .down: (x, y) = (sw - 1 - u, sh - 1 - v)
                    default: (x, y) = (u, v)
                    }
                    for c in 0..<3 { stored[(y * sw + x) * 4 + 2 - c] = rgb[(v * w + u) * 3 + c] }
                    stored[(y * sw + x) * 4 + 3] = 255
                }
            }
            return try MPImage(
                pixels: Data(stored), width: sw, height: sh, bytesPerRow: sw * 4, format: .bgra8,
                orientation: orientation)
        }
        for orientation in [ImageOrientation.up, .down, .left, .right] {
            let image = try frame(orientation)
            #expect(image.width == w && image.height == h)
            let turned = try image.uprightRGB()
            #expect(turned.withUnsafeBufferBytes { [UInt8]($0) } == rgb, "\(orientation)")
            // Points map to the stored frame and back.
            let p = image.bufferPoint(fromUprightX: 0.2, y: 0.7)
            let q = image.uprightPoint(fromBufferX: p.x, y: p.y)
            #expect(abs(q.x - 0.2) < 1e-6 && abs(q.y - 0.7) < 1e-6)
        }
        #expect(try ImageOrientation.right.rotationDegrees() == 90)
        #expect(try ImageOrientation.left.rotationDegrees() == 270)
        for mirrored in [ImageOrientation.upMirrored, .downMirrored, .leftMirrored, .rightMirrored] {
            #expect(throws: VisionTasksError.self) { try mirrored.rotationDegrees() }
            #expect(throws: VisionTasksError.self) {
                try frame(.up).withOrientation(mirrored).checkOrientationSupported()
            }
        }
    }
}

extension MPImage {
    /// The same pixels with another orientation (tests only).
    func withOrientation(_ orientation: ImageOrientation) -> MPImage {
        MPImage(
            storage: storage, bufferWidth: bufferWidth, bufferHeight: bufferHeight, format: bufferFormat,
            orientation: orientation)
    }
}

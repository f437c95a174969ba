import Foundation
import Testing
import VisionCore

/// Builds the stored frames of the orientation references (tools/references/make_face_landmarker_refs.py,
/// tools/references/make_hand_refs.py): an upright picture's pixels stored turned k quarter turns
/// counterclockwise (numpy.rot90), tagged with the orientation that turns them upright again.
/// MediaPipe got the same stored pixels with `rotation_degrees` 90·k.
enum TurnedImages {
    /// The orientation that undoes k counterclockwise quarter turns of the stored pixels:
    /// MediaPipe's `rotation_degrees` 90·k (clockwise), as MediaPipe for iOS maps it.
    static func orientation(quarterTurnsCCW k: Int) -> ImageOrientation {
        [ImageOrientation.up, .right, .down, .left][((k % 4) + 4) % 4]
    }

    /// `upright` (any format; read as RGB) stored turned k quarter turns counterclockwise, with the
    /// orientation that turns it back. Checks that the orientation's `rotationDegrees()` is 90·k and
    /// that the image turns back to exactly the upright pixels.
    static func image(_ upright: MPImage, quarterTurnsCCW k: Int) throws -> MPImage {
        let rgb = try upright.uprightRGB()
        var w = rgb.width, h = rgb.height
        var pixels = rgb.withUnsafeBufferBytes { Array($0) }
        for _ in 0..<(((k % 4) + 4) % 4) {
            // numpy.rot90: out[i][j] = in[j][w - 1 - i], out is w rows of h pixels.
            var out = [UInt8](repeating: 0, count: pixels.count)
            for i in 0..<w {
                for j in 0..<h {
                    let src = (j * w + (w - 1 - i)) * 3, dst = (i * h + j) * 3
                    out[dst] = pixels[src]
                    out[dst + 1] = pixels[src + 1]
                    out[dst + 2] = pixels[src + 2]
                }
            }
            pixels = out
            (w, h) = (h, w)
        }
        let orientation = orientation(quarterTurnsCCW: k)
        let image = try pixels.withUnsafeBytes {
            try MPImage(pixels: $0, width: w, height: h, bytesPerRow: w * 3, format: .rgb8, orientation: orientation)
        }
        #expect(try orientation.rotationDegrees() == ((k % 4) + 4) % 4 * 90)
        #expect(image.width == rgb.width && image.height == rgb.height)
        #expect(
            try image.uprightRGB().withUnsafeBufferBytes { Array($0) } == rgb.withUnsafeBufferBytes { Array($0) },
            "the stored pixels turned by \(orientation) must be the upright picture")
        return image
    }
}

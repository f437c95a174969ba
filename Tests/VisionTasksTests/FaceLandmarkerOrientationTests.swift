import Foundation
import Testing
@testable import VisionTasks

// Landmarks come in the upright image's coordinates: the astronaut's pixels stored turned, with
// the orientation that makes them upright again, must give the face MediaPipe finds in the upright
// photo. For .up the tolerances are issue #4's (mean |Δ| ≤ 5e-4, max |Δ| ≤ 5e-3). For turned
// buffers MediaPipe samples a rotated region of the stored pixels (its rotation_degrees path, which
// our image-to-tensor reproduces and the Face Detector tests check), whose sample grid is shifted
// by up to a pixel from the upright photo's, so only the max bound (5e-3 of the image size) applies.

/// The RGB pixels of `image` stored so that `orientation` turns them back upright.
private func stored(_ rgb: [UInt8], width w: Int, height h: Int, for orientation: ImageOrientation) -> (pixels: [UInt8], width: Int, height: Int) {
    // Upright pixel (x, y) lands at the stored position that orientation maps back to (x, y).
    var out = [UInt8](repeating: 0, count: rgb.count)
    let (sw, sh) = orientation == .left || orientation == .right ? (h, w) : (w, h)
    for y in 0..<h {
        for x in 0..<w {
            let (sx, sy): (Int, Int)
            switch orientation {
            case .up: (sx, sy) = (x, y)
            case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
            case .right: (sx, sy) = (y, h - 1 - x)     // upright = stored turned 90° clockwise
            case .left: (sx, sy) = (w - 1 - y, x)      // upright = stored turned 90° counterclockwise
            default: (sx, sy) = (x, y)
            }
            for c in 0..<3 { out[(sy * sw + sx) * 3 + c] = rgb[(y * w + x) * 3 + c] }
        }
    }
    return (out, sw, sh)
}

@Test(.enabled(if: FaceLandmarkerFixtures.haveModels), arguments: [ImageOrientation.up, .down, .left, .right])
func landmarksAreInTheUprightImage(orientation: ImageOrientation) throws {
    let photo = try MPImage(contentsOfFile: FaceLandmarkerFixtures.root.appendingPathComponent("Tests/Fixtures/images/astronaut.png").path)
    let upright = try photo.uprightRGB()
    let rgb = upright.withUnsafeBufferBytes { Array($0) }
    let s = stored(rgb, width: upright.width, height: upright.height, for: orientation)
    let image = try s.pixels.withUnsafeBytes {
        try MPImage(pixels: $0, width: s.width, height: s.height, bytesPerRow: s.width * 3, format: .rgb8, orientation: orientation)
    }
    // The stored pixels really are the upright photo turned by `orientation`.
    #expect(try image.uprightRGB().withUnsafeBufferBytes { Array($0) } == rgb)
    let result = try FaceLandmarker(modelPath: FaceLandmarkerFixtures.modelPath).detect(image: image)
    let reference = try #require(try FaceLandmarkerFixtures.load("astronaut").results.first?.faces.first)
    try #require(result.faceLandmarks.count == 1)
    var sum: Float = 0, worst: Float = 0
    for (ours, theirs) in zip(result.faceLandmarks[0], reference.points) {
        let dx = abs(ours.x - theirs.x), dy = abs(ours.y - theirs.y)
        sum += dx + dy
        worst = max(worst, dx, dy)
    }
    let mean = sum / Float(2 * reference.points.count)
    #expect(worst <= 5e-3 && (orientation != .up || mean <= 5e-4), "\(orientation): landmark mean \(mean), max \(worst)")
    print("face-landmarker orientation \(orientation): landmark mean \(mean), max \(worst)")
}

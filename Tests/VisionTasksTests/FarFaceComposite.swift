import FixtureSupport
import Foundation
import VisionTasks

/// The far-face composites of tools/references/make_face_full_range_refs.py, rebuilt from the fixtures with the
/// same integer arithmetic, so MediaPipe and the tests see the same pixels: a 1280×720 frame, plain
/// grey or woman_sitting.jpg scaled, with the 200×200 head-and-shoulders square of astronaut.png at
/// (124, 30) scaled to `side` pixels and pasted at (800 − side / 2, (720 − side) / 2).
enum FarFaceComposite {
    static let frameWidth = 1280, frameHeight = 720
    /// The head-and-shoulders square cut from astronaut.png: left, top, side.
    static let faceCrop = (left: 124, top: 30, side: 200)

    /// Pixels of an RGB image, row after row.
    struct RGB {
        let width: Int, height: Int
        var bytes: [UInt8]

        init(width: Int, height: Int, bytes: [UInt8]) {
            (self.width, self.height, self.bytes) = (width, height, bytes)
        }

        /// A fixture photo decoded as the tests decode it.
        init(fixture name: String) throws {
            let image = try MPImage(contentsOfFile: Fixture.path("images/\(name)")).uprightRGB()
            self.init(
                width: image.bufferWidth, height: image.bufferHeight, bytes: image.withUnsafeBufferBytes { Array($0) })
        }

        /// The `side`-pixel square at (`left`, `top`).
        func square(left: Int, top: Int, side: Int) -> RGB {
            var out = [UInt8]()
            out.reserveCapacity(side * side * 3)
            for y in top..<(top + side) { out += bytes[((y * width + left) * 3)..<((y * width + left + side) * 3)] }
            return RGB(width: side, height: side, bytes: out)
        }

        /// Scaled to `width`×`height` by box averaging: output pixel i of n covers source pixels
        /// [(i·m)/n, max(that + 1, ((i + 1)·m)/n)), each channel (sum + count/2)/count.
        func scaled(width outWidth: Int, height outHeight: Int) -> RGB {
            func bounds(_ n: Int, _ m: Int) -> [(Int, Int)] {
                (0..<n).map { i in
                    let start = i * m / n
                    return (start, max(start + 1, (i + 1) * m / n))
                }
            }
            let rows = bounds(outHeight, height), columns = bounds(outWidth, width)
            var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
            for (y, (y0, y1)) in rows.enumerated() {
                for (x, (x0, x1)) in columns.enumerated() {
                    let count = (y1 - y0) * (x1 - x0)
                    for c in 0..<3 {
                        var sum = 0
                        for sy in y0..<y1 { for sx in x0..<x1 { sum += Int(bytes[(sy * width + sx) * 3 + c]) } }
                        out[(y * outWidth + x) * 3 + c] = UInt8((sum + count / 2) / count)
                    }
                }
            }
            return RGB(width: outWidth, height: outHeight, bytes: out)
        }

        /// An upright RGB MPImage of these pixels.
        func image() throws -> MPImage {
            try MPImage(pixels: Data(bytes), width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
        }
    }

    /// The street photo behind half the composites, scaled once (a debug build takes a second per scaling).
    static let street = "woman_sitting.jpg"
    private static let streetBackground = Result {
        try RGB(fixture: street).scaled(width: frameWidth, height: frameHeight)
    }
    /// The head-and-shoulders photo, cut once.
    private static let headAndShoulders = Result {
        try RGB(fixture: "astronaut.png").square(left: faceCrop.left, top: faceCrop.top, side: faceCrop.side)
    }

    /// The composite with the photo of `side` pixels on `background` ("plain" or a fixture photo).
    static func frame(side: Int, background: String) throws -> RGB {
        var frame =
            background == "plain"
            ? RGB(
                width: frameWidth, height: frameHeight,
                bytes: [UInt8](repeating: 128, count: frameWidth * frameHeight * 3))
            : background == street
                ? try streetBackground.get()
                : try RGB(fixture: background).scaled(width: frameWidth, height: frameHeight)
        let face = try headAndShoulders.get().scaled(width: side, height: side)
        let left = 800 - side / 2, top = (frameHeight - side) / 2
        for y in 0..<side {
            let to = ((top + y) * frameWidth + left) * 3
            frame.bytes.replaceSubrange(to..<(to + side * 3), with: face.bytes[(y * side * 3)..<((y + 1) * side * 3)])
        }
        return frame
    }
}

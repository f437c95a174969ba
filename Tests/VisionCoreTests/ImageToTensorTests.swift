import FixtureSupport
import Foundation
import Testing
import VisionErrors

@testable import VisionCore

/// Image -> tensor against MediaPipe 1.2.2's ImageToTensorCalculator: its own output (through an
/// ImageEmbedder with a pass-through model) for axis-aligned crops and 90° steps, and its CPU
/// converter recomputed step by step (tools/references/make_image_refs.py) for rotated crops, letterboxes and
/// zero borders. Tolerance: the same 8-bit level for every element, i.e. a difference under 1/1000
/// of a level (1/255 of the output range), which leaves room only for the last bit of the float
/// scale; the printout gives the largest difference.
@Suite struct ImageToTensorTests {
    struct Case: Decodable {
        let name, image, orientation: String
        let transform: String?
        let bufferRect: [Float]
        let width, height: Int
        let keepAspectRatio: Bool
        let range: [Float]
        let border: String
        let padding: [Float]
    }

    /// The 11 cases of tools/references/make_image_refs.py.
    static func cases() throws -> [Case] {
        let path = "image/tensors.json"
        return try Fixture.expecting(11, Fixture.decode([Case].self, path), in: path)
    }

    /// The stored frame the reference used: the photo, or it turned / as gray, as a raw frame.
    static func storedImage(_ c: Case) throws -> MPImage {
        let photo = try MPImage(contentsOfFile: Fixtures.path("images/\(c.image)"))
        guard let transform = c.transform else { return photo }
        let w = photo.width, h = photo.height
        return try photo.withUnsafeBufferBytes { src -> MPImage in
            func px(_ x: Int, _ y: Int, _ ch: Int) -> UInt8 { src[(y * w + x) * 3 + ch] }
            switch transform {
            case "gray":
                let gray = (0..<(w * h)).map { px($0 % w, $0 / w, 1) }
                return try MPImage(pixels: Data(gray), width: w, height: h, bytesPerRow: w, format: .gray8)
            case "rot_ccw", "rot_cw", "rot_180":
                let (ow, oh) = transform == "rot_180" ? (w, h) : (h, w)
                var out = [UInt8](repeating: 0, count: ow * oh * 3)
                for y in 0..<oh {
                    for x in 0..<ow {
                        // np.rot90(k=1) is counterclockwise: out[y][x] = in[x][w-1-y].
                        let (sx, sy): (Int, Int)
                        switch transform {
                        case "rot_ccw": (sx, sy) = (w - 1 - y, x)
                        case "rot_cw": (sx, sy) = (y, h - 1 - x)
                        default: (sx, sy) = (w - 1 - x, h - 1 - y)
                        }
                        for ch in 0..<3 { out[(y * ow + x) * 3 + ch] = px(sx, sy, ch) }
                    }
                }
                let orientation: ImageOrientation =
                    transform == "rot_ccw" ? .right : (transform == "rot_cw" ? .left : .down)
                return try MPImage(
                    pixels: Data(out), width: ow, height: oh, bytesPerRow: ow * 3, format: .rgb8,
                    orientation: orientation)
            default:
                throw VisionTasksError.invalidArgument("unknown transform \(transform)")
            }
        }
    }

    @Test(arguments: try cases().map(\.name))
    func matchesMediaPipe(_ name: String) throws {
        let c = try #require(try Self.cases().first { $0.name == name })
        let image = try Self.storedImage(c)
        #expect(image.orientation.rawValue == ["up": 0, "down": 1, "left": 2, "right": 3][c.orientation])
        let options = try ImageToTensorOptions(
            outputWidth: c.width, outputHeight: c.height, keepAspectRatio: c.keepAspectRatio,
            outputRange: c.range[0]...c.range[1], borderMode: c.border == "zero" ? .zero : .replicate)
        // References give MediaPipe's rectangle in the stored frame; for the turned frames it is the
        // whole upright image, which is what the tasks pass.
        let roi =
            image.orientation == .up
            ? NormalizedRect(
                xCenter: c.bufferRect[0], yCenter: c.bufferRect[1], width: c.bufferRect[2],
                height: c.bufferRect[3], rotation: c.bufferRect[4])
            : NormalizedRect.fullImage
        if image.orientation != .up {
            let mapped = try image.bufferRect(fromUpright: roi)
            #expect(abs(mapped.xCenter - c.bufferRect[0]) < 1e-6 && abs(mapped.yCenter - c.bufferRect[1]) < 1e-6)
            #expect(abs(mapped.width - c.bufferRect[2]) < 1e-5 && abs(mapped.height - c.bufferRect[3]) < 1e-5)
            #expect(
                abs(cos(mapped.rotation) - cos(c.bufferRect[4])) < 1e-6
                    && abs(sin(mapped.rotation) - sin(c.bufferRect[4])) < 1e-6)
        }
        var tensor = [Float](repeating: .nan, count: options.elementCount)
        let transform = try tensor.withUnsafeMutableBufferPointer {
            try ImageToTensor.convert(image, roi: roi, options: options, into: $0)
        }
        let expected = try Fixtures.floats("references/image/\(c.name).f32")
        Self.compare(tensor, expected, level: (c.range[1] - c.range[0]) / 255, name: c.name)
        let padding = transform.letterboxPadding
        // Padding is computed on the upright rectangle; for the turned frames MediaPipe pads the
        // same pixel rectangle, so the fractions agree to float rounding.
        #expect(abs(padding.left - c.padding[0]) < 1e-5 && abs(padding.top - c.padding[1]) < 1e-5)
        #expect(abs(padding.right - c.padding[2]) < 1e-5 && abs(padding.bottom - c.padding[3]) < 1e-5)
    }

    /// Compares a tensor with a reference and prints the differences.
    static func compare(_ tensor: [Float], _ expected: [Float], level: Float, name: String) {
        #expect(expected.count == tensor.count)
        var maxDiff: Float = 0
        var offByLevel = 0
        for (a, b) in zip(tensor, expected) {
            let d = abs(a - b)
            maxDiff = max(maxDiff, d.isNaN ? .infinity : d)
            if d > level * 1e-3 { offByLevel += 1 }
        }
        print(
            "image-to-tensor \(name): max |diff| \(maxDiff / level) levels, \(offByLevel)/\(tensor.count) elements off")
        #expect(maxDiff <= level * 1e-3, "\(name)")
        #expect(offByLevel == 0, "\(name)")
    }

    @Test func matchesMediaPipeItself() throws {
        let list = try #require(try Fixtures.json("references/image/mediapipe_tensors.json") as? [[String: Any]])
        #expect(list.count == 8)
        for entry in list {
            let name = try #require(entry["name"] as? String), file = try #require(entry["image"] as? String)
            let r = try #require(entry["bufferRect"] as? [Double]).map { Float($0) }
            let degrees = try #require(entry["rotationDegrees"] as? Int)
            let options = try ImageToTensorOptions(
                outputWidth: try #require(entry["width"] as? Int),
                outputHeight: try #require(entry["height"] as? Int),
                outputRange: 0...255, borderMode: .replicate)
            let expected = try Fixtures.floats("references/image/\(name).f32")
            let image = try MPImage(contentsOfFile: Fixtures.path("images/\(file)"))
            var tensor = [Float](repeating: .nan, count: options.elementCount)
            let rect = NormalizedRect(xCenter: r[0], yCenter: r[1], width: r[2], height: r[3], rotation: r[4])
            try tensor.withUnsafeMutableBufferPointer {
                _ = try ImageToTensor.convert(image, roi: rect, options: options, into: $0)
            }
            Self.compare(tensor, expected, level: 1, name: name)
            // A splitter handing back rows past the tensor's (a caller's bug): cut to them, not written past the
            // buffer; the tensor is the same.
            var split = [Float](repeating: .nan, count: options.elementCount)
            try split.withUnsafeMutableBufferPointer {
                _ = try ImageToTensor.convert(
                    image, roi: rect, options: options, into: $0, splitRows: { rows, body in body(-5..<rows + 1000) })
            }
            #expect(split.elementsEqual(tensor) { $0 == $1 }, "\(name): split rows")
            // A whole frame with rotation_degrees is the same frame with that orientation.
            if entry["crop"] is NSNull {
                let orientation: ImageOrientation = [0: .up, 90: .right, 180: .down, 270: .left][degrees] ?? .up
                try tensor.withUnsafeMutableBufferPointer {
                    _ = try ImageToTensor.convert(image.withOrientation(orientation), options: options, into: $0)
                }
                Self.compare(tensor, expected, level: 1, name: "\(name) as orientation \(orientation)")
            }
        }
    }

    @Test func rawFormatsGiveTheSameTensor() throws {
        let photo = try MPImage(contentsOfFile: Fixtures.path("images/hand_thumb_up.jpg"))
        let w = photo.width, h = photo.height
        let rgb = photo.withUnsafeBufferBytes { [UInt8]($0) }
        var rgba = [UInt8](), bgra = [UInt8]()
        for i in 0..<(w * h) {
            rgba += [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], 77]
            bgra += [rgb[3 * i + 2], rgb[3 * i + 1], rgb[3 * i], 200]
        }
        // A padded stride: 16 spare bytes at the end of every row.
        var padded = [UInt8]()
        for y in 0..<h { padded += rgba[(y * w * 4)..<((y + 1) * w * 4)] + [UInt8](repeating: 9, count: 16) }
        let frames = [
            try MPImage(pixels: Data(rgba), width: w, height: h, bytesPerRow: w * 4, format: .rgba8),
            try MPImage(pixels: Data(bgra), width: w, height: h, bytesPerRow: w * 4, format: .bgra8),
            try MPImage(pixels: Data(padded), width: w, height: h, bytesPerRow: w * 4 + 16, format: .rgba8),
        ]
        let options = try ImageToTensorOptions(
            outputWidth: 64, outputHeight: 80, keepAspectRatio: true,
            outputRange: -1...1, borderMode: .zero)
        let roi = NormalizedRect(xCenter: 0.4, yCenter: 0.6, width: 0.9, height: 0.7, rotation: 0.7)
        var reference = [Float](repeating: 0, count: options.elementCount)
        try reference.withUnsafeMutableBufferPointer {
            _ = try ImageToTensor.convert(photo, roi: roi, options: options, into: $0)
        }
        for frame in frames {
            var tensor = [Float](repeating: 0, count: options.elementCount)
            try tensor.withUnsafeMutableBufferPointer {
                _ = try ImageToTensor.convert(frame, roi: roi, options: options, into: $0)
            }
            #expect(tensor == reference, "\(frame.bufferFormat) frame differs from the decoded RGB image")
        }
    }

    @Test func rejectsBadArguments() throws {
        let image = try MPImage(contentsOfFile: Fixtures.path("images/astronaut.png"))
        let options = try ImageToTensorOptions(outputWidth: 8, outputHeight: 8)
        var small = [Float](repeating: 0, count: 10)
        #expect(throws: VisionTasksError.self) {
            try small.withUnsafeMutableBufferPointer {
                _ = try ImageToTensor.convert(image, options: options, into: $0)
            }
        }
        var tensor = [Float](repeating: 0, count: options.elementCount)
        for bad in [
            NormalizedRect(xCenter: .nan, yCenter: 0.5, width: 1, height: 1),
            NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0, height: 1),
            NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: -1),
        ] {
            #expect(throws: VisionTasksError.self) {
                try tensor.withUnsafeMutableBufferPointer {
                    _ = try ImageToTensor.convert(image, roi: bad, options: options, into: $0)
                }
            }
        }
        #expect(throws: VisionTasksError.self) { try ImageToTensorOptions(outputWidth: 0, outputHeight: 8) }
        #expect(throws: VisionTasksError.self) {
            try ImageToTensorOptions(outputWidth: 8, outputHeight: 8, outputRange: 1...1)
        }
        let mirrored = try MPImage(
            pixels: Data(repeating: 0, count: 12), width: 2, height: 2, bytesPerRow: 6,
            format: .rgb8, orientation: .leftMirrored)
        #expect(throws: VisionTasksError.self) {
            try tensor.withUnsafeMutableBufferPointer {
                _ = try ImageToTensor.convert(mirrored, options: options, into: $0)
            }
        }
    }

    @Test func matrixAndPaddingFollowMediaPipe() throws {
        // A 100x50 image letterboxed into a square tensor: the ROI grows to 100x100 pixels,
        // padding a quarter of the tensor at the top and bottom.
        let image = try MPImage(
            pixels: Data(repeating: 128, count: 100 * 50 * 3), width: 100, height: 50,
            bytesPerRow: 300, format: .rgb8)
        let options = try ImageToTensorOptions(
            outputWidth: 32, outputHeight: 32, keepAspectRatio: true, borderMode: .zero)
        var tensor = [Float](repeating: 0, count: options.elementCount)
        let t = try tensor.withUnsafeMutableBufferPointer {
            try ImageToTensor.convert(image, options: options, into: $0)
        }
        #expect(t.letterboxPadding == LetterboxPadding(left: 0, top: 0.25, right: 0, bottom: 0.25))
        #expect(t.roi == NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 2))
        // Tensor (0.5, 0.25) is the image's top-centre; (0, 0) maps half an image above it.
        let m = t.matrix
        #expect(abs(m[0] * 0.5 + m[1] * 0.25 + m[3] - 0.5) < 1e-6 && abs(m[4] * 0.5 + m[5] * 0.25 + m[7]) < 1e-6)
        #expect(abs(m[3]) < 1e-6 && abs(m[7] + 0.5) < 1e-6)
        // Rows inside the padding are zero-border black, mapped to the range's low end (0).
        #expect(tensor[0] == 0 && abs(tensor[16 * 32 * 3] - 128 / 255) < 1e-6)
    }
}

import CImageCodecs
import VisionErrors

/// What replaces the background behind the person.
public enum BackgroundEffect: Sendable {
    /// The frame itself blurred: a Gaussian of this standard deviation in frame pixels (as CSS's
    /// `blur()`), approximated by three box passes on the small working frame.
    case blur(sigma: Float)
    /// A picture scaled to cover the frame (the smallest scale that fills it), centred, the overflow cut; where it
    /// is transparent (an RGBA picture), the frame shows through, as through a picture drawn over the video.
    case replace(MPImage)
    /// One colour, RGB.
    case color(red: UInt8, green: UInt8, blue: UInt8)
}

/// A frame shrunk to the working size: its RGB bytes (what the segmenter sees) and its luminance in
/// 0...1 (the guided filter's guide, and the frame-difference test's).
public struct SmallFrame: Sendable {
    /// Packed RGB bytes, `luma.width`×`luma.height`×3.
    public let rgb: [UInt8]
    /// The luminance (0.299 R + 0.587 G + 0.114 B) / 255 of each pixel.
    public let luma: FloatPlane
}

/// The background steps for one stream of frames of a fixed size: each frame shrunk by an integer factor
/// (box average) to a working size of about `workingSize` pixels on its longer side, where the mask, the
/// guided filter and the blur are computed; then one pass over the full frame brings the filter's
/// coefficients (or the plain mask) and the blurred background up bilinearly and blends
/// `background + α·(frame − background)`.
public final class BackgroundCompositor {
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// How many frame pixels a working pixel spans on each side.
    public let factor: Int
    /// Working width (`ceil(width / factor)`).
    public let smallWidth: Int
    /// Working height (`ceil(height / factor)`).
    public let smallHeight: Int
    private let effect: BackgroundEffect
    /// The replacement picture covering the frame (`.replace`), packed RGB of the frame's size.
    private let cover: [UInt8]?
    /// The replacement picture's opacity, a byte a frame pixel, when it has transparent pixels (nil: opaque).
    private let coverAlpha: [UInt8]?
    /// The picture over the frame, each frame (`.replace` of a picture with transparent pixels).
    private var backdrop: [UInt8] = []
    /// The per-pass box radius of the blur at the working size (`.blur`).
    private let blurRadius: Int
    private let xs: BilinearTaps
    private let ys: BilinearTaps
    /// The working rows widened to the frame's width, kept from frame to frame (`ic_bg_compose`'s scratch).
    private var wide: [Float] = []

    /// The steps for frames of `width`×`height`, worked on at about `workingSize` pixels a side.
    /// - Throws: `VisionTasksError.invalidArgument` for a size outside 1...16384 or a working size below 16;
    ///   `.invalidImage` when the replacement picture cannot be turned upright.
    public init(width: Int, height: Int, effect: BackgroundEffect, workingSize: Int = 320) throws {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw VisionTasksError.invalidArgument(
                "frames of \(width)×\(height): the background effect takes 1 to 16384 pixels a side")
        }
        guard workingSize >= 16 else {
            throw VisionTasksError.invalidArgument(
                "a working size of \(workingSize): the background effect needs 16 or more")
        }
        (self.width, self.height, self.effect) = (width, height, effect)
        factor = max(1, (max(width, height) + workingSize - 1) / workingSize)
        smallWidth = (width + factor - 1) / factor
        smallHeight = (height + factor - 1) / factor
        xs = BilinearTaps(source: smallWidth, destination: width)
        ys = BilinearTaps(source: smallHeight, destination: height)
        switch effect {
        case .blur(let sigma):
            blurRadius = Self.boxRadius(sigma: sigma / Float(factor))
            (cover, coverAlpha) = (nil, nil)
        case .replace(let picture):
            blurRadius = 0
            coverAlpha = try Self.coverAlpha(picture, width: width, height: height)
            // With transparency, the colours are scaled premultiplied by their opacity, as a browser scales them: a
            // transparent pixel's stored colour (black, often) does not bleed into the edges.
            cover = try Self.cover(
                coverAlpha == nil ? picture : try Self.premultiplied(picture), width: width, height: height)
        case .color:
            (blurRadius, cover, coverAlpha) = (0, nil, nil)
        }
    }

    /// The box radius r whose three passes have the variance of a Gaussian of `sigma`: 3·((2r+1)² − 1)/12 = σ²; at
    /// most 16384, the largest frame's side (a wider box blurs to the same mean).
    public static func boxRadius(sigma: Float) -> Int {
        guard sigma > 0, sigma.isFinite else { return 0 }
        let s = Double(sigma)
        return Int(min(((4 * s * s + 1).squareRoot() - 1) / 2 + 0.5, 16_384))
    }

    /// `picture` scaled bilinearly to cover `width`×`height`, centred: packed RGB of that size.
    public static func cover(_ picture: MPImage, width: Int, height: Int) throws -> [UInt8] {
        let source = try picture.uprightRGB()
        let (sw, sh) = (source.width, source.height)
        let scale = max(Double(width) / Double(sw), Double(height) / Double(sh))
        let (offsetX, offsetY) = ((Double(sw) - Double(width) / scale) / 2, (Double(sh) - Double(height) / scale) / 2)
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let coordinate = { (d: Int, offset: Double, n: Int) -> (Int, Int, Float) in
            let u = min(max(offset + (Double(d) + 0.5) / scale - 0.5, 0), Double(n - 1))
            let i = Int(u)
            return (i, min(i + 1, n - 1), Float(u - Double(i)))
        }
        let columns = (0..<width).map { coordinate($0, offsetX, sw) }
        source.withUnsafeBufferBytes { bytes in
            let src = bytes.bindMemory(to: UInt8.self), stride = sw * 3
            for y in 0..<height {
                let (y0, y1, wy) = coordinate(y, offsetY, sh)
                for (x, (x0, x1, wx)) in columns.enumerated() {
                    for c in 0..<3 {
                        let p00 = Float(src[y0 * stride + x0 * 3 + c]), p01 = Float(src[y0 * stride + x1 * 3 + c])
                        let p10 = Float(src[y1 * stride + x0 * 3 + c]), p11 = Float(src[y1 * stride + x1 * 3 + c])
                        let top = p00 + (p01 - p00) * wx, bottom = p10 + (p11 - p10) * wx
                        out[(y * width + x) * 3 + c] = UInt8(min(max(top + (bottom - top) * wy + 0.5, 0), 255))
                    }
                }
            }
        }
        return out
    }

    /// `picture`'s opacity scaled as `cover` scales its colours, a byte a pixel of `width`×`height`; nil when it has no
    /// alpha channel or is opaque everywhere.
    public static func coverAlpha(_ picture: MPImage, width: Int, height: Int) throws -> [UInt8]? {
        guard picture.bufferFormat == .rgba8 || picture.bufferFormat == .bgra8 else { return nil }
        let count = picture.bufferWidth * picture.bufferHeight
        let alpha = picture.withUnsafeBufferBytes { bytes in (0..<count).map { bytes[$0 * 4 + 3] } }
        guard alpha.contains(where: { $0 != 255 }) else { return nil }
        let plane = try alpha.withUnsafeBytes {
            try MPImage(
                pixels: $0, width: picture.bufferWidth, height: picture.bufferHeight, bytesPerRow: picture.bufferWidth,
                format: .gray8, orientation: picture.orientation)
        }
        let covered = try cover(plane, width: width, height: height)
        return (0..<(width * height)).map { covered[$0 * 3] }
    }

    /// `picture`'s colours times its opacity, as RGB in its orientation (an RGBA or BGRA picture).
    static func premultiplied(_ picture: MPImage) throws -> MPImage {
        let count = picture.bufferWidth * picture.bufferHeight
        let offsets = picture.bufferFormat.rgbOffsets, channels = [offsets.r, offsets.g, offsets.b]
        let rgb = picture.withUnsafeBufferBytes { bytes in
            (0..<(count * 3)).map { i -> UInt8 in
                let pixel = i / 3 * 4
                return UInt8((UInt32(bytes[pixel + channels[i % 3]]) * UInt32(bytes[pixel + 3]) + 127) / 255)
            }
        }
        return try rgb.withUnsafeBytes {
            try MPImage(
                pixels: $0, width: picture.bufferWidth, height: picture.bufferHeight,
                bytesPerRow: picture.bufferWidth * 3, format: .rgb8, orientation: picture.orientation)
        }
    }

    /// The premultiplied cover over `frame` by its opacity into `backdrop`: the background a picture with transparent
    /// pixels gives.
    private func coverOver(_ frame: MPImage, _ cover: [UInt8], _ alpha: [UInt8]) {
        if backdrop.count != cover.count { backdrop = [UInt8](repeating: 0, count: cover.count) }
        frame.withUnsafeBufferBytes { bytes in
            cover.withUnsafeBufferPointer { cover in
                alpha.withUnsafeBufferPointer { alpha in
                    backdrop.withUnsafeMutableBufferPointer { out in
                        for i in 0..<alpha.count {
                            let rest = 255 - UInt32(alpha[i])
                            for c in (i * 3)..<(i * 3 + 3) {
                                out[c] = UInt8(min(255, UInt32(cover[c]) + (UInt32(bytes[c]) * rest + 127) / 255))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Throws unless `frame` is an upright RGB frame of the stream's size.
    private func check(_ frame: MPImage) throws {
        guard frame.width == width, frame.height == height else {
            throw VisionTasksError.invalidVideo(
                "a frame of \(frame.width)×\(frame.height) in a stream that started at \(width)×\(height): the frame size must not change mid-stream"
            )
        }
        guard frame.bufferFormat == .rgb8, frame.orientation == .up else {
            throw VisionTasksError.invalidImage("background frames must be upright RGB, got \(frame.bufferFormat)")
        }
    }

    /// The frame shrunk to the working size (each working pixel the mean of its factor×factor block, the
    /// blocks at the right and bottom edges possibly smaller), with its luminance.
    /// - Throws: `VisionTasksError.invalidVideo` for a frame of another size than the stream's.
    public func shrink(_ frame: MPImage) throws -> SmallFrame {
        try check(frame)
        let (w, h) = (smallWidth, smallHeight)
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        var sums = [UInt32](repeating: 0, count: width * 3)
        frame.withUnsafeBufferBytes { bytes in
            let src = bytes.bindMemory(to: UInt8.self).baseAddress!
            ic_bg_shrink(src, Int32(width), Int32(height), Int32(factor), &rgb, &sums)
        }
        var luma = FloatPlane(knownWidth: w, height: h, repeating: 0)
        for i in 0..<(w * h) { luma.values[i] = Self.luminance(rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]) }
        return SmallFrame(rgb: rgb, luma: luma)
    }

    /// Throws unless `small` is a working frame of this compositor's size (`shrink` of another compositor's).
    private func checkWorkingSize(_ small: SmallFrame) throws {
        guard small.luma.width == smallWidth, small.luma.height == smallHeight,
            small.rgb.count == smallWidth * smallHeight * 3
        else {
            throw VisionTasksError.invalidArgument(
                "a working frame of \(small.luma.width)×\(small.luma.height), not this compositor's \(smallWidth)×\(smallHeight)"
            )
        }
    }

    /// (0.299 R + 0.587 G + 0.114 B) / 255.
    @inline(__always)
    public static func luminance(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Float {
        (0.299 * Float(r) + 0.587 * Float(g) + 0.114 * Float(b)) / 255
    }

    /// The blurred working frame, as three planes R, G, B (`.blur` only; nil otherwise).
    /// - Throws: `VisionTasksError.invalidArgument` for a working frame of another compositor's size.
    public func blurredBackground(_ small: SmallFrame) throws -> [FloatPlane]? {
        guard case .blur = effect else { return nil }
        try checkWorkingSize(small)
        return (0..<3).map { c in
            var plane = FloatPlane(knownWidth: smallWidth, height: smallHeight, repeating: 0)
            small.rgb.withUnsafeBufferPointer { rgb in
                plane.values.withUnsafeMutableBufferPointer { values in
                    for i in 0..<values.count { values[i] = Float(rgb[i * 3 + c]) }
                }
            }
            for _ in 0..<3 { plane = BoxMean.of(plane, radius: blurRadius) }
            return plane
        }
    }

    /// The composed frame, packed RGB into `out` (resized to the frame's): each pixel's α is
    /// `up(a)·Y + up(b)` clamped to 0...1, `Y` the frame pixel's luminance and `up` bilinear from the working
    /// size (for the plain mask, `a` zero and `b` the mask), and its colour `background + α·(frame − background)`.
    /// - Throws: `VisionTasksError.invalidVideo` for a frame of another size than the stream's;
    ///   `.invalidArgument` for coefficient planes not of the working size; `.processingFailed` when memory is short.
    public func compose(_ frame: MPImage, small: SmallFrame, a: FloatPlane, b: FloatPlane, into out: inout [UInt8])
        throws
    {
        try check(frame)
        for plane in [a, b] where plane.width != smallWidth || plane.height != smallHeight {
            throw VisionTasksError.invalidArgument(
                "background coefficients of \(plane.width)×\(plane.height), not the working \(smallWidth)×\(smallHeight)"
            )
        }
        let blurred = try blurredBackground(small)
        if out.count != width * height * 3 { out = [UInt8](repeating: 0, count: width * height * 3) }
        let planes = [a, b] + (blurred ?? [])
        if wide.count != planes.count * 2 * width { wide = [Float](repeating: 0, count: planes.count * 2 * width) }
        var fixed: [Float] = [0, 0, 0]
        if case .color(let r, let g, let b) = effect { fixed = [Float(r), Float(g), Float(b)] }
        let empty: [UInt8] = []
        if let cover, let coverAlpha { coverOver(frame, cover, coverAlpha) }
        let background = coverAlpha == nil ? cover ?? empty : backdrop
        var status: Int32 = 0
        Self.withBases(planes[...], []) { bases in
            frame.withUnsafeBufferBytes { bytes in
                background.withUnsafeBufferPointer { picture in
                    status = ic_bg_compose(
                        bytes.bindMemory(to: UInt8.self).baseAddress, &out, Int32(width), Int32(height), bases,
                        Int32(planes.count), Int32(smallWidth), Int32(smallHeight), xs.index, xs.weight, ys.index,
                        ys.weight, picture.isEmpty ? nil : picture.baseAddress, fixed, &wide)
                }
            }
        }
        guard status == 0 else {
            throw VisionTasksError.processingFailed("no memory to compose a \(width)×\(height) background frame")
        }
    }

    /// `body` given the base addresses of `planes`' values (after `bases`), each valid while it runs.
    private static func withBases(
        _ planes: ArraySlice<FloatPlane>, _ bases: [UnsafePointer<Float>?], _ body: ([UnsafePointer<Float>?]) -> Void
    ) {
        guard let first = planes.first else { return body(bases) }
        first.values.withUnsafeBufferPointer { withBases(planes.dropFirst(), bases + [$0.baseAddress], body) }
    }
}

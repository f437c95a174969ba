import Foundation
import VisionCore

/// A single-channel mask of probabilities, as MediaPipe for iOS's `Mask` gives a segmentation: row-major
/// `width`×`height` values in [0, 1]. Its JSON form is its size and an 8-bit grayscale PNG of it,
/// base64 (`png`), each pixel round(255·p): about a hundredth of the text the numbers would take; or,
/// once a front end wrote that PNG to a file (`file`), its size and the file's path.
public struct Mask: Codable, Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The probabilities, row by row (`width`×`height` of them).
    public let float32Data: [Float]
    /// Where the mask's PNG (`pngData()`) was written, when a front end wrote it to a file (the CLI's
    /// `--masks`): the JSON then names the file instead of holding the PNG.
    public var file: String?

    /// A mask of `float32Data`, which must hold `width`×`height` values (`invalidArgument` otherwise).
    /// - Parameters:
    ///   - width: Width in pixels, above 0.
    ///   - height: Height in pixels, above 0.
    ///   - float32Data: The probabilities, row by row.
    /// - Throws: `VisionTasksError.invalidArgument` for a size that is not positive or a wrong value count.
    public init(width: Int, height: Int, float32Data: [Float]) throws {
        guard width > 0, height > 0, float32Data.count == width * height else {
            throw VisionTasksError.invalidArgument(
                "a \(width)×\(height) mask needs \(max(0, width) * max(0, height)) values, got \(float32Data.count)")
        }
        self.width = width
        self.height = height
        self.float32Data = float32Data
    }

    /// The mask as 8-bit gray levels, round(255·p) with p clamped to [0, 1].
    public var uint8Data: [UInt8] {
        // round(255·p), halves up, without a libm call per pixel; NaN gives 0.
        [UInt8](unsafeUninitializedCapacity: float32Data.count) { bytes, count in
            float32Data.withUnsafeBufferPointer { values in
                for i in values.indices {
                    let p = values[i]
                    guard p > 0 else {
                        bytes[i] = 0
                        continue
                    }
                    guard p < 1 else {
                        bytes[i] = 255
                        continue
                    }
                    let q = p * 255, whole = UInt8(q)
                    bytes[i] = q - Float(whole) >= 0.5 ? whole + 1 : whole
                }
            }
            count = float32Data.count
        }
    }

    /// The mask as an 8-bit grayscale PNG (`uint8Data`), deflated at zlib's fastest level: a mask is
    /// mostly flat, so that costs little size (a 960×640 one: about a fifth more) for a fraction of the time.
    public func pngData() throws -> Data {
        let bytes = uint8Data
        return try bytes.withUnsafeBytes {
            try MPImage(pixels: $0, width: width, height: height, bytesPerRow: width, format: .gray8).pngData(
                compressionLevel: 1)
        }
    }

    private enum CodingKeys: String, CodingKey { case width, height, png, file }

    /// Writes the size and the base64 PNG, or the file's path when the PNG was written to one.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        if let file {
            try c.encode(file, forKey: .file)
        } else {
            try c.encode(try pngData().base64EncodedString(), forKey: .png)
        }
    }

    /// Reads the size and the PNG, base64 or from the file named (each level back to level/255);
    /// `dataCorrupted` when the PNG cannot be read or does not decode to an image of that size.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let width = try c.decode(Int.self, forKey: .width), height = try c.decode(Int.self, forKey: .height)
        let file = try c.decodeIfPresent(String.self, forKey: .file)
        // A file named is read as any image file is (MPImage's size-checked reader and decode limits).
        let decoded: MPImage?
        if let file {
            decoded = try? MPImage(contentsOfFile: file)
        } else {
            decoded = try Data(base64Encoded: try c.decode(String.self, forKey: .png)).flatMap {
                try? MPImage(encodedData: $0, name: "mask PNG")
            }
        }
        guard let image = decoded,
            image.width == width, image.height == height, image.bufferWidth == width, width > 0, height > 0
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .png, in: c, debugDescription: "not a \(width)×\(height) PNG")
        }
        // The first channel of each stored pixel (a gray PNG's level).
        let step = image.bufferFormat.bytesPerPixel
        let levels = image.withUnsafeBufferBytes { raw in (0..<width * height).map { Float(raw[$0 * step]) / 255 } }
        try self.init(width: width, height: height, float32Data: levels)
        self.file = file
    }
}

import Foundation
import VisionCore

/// A single-channel mask, as MediaPipe for iOS's `Mask`: row-major `width`×`height` values, either
/// probabilities in [0, 1] (`float32`: a confidence or segmentation mask) or bytes (`uInt8`: the Image
/// Segmenter's category mask, a category index per pixel). Its JSON form is its size and an 8-bit
/// grayscale PNG of it, base64 (`png`): round(255·p) for a float mask, the bytes for a byte mask (then
/// `"dataType": "uInt8"`); about a hundredth of the text the numbers would take; or, once a front end
/// wrote that PNG to a file (`file`), its size and the file's path.
public struct Mask: Codable, Sendable, Equatable {
    /// What a mask's values are (MediaPipe for iOS's `MPPMaskDataType`).
    public enum DataType: String, Codable, Sendable {
        /// Bytes, 0 to 255.
        case uInt8
        /// Floats, probabilities in [0, 1].
        case float32
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// What the values are: the one of `uint8Data` and `float32Data` the mask was made with.
    public let dataType: DataType
    /// The values of a float mask; empty for a byte mask.
    private let floats: [Float]
    /// The values of a byte mask; empty for a float mask.
    private let bytes: [UInt8]
    /// Where the mask's PNG (`pngData()`) was written, when a front end wrote it to a file (the CLI's
    /// `--masks`): the JSON then names the file instead of holding the PNG.
    public var file: String?

    /// A float mask of `float32Data`, which must hold `width`×`height` values (`invalidArgument` otherwise).
    /// - Parameters:
    ///   - width: Width in pixels, above 0.
    ///   - height: Height in pixels, above 0.
    ///   - float32Data: The probabilities, row by row.
    /// - Throws: `VisionTasksError.invalidArgument` for a size that is not positive or a wrong value count.
    public init(width: Int, height: Int, float32Data: [Float]) throws {
        try Self.checkSize(width, height, float32Data.count)
        (self.width, self.height, dataType, floats, bytes) = (width, height, .float32, float32Data, [])
    }

    /// A byte mask of `uint8Data`, which must hold `width`×`height` values (`invalidArgument` otherwise).
    public init(width: Int, height: Int, uint8Data: [UInt8]) throws {
        try Self.checkSize(width, height, uint8Data.count)
        (self.width, self.height, dataType, floats, bytes) = (width, height, .uInt8, [], uint8Data)
    }

    private static func checkSize(_ width: Int, _ height: Int, _ count: Int) throws {
        let (values, overflow) = max(0, width).multipliedReportingOverflow(by: max(0, height))
        guard width > 0, height > 0, !overflow, count == values else {
            throw VisionTasksError.invalidArgument(
                "a \(width)×\(height) mask needs \(overflow ? "more than \(Int.max)" : "\(values)") values, got \(count)"
            )
        }
    }

    /// The most mask values one frame's result may hold, all its masks together (2^28: 1 GiB of floats). A frame
    /// past it (many labels or people on a large image) is refused with `invalidArgument`.
    public static let maxFrameValues = 1 << 28

    /// Throws `invalidArgument` when `count` masks of `width`×`height` (`what`: "confidence masks of 3 labels")
    /// would hold more than `maxFrameValues`; `advice` says what to ask for instead.
    static func checkFrameValues(_ count: Int, width: Int, height: Int, what: String, advice: String) throws {
        // In floating point, where no product overflows (the limit is far below 2^53, where integers stay exact).
        let values = Double(count) * Double(width) * Double(height)
        guard values > Double(maxFrameValues) else { return }
        let gib = { (values: Double) in ((values * 4 / Double(1 << 30)) * 10).rounded() / 10 }
        throw VisionTasksError.invalidArgument(
            "\(what) at \(width)×\(height) pixels would take \(gib(values)) GiB, over the limit of "
                + "\(gib(Double(maxFrameValues))) GiB: \(advice)")
    }

    /// The values, row by row, as floats: a float mask's own; a byte mask's each divided by 255 (as
    /// MediaPipe for iOS converts them).
    public var float32Data: [Float] {
        dataType == .float32 ? floats : bytes.map { Float($0) / 255 }
    }

    /// The values, row by row, as bytes: a byte mask's own; a float mask's as 8-bit gray levels,
    /// round(255·p) with p clamped to [0, 1].
    public var uint8Data: [UInt8] {
        guard dataType == .float32 else { return bytes }
        // round(255·p), halves up, without a libm call per pixel; NaN gives 0.
        return [UInt8](unsafeUninitializedCapacity: floats.count) { bytes, count in
            floats.withUnsafeBufferPointer { values in
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
            count = floats.count
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

    private enum CodingKeys: String, CodingKey { case width, height, dataType, png, file }

    /// Writes the size (and `dataType` for a byte mask) and the base64 PNG, or the file's path when
    /// the PNG was written to one.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        if dataType == .uInt8 { try c.encode(dataType, forKey: .dataType) }
        if let file {
            try c.encode(file, forKey: .file)
        } else {
            try c.encode(try pngData().base64EncodedString(), forKey: .png)
        }
    }

    /// Reads the size and the PNG, base64 or from the file named (a float mask: each level back to
    /// level/255; a byte mask, `"dataType": "uInt8"`: the levels);
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
            decoded = Data(base64Encoded: try c.decode(String.self, forKey: .png)).flatMap {
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
        let levels = image.withUnsafeBufferBytes { raw in (0..<width * height).map { raw[$0 * step] } }
        if try c.decodeIfPresent(DataType.self, forKey: .dataType) == .uInt8 {
            try self.init(width: width, height: height, uint8Data: levels)
        } else {
            try self.init(width: width, height: height, float32Data: levels.map { Float($0) / 255 })
        }
        self.file = file
    }
}

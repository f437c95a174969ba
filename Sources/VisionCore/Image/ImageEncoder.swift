import CImageCodecs
import Foundation
import VisionErrors

/// The file formats `MPImage` can be written in.
public enum ImageFileFormat: String, Sendable {
    /// Lossless PNG.
    case png
    /// Baseline JPEG.
    case jpeg

    /// The format a path's extension names (`.png`, `.jpg`, `.jpeg`), or nil.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        default: return nil
        }
    }
}

extension MPImage {
    /// The upright image encoded as PNG (RGB, or gray for gray images), deflated at zlib's default level 6.
    /// - Throws: `VisionTasksError.invalidImage` when the upright copy cannot be allocated; `.processingFailed`
    ///   when the encoder fails.
    public func pngData() throws -> Data {
        try pngData(compressionLevel: 6)
    }

    /// The upright image encoded as PNG, deflated at zlib `compressionLevel` 1 (fastest) ... 9 (smallest).
    /// - Parameter compressionLevel: zlib's level; values outside 1...9 are clamped to it.
    /// - Throws: `VisionTasksError.invalidImage` when the upright copy cannot be allocated; `.processingFailed`
    ///   when the encoder fails.
    public func pngData(compressionLevel: Int) throws -> Data {
        try encoded(as: .png, quality: 100, pngLevel: compressionLevel)
    }

    /// The upright image encoded as JPEG of `quality` 1...100.
    /// - Parameter quality: The JPEG quality, 1...100.
    /// - Throws: `VisionTasksError.invalidArgument` for a quality outside 1...100; `.invalidImage` when the
    ///   upright copy cannot be allocated; `.processingFailed` when the encoder fails.
    public func jpegData(quality: Int = 92) throws -> Data {
        try encoded(as: .jpeg, quality: quality)
    }

    /// Writes the upright image to `url`, as PNG or JPEG by its extension (JPEG at `jpegQuality`), whole: through a
    /// partial file renamed into place, a link followed.
    /// - Parameters:
    ///   - url: Where to write; its extension (`.png`, `.jpg` or `.jpeg`) picks the format.
    ///   - jpegQuality: The JPEG quality, 1...100.
    /// - Throws: `VisionTasksError.invalidArgument` for another extension or a quality outside 1...100;
    ///   `.fileUnwritable` when the file cannot be written; `.processingFailed` when the encoder fails.
    public func write(to url: URL, jpegQuality: Int = 92) throws {
        guard let format = ImageFileFormat(pathExtension: url.pathExtension) else {
            throw VisionTasksError.invalidArgument(
                "\(url.path): unknown image extension '\(url.pathExtension)' (use .png, .jpg or .jpeg)")
        }
        try OutputFile.write(try encoded(as: format, quality: jpegQuality), to: url.path)
    }

    private func encoded(as format: ImageFileFormat, quality: Int, pngLevel: Int = 6) throws -> Data {
        guard (1...100).contains(quality) else {
            throw VisionTasksError.invalidArgument("JPEG quality \(quality) is outside 1...100")
        }
        let upright =
            bufferFormat == .gray8 && orientation == .up
            ? self
            : (bufferFormat == .gray8 ? try grayUpright() : try uprightRGB())
        let channels = upright.bufferFormat.bytesPerPixel
        var message = [CChar](repeating: 0, count: Int(IC_MESSAGE_SIZE))
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status: Int32 = upright.withUnsafeBufferBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 1 }
            switch format {
            case .png:
                return ic_encode_png(
                    base, Int32(upright.bufferWidth), Int32(upright.bufferHeight),
                    upright.bufferBytesPerRow, Int32(channels), Int32(max(1, min(9, pngLevel))),
                    &output, &size, &message)
            case .jpeg:
                return ic_encode_jpeg(
                    base, Int32(upright.bufferWidth), Int32(upright.bufferHeight),
                    upright.bufferBytesPerRow, Int32(channels), Int32(quality), &output, &size, &message)
            }
        }
        guard status == 0, let bytes = output else {
            throw VisionTasksError.processingFailed("\(format) encoding failed: \(cMessage(message))")
        }
        return Data(bytesNoCopy: bytes, count: size, deallocator: .custom { pointer, _ in ic_free(pointer) })
    }

    /// A gray image turned upright, still gray.
    private func grayUpright() throws -> MPImage {
        let rgb = try uprightRGB()
        let target = try PixelStorage(count: rgb.width * rgb.height, for: "upright copy")
        rgb.withUnsafeBufferBytes { bytes in
            for i in 0..<(rgb.width * rgb.height) {
                target.base.storeBytes(of: bytes[3 * i], toByteOffset: i, as: UInt8.self)
            }
        }
        return MPImage(
            storage: target, bufferWidth: rgb.width, bufferHeight: rgb.height, format: .gray8, orientation: .up)
    }
}

import CImageCodecs
import Foundation
import VisionErrors

/// Decodes JPEG (stb_image, as MediaPipe's loader) and PNG (libdeflate or libpng) bytes into an `MPImage`,
/// giving the pixels MediaPipe's file loader gives: gray stays gray, RGB and RGBA keep their channels, an EXIF
/// orientation in a JPEG is applied to the pixels.
enum ImageDecoder {
    /// Decodes `data` within `options`' limits; `name` (the path) starts every error message.
    static func decode(
        _ data: Data, name: String, orientation: ImageOrientation,
        options: ImageDecodingOptions
    ) throws -> MPImage {
        try data.withUnsafeBytes {
            try decode($0, rearranging: nil, name: name, orientation: orientation, options: options)
        }
    }

    /// Decodes the file at `path`: its bytes, which the PNG decoder may rearrange (IDATs joined where they
    /// lie), are freed as soon as the pixels are decoded.
    static func decodeFile(_ path: String, orientation: ImageOrientation, options: ImageDecodingOptions) throws
        -> MPImage
    {
        let file = try ImageFile.read(
            path, largest: options.largestFileBytes,
            tooLarge: ", the most an image of \(options.maxPixelCount) pixels takes")
        // `file` owns the bytes: kept alive until the decoder is done with them.
        return try withExtendedLifetime(file) {
            try decode(rearranging: file.bytes, name: path, orientation: orientation, options: options)
        }
    }

    /// Decodes `bytes` as a file's (see `decodeFile`), leaving them rearranged when it succeeds.
    static func decode(
        rearranging bytes: UnsafeMutableRawBufferPointer, name: String, orientation: ImageOrientation,
        options: ImageDecodingOptions
    ) throws -> MPImage {
        try decode(
            UnsafeRawBufferPointer(bytes), rearranging: bytes, name: name, orientation: orientation, options: options)
    }

    /// Decodes `bytes`; `rearranging`, when given, is the same memory, which the decoder may change.
    private static func decode(
        _ bytes: UnsafeRawBufferPointer, rearranging writable: UnsafeMutableRawBufferPointer?,
        name: String, orientation: ImageOrientation, options: ImageDecodingOptions
    ) throws -> MPImage {
        guard options.maxPixelCount > 0 else {
            throw VisionTasksError.invalidOption(
                name: "maxPixelCount", reason: "must be positive, got \(options.maxPixelCount)")
        }
        let raw = bytes.bindMemory(to: UInt8.self)
        guard let start = raw.baseAddress, raw.count > 0 else {
            throw VisionTasksError.invalidImage("\(name): the file is empty")
        }
        var image = ic_image()
        var message = [CChar](repeating: 0, count: Int(IC_MESSAGE_SIZE))
        let status: Int32
        let kind: String
        switch ImageFileFormat(signature: UnsafeRawBufferPointer(raw)) {
        case .jpeg:
            kind = "JPEG"
            // Turned while decoding, as MediaPipe's loader turns the pixels.
            let exif = ExifOrientation.read(fromJPEG: UnsafeRawBufferPointer(raw))
            status = ic_decode_jpeg(start, raw.count, options.maxPixelCount, Int32(exif), &image, &message)
        case .png:
            kind = "PNG"
            if let writable = writable?.baseAddress {
                status = ic_decode_png_in_place(
                    writable.assumingMemoryBound(to: UInt8.self), raw.count,
                    options.maxPixelCount, &image, &message)
            } else {
                status = ic_decode_png(start, raw.count, options.maxPixelCount, &image, &message)
            }
        case nil:
            throw VisionTasksError.invalidImage("\(name): \(ImageFileFormat.unrecognised)")
        }
        guard status != IC_TOO_MANY_PIXELS else {
            let pixels = Int(image.width) * Int(image.height)
            throw VisionTasksError.invalidImage(
                "\(name): the \(kind) header declares \(image.width)x\(image.height) (\(pixels) pixels), more than the limit of "
                    + "\(options.maxPixelCount) pixels; raise ImageDecodingOptions.maxPixelCount (--max-image-pixels) if the image is trusted"
            )
        }
        guard status == 0, let pixels = image.pixels else {
            let reason = cMessage(message)
            throw VisionTasksError.invalidImage(
                "\(name): corrupt or unsupported \(kind): \(reason.isEmpty ? "decoding failed" : reason)")
        }
        let width = Int(image.width), height = Int(image.height), channels = Int(image.channels)
        var storage = PixelStorage(adopting: UnsafeMutableRawPointer(pixels), count: width * height * channels)
        let format: PixelFormat
        switch channels {
        case 1: format = .gray8
        case 2:
            // Gray with alpha (or gray with tRNS): MediaPipe's loader refuses two channels. We give RGBA, the gray
            // level in R, G and B: the tasks see the gray picture (they drop alpha, as MediaPipe does of RGBA), and a
            // background picture keeps its transparency.
            storage = try rgba(fromGrayAlpha: storage, pixelCount: width * height, name: name)
            format = .rgba8
        case 3: format = .rgb8
        case 4: format = .rgba8
        default:
            throw VisionTasksError.invalidImage("\(name): unsupported \(kind) with \(channels) channels")
        }
        return MPImage(
            storage: storage, bufferWidth: width, bufferHeight: height, format: format,
            orientation: orientation)
    }

    /// RGBA pixels from gray-and-alpha ones: the gray level in R, G and B, alpha kept.
    private static func rgba(fromGrayAlpha source: PixelStorage, pixelCount: Int, name: String) throws
        -> PixelStorage
    {
        let rgba = try PixelStorage(count: pixelCount * 4, for: name)
        let from = source.base.assumingMemoryBound(to: UInt8.self)
        let to = rgba.base.assumingMemoryBound(to: UInt8.self)
        for i in 0..<pixelCount {
            let gray = from[2 * i]
            (to[4 * i], to[4 * i + 1], to[4 * i + 2], to[4 * i + 3]) = (gray, gray, gray, from[2 * i + 1])
        }
        return rgba
    }
}

extension ImageFileFormat {
    /// The most leading bytes `init(signature:)` reads.
    public static let signatureLength = 8
    /// Why bytes of neither format are refused.
    static let unrecognised = "not a JPEG or PNG file (unrecognised signature)"

    /// The format whose signature `bytes` start with (JPEG's FF D8 FF; PNG's 89 'PNG', its file at least 8
    /// bytes), or nil: what the decoder takes, told before anything is decoded.
    public init?(signature bytes: UnsafeRawBufferPointer) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.count >= Self.signatureLength, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            self = .png
        } else {
            return nil
        }
    }
}

/// The text of a NUL-terminated C message buffer.
func cMessage(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

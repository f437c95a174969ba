import CImageCodecs
import Foundation
import VisionErrors

/// Decodes JPEG (stb_image, as MediaPipe's loader) and PNG (libdeflate or libpng) bytes into an `MPImage`,
/// giving the pixels MediaPipe's file loader gives: gray stays gray, RGB and RGBA keep their channels, an EXIF
/// orientation in a JPEG is applied to the pixels.
enum ImageDecoder {
    /// Decodes `data` within `options`' limits; `name` (the path) starts every error message.
    static func decode(_ data: Data, name: String, orientation: ImageOrientation,
                       options: ImageDecodingOptions) throws -> MPImage {
        let stored = try data.withUnsafeBytes {
            try decodeStored($0, rearranging: nil, name: name, orientation: orientation, options: options)
        }
        return try stored.upright(name: name)
    }

    /// Decodes the file at `path`: its bytes, which the PNG decoder may rearrange (IDATs joined where they
    /// lie), are freed as soon as the pixels are decoded, before an EXIF orientation is applied.
    static func decodeFile(_ path: String, orientation: ImageOrientation, options: ImageDecodingOptions) throws -> MPImage {
        var file: FileBytes? = try ImageFile.read(path)
        let stored = try decodeStored(UnsafeRawBufferPointer(file!.bytes), rearranging: file!.bytes, name: path,
                                      orientation: orientation, options: options)
        file = nil
        return try stored.upright(name: path)
    }

    /// Decodes `bytes` as a file's (see `decodeFile`), leaving them rearranged when it succeeds.
    static func decode(rearranging bytes: UnsafeMutableRawBufferPointer, name: String, orientation: ImageOrientation,
                       options: ImageDecodingOptions) throws -> MPImage {
        try decodeStored(UnsafeRawBufferPointer(bytes), rearranging: bytes, name: name, orientation: orientation,
                         options: options).upright(name: name)
    }

    /// Decoded pixels as stored in the file, and the JPEG's EXIF orientation (1...8) still to apply.
    struct Stored {
        let image: MPImage
        let exifOrientation: Int

        func upright(name: String) throws -> MPImage {
            guard exifOrientation > 1 && exifOrientation <= 8 else { return image }
            return try image.applyingExifOrientation(exifOrientation, name: name)
        }
    }

    /// Decodes `bytes`; `rearranging`, when given, is the same memory, which the decoder may change.
    private static func decodeStored(_ bytes: UnsafeRawBufferPointer, rearranging writable: UnsafeMutableRawBufferPointer?,
                                     name: String, orientation: ImageOrientation,
                                     options: ImageDecodingOptions) throws -> Stored {
        guard options.maxPixelCount > 0 else {
            throw VisionTasksError.invalidOption(name: "maxPixelCount", reason: "must be positive, got \(options.maxPixelCount)")
        }
        let raw = bytes.bindMemory(to: UInt8.self)
        guard let start = raw.baseAddress, raw.count > 0 else {
            throw VisionTasksError.invalidImage("\(name): the file is empty")
        }
        var image = ic_image()
        var message = [CChar](repeating: 0, count: Int(IC_MESSAGE_SIZE))
        let status: Int32
        let kind: String
        var exifOrientation = 1
        if raw.count >= 3, raw[0] == 0xFF, raw[1] == 0xD8, raw[2] == 0xFF {
            kind = "JPEG"
            status = ic_decode_jpeg(start, raw.count, options.maxPixelCount, &image, &message)
            exifOrientation = ExifOrientation.read(fromJPEG: UnsafeRawBufferPointer(raw))
        } else if raw.count >= 8, raw[0] == 0x89, raw[1] == 0x50, raw[2] == 0x4E, raw[3] == 0x47 {
            kind = "PNG"
            if let writable = writable?.baseAddress {
                status = ic_decode_png_in_place(writable.assumingMemoryBound(to: UInt8.self), raw.count,
                                                options.maxPixelCount, &image, &message)
            } else {
                status = ic_decode_png(start, raw.count, options.maxPixelCount, &image, &message)
            }
        } else {
            throw VisionTasksError.invalidImage("\(name): not a JPEG or PNG file (unrecognised signature)")
        }
        guard status != IC_TOO_MANY_PIXELS else {
            let pixels = Int(image.width) * Int(image.height)
            throw VisionTasksError.invalidImage(
                "\(name): the \(kind) header declares \(image.width)x\(image.height) (\(pixels) pixels), more than the limit of "
                + "\(options.maxPixelCount) pixels; raise ImageDecodingOptions.maxPixelCount (--max-image-pixels) if the image is trusted")
        }
        guard status == 0, let pixels = image.pixels else {
            let reason = cMessage(message)
            throw VisionTasksError.invalidImage("\(name): corrupt or unsupported \(kind): \(reason.isEmpty ? "decoding failed" : reason)")
        }
        let width = Int(image.width), height = Int(image.height), channels = Int(image.channels)
        var storage = PixelStorage(adopting: UnsafeMutableRawPointer(pixels), count: width * height * channels)
        let format: PixelFormat
        switch channels {
        case 1: format = .gray8
        case 2:
            // Gray with alpha: MediaPipe's loader refuses two channels; we keep the gray level
            // and drop alpha, as MediaPipe drops the alpha of RGBA images.
            storage = try dropAlpha(fromGrayAlpha: storage, pixelCount: width * height, name: name)
            format = .gray8
        case 3: format = .rgb8
        case 4: format = .rgba8
        default:
            throw VisionTasksError.invalidImage("\(name): unsupported \(kind) with \(channels) channels")
        }
        let decoded = MPImage(storage: storage, bufferWidth: width, bufferHeight: height, format: format,
                              orientation: orientation)
        return Stored(image: decoded, exifOrientation: exifOrientation)
    }

    private static func dropAlpha(fromGrayAlpha source: PixelStorage, pixelCount: Int, name: String) throws -> PixelStorage {
        let gray = try PixelStorage(count: pixelCount, for: name)
        let from = source.base.assumingMemoryBound(to: UInt8.self)
        let to = gray.base.assumingMemoryBound(to: UInt8.self)
        for i in 0..<pixelCount {
            to[i] = from[2 * i]
        }
        return gray
    }
}

extension MPImage {
    /// The pixels turned as EXIF orientation `exif` (2...8) says, as MediaPipe's loader turns them.
    func applyingExifOrientation(_ exif: Int, name: String) throws -> MPImage {
        let w = bufferWidth, h = bufferHeight, bpp = bufferFormat.bytesPerPixel
        let swaps = exif >= 5
        let outW = swaps ? h : w, outH = swaps ? w : h
        let target = try PixelStorage(count: w * h * bpp, for: name)
        let src = storage.base.assumingMemoryBound(to: UInt8.self)
        let dst = target.base.assumingMemoryBound(to: UInt8.self)
        for y in 0..<outH {
            for x in 0..<outW {
                let sx: Int, sy: Int
                switch exif {
                case 2: (sx, sy) = (w - 1 - x, y)
                case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
                case 4: (sx, sy) = (x, h - 1 - y)
                case 5: (sx, sy) = (y, x)
                case 6: (sx, sy) = (y, h - 1 - x)
                case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
                default: (sx, sy) = (w - 1 - y, x)
                }
                let from = src + (sy * w + sx) * bpp
                let to = dst + (y * outW + x) * bpp
                for c in 0..<bpp {
                    to[c] = from[c]
                }
            }
        }
        return withExtendedLifetime(storage) {
            MPImage(storage: target, bufferWidth: outW, bufferHeight: outH, format: bufferFormat,
                    orientation: orientation)
        }
    }
}

/// The text of a NUL-terminated C message buffer.
func cMessage(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

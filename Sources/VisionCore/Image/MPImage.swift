import Foundation
import VisionErrors

/// An image or video frame for the vision tasks, as `MPImage` of MediaPipe for iOS: decoded from a
/// JPEG or PNG file, or copied from raw pixels (the Linux stand-in for a `CVPixelBuffer`).
///
/// `width` and `height` are those of the upright image (the stored pixels turned by `orientation`);
/// task results are in the coordinates of the upright image.
public struct MPImage: Sendable {
    /// Width of the upright image, in pixels.
    public let width: Int
    /// Height of the upright image, in pixels.
    public let height: Int
    /// How the stored pixels are turned to show the image upright.
    public let orientation: ImageOrientation
    /// Layout of the stored pixels.
    public let bufferFormat: PixelFormat
    /// Width of the stored (not yet turned) pixels.
    public let bufferWidth: Int
    /// Height of the stored (not yet turned) pixels.
    public let bufferHeight: Int
    /// Bytes from one stored row to the next (`bufferWidth * bufferFormat.bytesPerPixel`).
    public var bufferBytesPerRow: Int { bufferWidth * bufferFormat.bytesPerPixel }

    let storage: PixelStorage

    /// Wraps stored pixels: `storage` holds `bufferHeight` compact rows of `format`.
    init(
        storage: PixelStorage, bufferWidth: Int, bufferHeight: Int, format: PixelFormat,
        orientation: ImageOrientation
    ) {
        self.storage = storage
        self.bufferWidth = bufferWidth
        self.bufferHeight = bufferHeight
        self.bufferFormat = format
        self.orientation = orientation
        if orientation.swapsWidthAndHeight {
            width = bufferHeight
            height = bufferWidth
        } else {
            width = bufferWidth
            height = bufferHeight
        }
    }

    /// Copies a raw frame: `height` rows of `width` pixels in `format`, `bytesPerRow` apart
    /// (at least `width * format.bytesPerPixel`).
    /// - Parameters:
    ///   - pixels: The frame's bytes, at least `(height - 1) * bytesPerRow + width * format.bytesPerPixel`.
    ///   - width: Width of the stored pixels, 1...65535.
    ///   - height: Height of the stored pixels, 1...65535.
    ///   - bytesPerRow: Bytes from one row's start to the next's.
    ///   - format: The pixels' layout.
    ///   - orientation: How to turn the stored pixels upright (`.up`: they are).
    /// - Throws: `VisionTasksError.invalidImage` for a zero, negative or too large size, a row stride
    ///   shorter than a row, a buffer too small for the frame, or pixel memory that cannot be allocated.
    public init(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
        format: PixelFormat, orientation: ImageOrientation = .up
    ) throws {
        guard width > 0, height > 0 else {
            throw VisionTasksError.invalidImage("raw frame: size \(width)x\(height) is empty or negative")
        }
        let (rowBytes, rowOverflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        guard !rowOverflow, width <= 65_535, height <= 65_535 else {
            throw VisionTasksError.invalidImage("raw frame: size \(width)x\(height) is too large")
        }
        guard bytesPerRow >= rowBytes else {
            throw VisionTasksError.invalidImage(
                "raw frame: bytesPerRow \(bytesPerRow) is less than one row of \(width) \(format) pixels (\(rowBytes) bytes)"
            )
        }
        // The bytes the frame spans: every stride but the last row's, then one row (nil: more than an Int counts).
        let (lastRowStart, strideOverflow) = (height - 1).multipliedReportingOverflow(by: bytesPerRow)
        let (span, spanOverflow) = lastRowStart.addingReportingOverflow(rowBytes)
        let needed: Int? = strideOverflow || spanOverflow ? nil : span
        guard let needed, pixels.count >= needed, let source = pixels.baseAddress else {
            throw VisionTasksError.invalidImage(
                "raw frame: \(pixels.count) bytes given, \(width)x\(height) \(format) with bytesPerRow \(bytesPerRow) needs \(needed.map { "\($0)" } ?? "more than \(Int.max)")"
            )
        }
        let storage = try PixelStorage(count: rowBytes * height, for: "raw frame")
        if bytesPerRow == rowBytes {
            storage.base.copyMemory(from: source, byteCount: rowBytes * height)
        } else {
            for y in 0..<height {
                (storage.base + y * rowBytes).copyMemory(from: source + y * bytesPerRow, byteCount: rowBytes)
            }
        }
        self.init(
            storage: storage, bufferWidth: width, bufferHeight: height, format: format,
            orientation: orientation)
    }

    /// An upright image of `format` whose compact rows `fill` writes in place, with no copy (a
    /// decoder reading straight into the image); nil when `fill` returns false (nothing was read).
    /// `fill` returns true only once it has written every byte (the memory is not cleared first). The
    /// buffer it gets runs `slack` bytes past the pixels, for a converter that may write beyond a row's end.
    package static func filling(
        width: Int, height: Int, format: PixelFormat, slack: Int = 0,
        _ fill: (UnsafeMutableRawBufferPointer) throws -> Bool
    ) throws -> MPImage? {
        guard width > 0, height > 0, width <= 65_535, height <= 65_535, slack >= 0 else {
            throw VisionTasksError.invalidImage("raw frame: size \(width)x\(height) is empty or too large")
        }
        let count = width * height * format.bytesPerPixel
        let storage = try PixelStorage(count: count, slack: slack, for: "raw frame")
        guard try fill(UnsafeMutableRawBufferPointer(start: storage.base, count: count + slack)) else { return nil }
        return MPImage(storage: storage, bufferWidth: width, bufferHeight: height, format: format, orientation: .up)
    }

    /// Copies a raw frame held in `Data`; see `init(pixels: UnsafeRawBufferPointer, ...)`.
    /// - Parameters:
    ///   - pixels: The frame's bytes.
    ///   - width: Width of the stored pixels, 1...65535.
    ///   - height: Height of the stored pixels, 1...65535.
    ///   - bytesPerRow: Bytes from one row's start to the next's.
    ///   - format: The pixels' layout.
    ///   - orientation: How to turn the stored pixels upright (`.up`: they are).
    /// - Throws: `VisionTasksError.invalidImage`, as `init(pixels: UnsafeRawBufferPointer, ...)` does.
    public init(
        pixels: Data, width: Int, height: Int, bytesPerRow: Int,
        format: PixelFormat, orientation: ImageOrientation = .up
    ) throws {
        self = try pixels.withUnsafeBytes {
            try MPImage(
                pixels: $0, width: width, height: height, bytesPerRow: bytesPerRow,
                format: format, orientation: orientation)
        }
    }

    /// Decodes a JPEG or PNG file within `decodingOptions`' limits. An EXIF orientation in a JPEG is applied
    /// to the pixels, as MediaPipe's `Image.create_from_file` does; `orientation` then describes the decoded pixels.
    /// - Parameters:
    ///   - path: The JPEG or PNG file.
    ///   - orientation: How to turn the decoded pixels upright (`.up`: they are).
    ///   - decodingOptions: The decoder's limits (the most pixels an image may declare).
    /// - Throws: `VisionTasksError.fileNotFound` or `.fileUnreadable` for the file; `.invalidImage("<path>:
    ///   <problem>")` for one that is empty, not JPEG or PNG, corrupt, of an unsupported channel count or over
    ///   `maxPixelCount`; `.invalidOption` for a `maxPixelCount` that is not positive.
    public init(
        contentsOfFile path: String, orientation: ImageOrientation = .up,
        decodingOptions: ImageDecodingOptions = ImageDecodingOptions()
    ) throws {
        self = try ImageDecoder.decodeFile(path, orientation: orientation, options: decodingOptions)
    }

    /// Decodes a JPEG or PNG file at a file URL; see `init(contentsOfFile:orientation:decodingOptions:)`.
    /// - Parameters:
    ///   - url: A `file:` URL of the JPEG or PNG file.
    ///   - orientation: How to turn the decoded pixels upright (`.up`: they are).
    ///   - decodingOptions: The decoder's limits (the most pixels an image may declare).
    /// - Throws: `VisionTasksError.invalidArgument` for a URL that is not a file URL; otherwise as
    ///   `init(contentsOfFile:orientation:decodingOptions:)` does.
    public init(
        contentsOf url: URL, orientation: ImageOrientation = .up,
        decodingOptions: ImageDecodingOptions = ImageDecodingOptions()
    ) throws {
        guard url.isFileURL else {
            throw VisionTasksError.invalidArgument("\(url): only file URLs can be read")
        }
        try self.init(contentsOfFile: url.path, orientation: orientation, decodingOptions: decodingOptions)
    }

    /// Decodes JPEG or PNG bytes held in memory within `decodingOptions`' limits; `name` is used in error messages.
    /// - Parameters:
    ///   - encodedData: The bytes of a JPEG or PNG file.
    ///   - name: What error messages call the bytes.
    ///   - orientation: How to turn the decoded pixels upright (`.up`: they are).
    ///   - decodingOptions: The decoder's limits (the most pixels an image may declare).
    /// - Throws: `VisionTasksError.invalidImage` naming the problem for bytes that are empty, not JPEG or PNG,
    ///   corrupt, of an unsupported channel count or over `maxPixelCount`; `.invalidOption` for a
    ///   `maxPixelCount` that is not positive.
    public init(
        encodedData: Data, name: String = "image data", orientation: ImageOrientation = .up,
        decodingOptions: ImageDecodingOptions = ImageDecodingOptions()
    ) throws {
        self = try ImageDecoder.decode(encodedData, name: name, orientation: orientation, options: decodingOptions)
    }

    /// Decodes JPEG or PNG bytes as a file's bytes are decoded: rearranging them as it goes (a PNG's
    /// IDAT chunks joined where they lie) and leaving them so when it succeeds, put back when it throws.
    /// For the image fuzz target, which compares it with `init(encodedData:)`.
    package init(
        rearrangingEncodedBytes bytes: UnsafeMutableRawBufferPointer, name: String,
        decodingOptions: ImageDecodingOptions
    ) throws {
        self = try ImageDecoder.decode(rearranging: bytes, name: name, orientation: .up, options: decodingOptions)
    }

    /// Gives read access to the stored pixels: `bufferHeight` compact rows of `bufferFormat`.
    public func withUnsafeBufferBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) {
            try body(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
        }
    }

    /// Throws `invalidImage` when `orientation` is mirrored, which the tasks do not support.
    /// - Throws: `VisionTasksError.invalidImage` for `.upMirrored`, `.downMirrored`, `.leftMirrored` or
    ///   `.rightMirrored`.
    public func checkOrientationSupported() throws {
        _ = try orientation.rotationDegrees()
    }
}

import TFLite

/// A copy of a picture with task results drawn over it, as MediaPipe's sample apps overlay them:
/// make one from the input image, draw one or more results, then take the pixels out.
public final class Annotation {
    let canvas: Canvas

    /// An annotation over `width`×`height` pixels of `channels` bytes (3: RGB, 4: RGBA), rows
    /// `rowBytes` apart (default: packed). Throws `VisionTasksError` if the buffer is too small.
    public init(pixels: [UInt8], width: Int, height: Int, channels: Int, rowBytes: Int? = nil) throws {
        canvas = try pixels.withUnsafeBytes {
            try Canvas(width: width, height: height, channels: channels, rowBytes: rowBytes ?? width * channels, bytes: $0)
        }
    }

    /// The width of the picture in pixels.
    public var width: Int { canvas.width }
    /// The height of the picture in pixels.
    public var height: Int { canvas.height }

    /// The annotated picture as packed RGB bytes, row by row.
    public func rgbPixels() -> [UInt8] { canvas.bytes(channels: 3) }

    /// The annotated picture as packed RGBA bytes (opaque), row by row.
    public func rgbaPixels() -> [UInt8] { canvas.bytes(channels: 4) }
}

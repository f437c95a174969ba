/// The layout of one pixel in a raw frame given to `MPImage(pixels:...)`: 8 bits per channel,
/// interleaved. The Linux stand-in for a `CVPixelBuffer`'s pixel format.
public enum PixelFormat: String, Sendable, Codable, CaseIterable {
    /// Red, green, blue, alpha (alpha is ignored, as MediaPipe ignores it).
    case rgba8
    /// Blue, green, red, alpha (`kCVPixelFormatType_32BGRA`; alpha is ignored).
    case bgra8
    /// Red, green, blue.
    case rgb8
    /// One gray level; tasks see it as red = green = blue.
    case gray8

    /// Bytes per pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .bgra8: return 4
        case .rgb8: return 3
        case .gray8: return 1
        }
    }

    /// Byte offsets of red, green and blue within a pixel.
    var rgbOffsets: (r: Int, g: Int, b: Int) {
        switch self {
        case .rgba8, .rgb8: return (0, 1, 2)
        case .bgra8: return (2, 1, 0)
        case .gray8: return (0, 0, 0)
        }
    }
}

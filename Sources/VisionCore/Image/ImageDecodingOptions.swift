/// Limits applied when an `MPImage` is decoded from a JPEG or PNG file or bytes.
public struct ImageDecodingOptions: Sendable, Equatable {
    /// The default `maxPixelCount`: 64 megapixels (64,000,000), four times a 4K×4K photo's pixels.
    public static let defaultMaxPixelCount = 64_000_000

    /// The most pixels (width × height) an image may declare; checked from the file's header before any
    /// pixel memory is allocated, so a tiny file claiming a huge image fails at once (`invalidImage`).
    public var maxPixelCount: Int

    /// Options with `maxPixelCount` pixels at most (default 64 megapixels).
    public init(maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount) {
        self.maxPixelCount = maxPixelCount
    }
}

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

    /// The largest file read for an image of at most `maxPixelCount` pixels, checked before it is read: 9 bytes a
    /// pixel (an uncompressed 16-bit RGBA PNG one pixel wide, its filter byte included) and 64 MiB of metadata, at most
    /// 2 GiB - 1 (what the decoders take). A larger file cannot hold such an image, and reading it whole cost its size
    /// in memory per thread (a sparse 1.9 GB "photo" took 2 GB of memory to be refused as truncated).
    public var largestFileBytes: Int {
        let (pixelBytes, overflow) = max(1, maxPixelCount).multipliedReportingOverflow(by: 9)
        return overflow ? Int(Int32.max) : min(Int(Int32.max), pixelBytes + 64 << 20)
    }
}

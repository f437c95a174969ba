// One frame as the task graphs see it. MediaPipe runs its graphs on the stored pixels with a
// rotation; our results are in the upright image. This is the one place that knows how the two
// frames differ, so no step elsewhere reads the image's orientation.

/// An image or video frame prepared once for a task graph: its timestamp, the upright size every
/// result is a fraction of, and the two facts about the stored pixels that MediaPipe's numbers depend on.
public struct FrameContext: Sendable {
    /// The image, upright through its orientation.
    public let image: MPImage
    /// The frame's timestamp (video and live stream; 0 for a still image): smoothing reads it.
    public let timestampInMilliseconds: Int
    /// The upright width in pixels.
    public let width: Int
    /// The upright height in pixels.
    public let height: Int
    /// The stored pixels are a quarter turn from upright: MediaPipe measures detection boxes there
    /// (see `rectFromDetection`).
    public let storedAxesSwapped: Bool
    /// The upright width over the stored width: MediaPipe leaves a landmark's z relative to the
    /// stored pixels' width, so z in upright units is multiplied by this to match it (1 when upright).
    public let zToStoredWidth: Float

    /// The timestamps, in milliseconds, that video and live-stream frames may carry: about ±126 years, so that
    /// Unix-epoch milliseconds fit and the trackers' nanoseconds (and their differences) fit in 64 bits.
    public static let timestampRange: ClosedRange<Int> = -4_000_000_000_000...4_000_000_000_000

    /// The context of `image`, taken at `timestampInMilliseconds`.
    public init(_ image: MPImage, timestampInMilliseconds: Int = 0) {
        self.image = image
        self.timestampInMilliseconds = timestampInMilliseconds
        width = image.width
        height = image.height
        storedAxesSwapped = image.orientation.swapsWidthAndHeight
        zToStoredWidth = Float(image.width) / Float(image.bufferWidth)
    }
}

/// How a task is fed: single images, the frames of a video, or a live stream.
public enum RunningMode: Sendable, Equatable, CustomStringConvertible {
    /// Independent still images: `detect(image:)`.
    case image
    /// Decoded video frames in timestamp order: `detect(videoFrame:timestampInMilliseconds:)`,
    /// with tracking between frames.
    case video
    /// A live source: `detectAsync(image:timestampInMilliseconds:)`, results delivered to a delegate.
    case liveStream

    /// The mode's name as MediaPipe spells it.
    public var description: String {
        switch self {
        case .image: return "IMAGE"
        case .video: return "VIDEO"
        case .liveStream: return "LIVE_STREAM"
        }
    }
}

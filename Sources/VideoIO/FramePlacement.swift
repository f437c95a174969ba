/// Places frames on a constant-rate video by their timestamps, so that it plays in the source's time: a frame is
/// held (written again) until the next one's time comes, and a frame that comes before the next slot is left out.
/// A variable-rate source, frames a live run dropped and `--every` all keep their time this way, where writing each
/// frame once at a fixed rate sped parts of the video up or slowed them down. A hold longer than
/// `longestHoldSeconds` is shortened to it (a file's clock jumping hours ahead would have its frame written for
/// hours), and counted.
public struct FramePlacement: Sendable, Equatable {
    /// The longest a frame is held: a longer gap between two frames' timestamps is shortened to this.
    public static let longestHoldSeconds = 60.0

    /// The video's rate, frames per second.
    public let framesPerSecond: Double
    /// Gaps between frames shortened to `longestHoldSeconds` so far.
    public private(set) var shortenedGaps = 0
    private var first: Int?
    private var lastSlot = -1
    private var skippedSlots = 0

    /// Places frames on a video of `framesPerSecond` (above 0).
    public init(framesPerSecond: Double) {
        self.framesPerSecond = framesPerSecond
    }

    /// Where the frame at `timestampInMilliseconds` goes: how many more times the frame before it is written first
    /// (its hold), and whether this frame is written at all (not when its slot is taken: a frame denser than the
    /// rate, a repeated or a backward timestamp). The first frame is at slot 0.
    public mutating func place(timestampInMilliseconds timestamp: Int) -> (repeatsOfPrevious: Int, write: Bool) {
        let first = self.first ?? timestamp
        self.first = first
        // Bounded before it becomes an Int: a hostile file's timestamps may be any Int.
        let exact = ((Double(timestamp) - Double(first)) * framesPerSecond / 1000).rounded()
        var slot = Int(min(max(exact, -1e15), 1e15)) - skippedSlots
        guard slot > lastSlot else { return (0, false) }
        let longest = max(1, Int((Self.longestHoldSeconds * framesPerSecond).rounded()))
        if lastSlot >= 0, slot - lastSlot > longest {
            skippedSlots += slot - lastSlot - longest
            slot = lastSlot + longest
            shortenedGaps += 1
        }
        let repeats = lastSlot >= 0 ? slot - lastSlot - 1 : 0
        lastSlot = slot
        return (repeats, true)
    }
}

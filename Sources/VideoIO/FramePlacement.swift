/// Places frames on a constant-rate video by their timestamps, so that it plays in the source's time: a frame is
/// held (written again) until the next one's time comes, and a frame that comes before the next slot is left out.
/// A variable-rate source, frames a live run dropped and `--every` all keep their time this way, where writing each
/// frame once at a fixed rate sped parts of the video up or slowed them down. Bounded against a file's clock: a hold
/// longer than `longestHoldSeconds` is shortened to it, the holds of a whole video add up to at most
/// `longestTotalHoldSeconds` (then frames are written once each), and a clock that goes back (a joined stream) goes
/// on from the frame before; each is counted.
public struct FramePlacement: Sendable {
    /// The longest a frame is held: a longer gap between two frames' timestamps is shortened to this.
    public static let longestHoldSeconds = 60.0
    /// The most time the holds of one video add up to, counted at 60 fps at most (216,000 repeated frames): a file of
    /// many frames a minute apart would otherwise have the encoder write for days.
    public static let longestTotalHoldSeconds = 3600.0

    /// The video's rate, frames per second.
    public let framesPerSecond: Double
    /// Gaps between frames shortened to `longestHoldSeconds`, or cut once the holds reached
    /// `longestTotalHoldSeconds`, so far.
    public private(set) var shortenedGaps = 0
    /// Times the source's clock went back, and the frames went on from the frame before.
    public private(set) var restarts = 0
    /// Where the clock was last anchored: a timestamp and its slot.
    private var anchor: (timestamp: Int, slot: Int)?
    private var lastTimestamp = Int.min
    private var lastSlot = -1
    private var heldSlots = 0

    /// Places frames on a video of `framesPerSecond` (above 0).
    public init(framesPerSecond: Double) {
        self.framesPerSecond = framesPerSecond
    }

    /// Where the frame at `timestampInMilliseconds` goes: how many more times the frame before it is written first
    /// (its hold), and whether this frame is written at all (not when its slot is taken: a frame denser than the
    /// rate, or a repeated timestamp). The first frame is at slot 0; a frame earlier than the one before restarts the
    /// clock in the next slot.
    public mutating func place(timestampInMilliseconds timestamp: Int) -> (repeatsOfPrevious: Int, write: Bool) {
        defer { lastTimestamp = timestamp }
        guard let anchor, timestamp >= lastTimestamp else {
            if anchor != nil { restarts += 1 }
            return start(at: timestamp, slot: lastSlot + 1)
        }
        // Bounded before it becomes an Int: a hostile file's timestamps may be any Int.
        let exact = ((Double(timestamp) - Double(anchor.timestamp)) * framesPerSecond / 1000).rounded()
        let slot = anchor.slot + Int(min(exact, 1e15))
        guard slot > lastSlot else { return (0, false) }
        let longest = max(1, Int((Self.longestHoldSeconds * framesPerSecond).rounded()))
        let budget = max(0, Int((Self.longestTotalHoldSeconds * min(framesPerSecond, 60)).rounded()) - heldSlots)
        let hold = min(slot - lastSlot - 1, longest - 1, budget)
        if hold < slot - lastSlot - 1 {
            shortenedGaps += 1
            return start(at: timestamp, slot: lastSlot + hold + 1, repeats: hold)
        }
        heldSlots += hold
        lastSlot = slot
        return (hold, true)
    }

    /// Anchors the clock: the frame at `timestamp` goes in `slot`, after `repeats` of the one before.
    private mutating func start(at timestamp: Int, slot: Int, repeats: Int = 0) -> (repeatsOfPrevious: Int, write: Bool)
    {
        anchor = (timestamp, slot)
        heldSlots += repeats
        lastSlot = slot
        return (repeats, true)
    }
}

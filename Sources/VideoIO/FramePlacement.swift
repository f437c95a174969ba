import Dispatch

/// Places frames on a constant-rate video by their timestamps, so that it plays in the source's time: a frame is
/// held (written again) until the next one's time comes, and a frame that comes before the next slot is left out.
/// A variable-rate source, frames a live run dropped and `--every` all keep their time this way, where writing each
/// frame once at a fixed rate sped parts of the video up or slowed them down. Bounded against a file's clock: a hold
/// longer than `longestHoldSeconds` is shortened to it; holds up to `ordinaryHoldSeconds` are always kept, and what
/// longer ones add beyond it comes out of `longHoldBudgetSeconds` a video (then they are cut to
/// `ordinaryHoldSeconds`); a clock that goes back (a joined stream) goes on from the frame before; and in a live run
/// (`wallClock`) a hold is at most the wall time that passed. Each is counted.
public struct FramePlacement: Sendable {
    /// The longest a frame is held: a longer gap between two frames' timestamps is shortened to this.
    public static let longestHoldSeconds = 60.0
    /// Holds up to this long (a variable rate, dropped frames, `--every`, a time-lapse) are never cut by the budget
    /// (counted at `countedRate`).
    public static let ordinaryHoldSeconds = 10.0
    /// The most time holds longer than `ordinaryHoldSeconds` may add beyond it in one video: a small file of many
    /// frames a minute apart would otherwise have the encoder write for days.
    public static let longHoldBudgetSeconds = 600.0
    /// The rate `ordinaryHoldSeconds` and `longHoldBudgetSeconds` are counted at, at most (so at most 600 free repeats a
    /// frame, and 36,000 more a video, whatever rate a file claims).
    static let countedRate = 60.0

    /// The video's rate, frames per second.
    public let framesPerSecond: Double
    /// Gaps between frames shortened to `longestHoldSeconds`, or to `ordinaryHoldSeconds` once
    /// `longHoldBudgetSeconds` was spent, so far.
    public private(set) var shortenedGaps = 0
    /// Times the source's clock went back, and the frames went on from the frame before.
    public private(set) var restarts = 0
    /// Where the clock was last anchored: a timestamp and its slot.
    private var anchor: (timestamp: Int, slot: Int)?
    private var lastTimestamp = Int.min
    private var lastSlot = -1
    /// Holds cut to the wall time that passed since the frame before (and a second), so far: jumps ahead in a live
    /// source's clock (`wallClock`).
    public private(set) var clockJumps = 0
    /// Slots of holds beyond `ordinaryHoldSeconds` so far (spent of `longHoldBudgetSeconds`).
    private var longSlots = 0
    /// A live run's monotonic clock, in seconds (nil: a file's frames, which come as fast as they are decoded).
    private let wallClock: (@Sendable () -> Double)?
    /// The wall time the last frame was placed at (`wallClock`).
    private var lastWall: Double?

    /// Places frames on a video of `framesPerSecond` (above 0). `wallClock`, for a live source: its monotonic clock in
    /// seconds; a frame is then held at most the wall time until the next one and a second (a jump ahead in a camera's
    /// or a stream's clock would otherwise hold one frame for a minute).
    public init(framesPerSecond: Double, wallClock: (@Sendable () -> Double)? = nil) {
        self.framesPerSecond = framesPerSecond
        self.wallClock = wallClock
    }

    /// The monotonic clock in seconds, for `wallClock`.
    public static let monotonicSeconds: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Where the frame at `timestampInMilliseconds` goes: how many more times the frame before it is written first
    /// (its hold), and whether this frame is written at all (not when its slot is taken: a frame denser than the
    /// rate, or a repeated timestamp). The first frame is at slot 0; a frame earlier than the one before restarts the
    /// clock in the next slot.
    public mutating func place(timestampInMilliseconds timestamp: Int) -> (repeatsOfPrevious: Int, write: Bool) {
        let now = wallClock?()
        let previousWall = lastWall
        defer { (lastTimestamp, lastWall) = (timestamp, now) }
        guard let anchor, timestamp >= lastTimestamp else {
            if anchor != nil { restarts += 1 }
            return start(at: timestamp, slot: lastSlot + 1)
        }
        // Bounded before it becomes an Int: a hostile file's timestamps may be any Int.
        let exact = ((Double(timestamp) - Double(anchor.timestamp)) * framesPerSecond / 1000).rounded()
        let slot = anchor.slot + Int(min(exact, 1e15))
        guard slot > lastSlot else { return (0, false) }
        let needed = slot - lastSlot - 1
        let longest = max(1, Int((Self.longestHoldSeconds * framesPerSecond).rounded())) - 1
        // Counted at 60 fps at most: a file claiming 1000 fps would otherwise earn 10,000 free repeats a frame.
        let counted = min(framesPerSecond, Self.countedRate)
        let ordinary = max(1, Int((Self.ordinaryHoldSeconds * counted).rounded())) - 1
        let budget = max(0, Int((Self.longHoldBudgetSeconds * counted).rounded()) - longSlots)
        let bounded = min(needed, longest, ordinary + budget)
        // The frame before is written once already: the wall time and a second allow that many writes in all.
        var hold = bounded
        if let now, let previousWall {
            hold = min(hold, Int(min(((now - previousWall + 1) * framesPerSecond).rounded(.up), 1e15)) - 1)
        }
        longSlots += max(0, hold - ordinary)
        if hold < needed {
            if hold < bounded { clockJumps += 1 } else { shortenedGaps += 1 }
            return start(at: timestamp, slot: lastSlot + hold + 1, repeats: hold)
        }
        lastSlot = slot
        return (hold, true)
    }

    /// Anchors the clock: the frame at `timestamp` goes in `slot`, after `repeats` of the one before.
    private mutating func start(at timestamp: Int, slot: Int, repeats: Int = 0) -> (repeatsOfPrevious: Int, write: Bool)
    {
        anchor = (timestamp, slot)
        lastSlot = slot
        return (repeats, true)
    }
}

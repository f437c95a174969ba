// The static memory plan: every run-time tensor gets an offset in one arena. Tensors whose
// lifetimes do not overlap share space (greedy by size, as TFLite's arena planner does);
// graph inputs and outputs live for the whole run so their buffers stay stable.
//
// A tensor that reuses space is centred where an earlier one was centred, when it fits there: split
// kernels deal the first half of a tensor to the calling thread and the second to the worker, so each
// core then writes memory it wrote before. Placed from the start instead, a smaller tensor's second
// half lands in the first half of the larger one, and the worker's writes pull those lines out of the
// caller's cache. Where a line takes ~300 ns to cross between cores (this VM when its two vCPUs sit on
// different core complexes), face_landmarks_detector ran at two threads 19% faster with no reuse at all
// than with reuse from the start, though 20% slower where a line crosses in ~60 ns (its tensors no
// longer fit the caches); centred, it runs 3.11 -> 2.56 ms there (hand_landmarks_detector 6.07 -> 5.55,
// pose_detector 7.84 -> 7.33) and 1-2% faster at ~60 ns, the arena within 0.6 MB of before.
//
// Centring is not enough where lines cross dearly: at ~320 ns, five detector and landmark models ran 11-19%
// faster at two threads with no reuse at all (each tensor's lines written by one operator a call), though
// 12-26% slower at ~60 ns. So a plan over several threads separates the buffers when the line round trip
// measured at start-up is dear (`HandoffCost.separatesBuffers`), within `separateLimit`.

/// One buffer to place: its size in floats and the span of steps it must survive.
struct BufferRequest: Equatable {
    var count: Int
    /// First step that writes it (-1 for graph inputs).
    var firstStep: Int
    /// Last step that reads it (`Int.max` for buffers that must live throughout).
    var lastStep: Int
}

/// Offsets (in floats) of each requested buffer, and the arena size they need.
struct MemoryPlan: Equatable {
    /// Offsets, in the order of the requests; each is a multiple of `alignment`.
    var offsets: [Int]
    var arenaCount: Int
    /// Whether every buffer got its own space (asked for, and within `separateLimit`).
    var separate = false

    /// Floats per alignment unit (64 bytes).
    static let alignment = 16
    /// The centres (the largest tensors' first) a tensor is tried at before it goes to the first free space:
    /// a bound, so that a model of many tensors alive together plans in time proportional to first fit's.
    static let centresTried = 16

    /// The most floats (64 MB) a plan of separate buffers may take; above it, buffers are reused anyway.
    static let separateLimit = 16 << 20

    /// Places `requests`: each in its own space, one after the other, when `separate` and they fit
    /// `separateLimit` in all (a tensor's lines are then written by one operator only: where lines cross
    /// between cores dearly, at ~320 ns, five models ran 11-19% faster at two threads than with reuse); else
    /// reusing dead buffers' space, centred as the file's header says.
    init(_ requests: [BufferRequest], separate: Bool = false) {
        let rounded = requests.map { ($0.count + Self.alignment - 1) / Self.alignment * Self.alignment }
        if separate, rounded.reduce(0, +) <= Self.separateLimit {
            var end = 0
            offsets = rounded.map { size in
                defer { end += size }
                return end
            }
            arenaCount = end
            self.separate = true
            return
        }
        // Largest first; ties by earlier start, then index, so plans are deterministic.
        let order = requests.indices.sorted {
            (rounded[$0], -requests[$0].firstStep, -$0) > (rounded[$1], -requests[$1].firstStep, -$1)
        }
        // Kept in order of offset, so the buffers alive beside a request come out in that order too.
        var placed: [(offset: Int, end: Int, request: BufferRequest)] = []
        var offsets = [Int](repeating: 0, count: requests.count)
        var arena = 0
        // The centres of the space placed so far (in floats from the arena's start, a multiple of the alignment).
        var centres: [Int] = []
        for i in order {
            let r = requests[i], size = rounded[i]
            let live = placed.filter { $0.request.firstStep <= r.lastStep && r.firstStep <= $0.request.lastStep }
            func fits(_ offset: Int) -> Bool {
                guard offset >= 0 && offset + size <= arena else { return false }
                for p in live {
                    if p.offset >= offset + size { return true }
                    if offset < p.end { return false }
                }
                return true
            }
            let half = size / 2 / Self.alignment * Self.alignment
            var candidate: Int
            if let centre = centres.prefix(Self.centresTried).first(where: { fits($0 - half) }) {
                candidate = centre - half
            } else {
                candidate = 0
                for p in live {
                    if candidate + size <= p.offset { break }
                    candidate = max(candidate, p.end)
                }
                centres.append(candidate + half)
            }
            offsets[i] = candidate
            var low = 0, high = placed.count
            while low < high {
                let mid = (low + high) / 2
                if placed[mid].offset <= candidate { low = mid + 1 } else { high = mid }
            }
            placed.insert((candidate, candidate + size, r), at: low)
            arena = max(arena, candidate + size)
        }
        self.offsets = offsets
        arenaCount = arena
    }
}

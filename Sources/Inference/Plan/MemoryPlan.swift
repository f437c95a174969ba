// The static memory plan: every run-time tensor gets an offset in one arena. Tensors whose
// lifetimes do not overlap share space (greedy by size, as TFLite's arena planner does);
// graph inputs and outputs live for the whole run so their buffers stay stable.

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

    /// Floats per alignment unit (64 bytes).
    static let alignment = 16

    init(_ requests: [BufferRequest]) {
        let rounded = requests.map { ($0.count + Self.alignment - 1) / Self.alignment * Self.alignment }
        // Largest first; ties by earlier start, then index, so plans are deterministic.
        let order = requests.indices.sorted {
            (rounded[$0], -requests[$0].firstStep, -$0) > (rounded[$1], -requests[$1].firstStep, -$1)
        }
        var placed: [(offset: Int, end: Int, request: BufferRequest)] = []
        var offsets = [Int](repeating: 0, count: requests.count)
        var arena = 0
        for i in order {
            let r = requests[i]
            let live = placed.filter { $0.request.firstStep <= r.lastStep && r.firstStep <= $0.request.lastStep }
                .sorted { $0.offset < $1.offset }
            var candidate = 0
            for p in live {
                if candidate + rounded[i] <= p.offset { break }
                candidate = max(candidate, p.end)
            }
            offsets[i] = candidate
            placed.append((candidate, candidate + rounded[i], r))
            arena = max(arena, candidate + rounded[i])
        }
        self.offsets = offsets
        arenaCount = arena
    }
}

import VisionCore

/// Tracking ids for a detector that runs afresh on every frame (the Face Detector in video and live
/// stream): a detection whose box overlaps a box of the previous frame by an IoU above `minOverlap`
/// keeps that box's id, the largest overlaps paired first, each previous box at most once; any other
/// detection takes the next unused id. Ids count from 0; `reset()` starts them over.
///
/// Not thread-safe: it holds the previous frame's boxes; callers serialize use (the task runner does).
package struct DetectionIds {
    private let minOverlap: Float
    /// The previous frame's boxes and their ids.
    private var previous: [(rect: NormalizedRect, id: Int)] = []
    /// The id the next new detection takes.
    private var nextId = 0

    /// Ids for detections that are the same object when their boxes overlap by more than `minOverlap`.
    package init(minOverlap: Float) {
        self.minOverlap = minOverlap
    }

    /// Forgets the previous frame, so the next frame's detections take new ids from 0.
    package mutating func reset() {
        previous = []
        nextId = 0
    }

    /// The ids of this frame's boxes, in their order; remembers the boxes for the next frame.
    package mutating func ids(for rects: [NormalizedRect]) -> [Int] {
        var pairs: [(current: Int, previous: Int, overlap: Float)] = []
        for (i, rect) in rects.enumerated() {
            for (j, old) in previous.enumerated() {
                let overlap = intersectionOverUnion(rect, old.rect)
                if overlap > minOverlap { pairs.append((i, j, overlap)) }
            }
        }
        // Largest overlap first; ties in index order, so the pairing does not depend on the sort.
        pairs.sort { ($0.overlap, $1.current, $1.previous) > ($1.overlap, $0.current, $0.previous) }
        var ids = [Int?](repeating: nil, count: rects.count)
        var taken = Set<Int>()
        for pair in pairs where ids[pair.current] == nil && !taken.contains(pair.previous) {
            ids[pair.current] = previous[pair.previous].id
            taken.insert(pair.previous)
        }
        let assigned = ids.map { id -> Int in
            if let id { return id }
            defer { nextId += 1 }
            return nextId
        }
        previous = Array(zip(rects, assigned))
        return assigned
    }
}

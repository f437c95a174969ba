import VisionCore

/// MediaPipe's tracking loop, shared by the face and hand landmarkers: in video and live-stream
/// mode the detector runs only while fewer than `maxCount` objects are tracked, its rects are
/// associated with the rects the previous frame's landmarks gave, and each object found in this
/// frame gives the next frame's rect. In image mode every frame is detected afresh.
///
/// Not thread-safe: it holds the tracked rects; callers serialize use (the task runner does).
package struct TrackedRects {
    /// How detected rects are merged with tracked ones (the graph's association calculator).
    package typealias Association = (_ tracked: [NormalizedRect], _ detected: [NormalizedRect]) -> [NormalizedRect]

    private let maxCount: Int
    private let tracks: Bool
    private let associate: Association
    /// The rects the previous frame's objects give for this frame (video and live stream).
    private var tracked: [NormalizedRect] = []

    /// A loop over at most `maxCount` objects; `tracks` for video and live stream.
    package init(maxCount: Int, tracks: Bool, associate: @escaping Association) {
        self.maxCount = maxCount
        self.tracks = tracks
        self.associate = associate
    }

    /// Forgets the tracked rects, so the next frame starts a new stream with detection.
    package mutating func reset() {
        tracked = []
    }

    /// One frame: the rects to look at (the detector's best `maxCount`, detected only while fewer
    /// than `maxCount` are tracked, associated with the tracked ones and again at most `maxCount`)
    /// → `observe` on them all (an entry per rect, nil: nothing there; the rects are independent,
    /// so it may look at several at once) → `deduplicate` → the next frame's rects from `nextRect`
    /// (nil: the object is not tracked further).
    package mutating func process<Object>(detect: () throws -> [NormalizedRect],
                                          observe: ([NormalizedRect]) throws -> [Object?],
                                          deduplicate: ([Object]) -> [Object] = { $0 },
                                          nextRect: (Object) -> NormalizedRect?) rethrows -> [Object] {
        let detected = tracks && tracked.count >= maxCount ? [] : Array(try detect().prefix(maxCount))
        let rects = tracks ? Array(associate(tracked, detected).prefix(maxCount)) : detected
        let objects = deduplicate(try observe(rects).compactMap { $0 })
        if tracks { tracked = objects.compactMap(nextRect) }
        return objects
    }
}

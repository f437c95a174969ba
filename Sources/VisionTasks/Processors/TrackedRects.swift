import VisionCore

/// MediaPipe's tracking loop, shared by the face and hand landmarkers: in video and live-stream
/// mode the detector runs only while fewer than `maxCount` objects are tracked, its rects are
/// associated with the rects the previous frame's objects gave, and each object found in this
/// frame gives the next frame's rect. In image mode every frame is detected afresh.
///
/// Tracking ids (video and live stream): an object keeps the id of the tracked rect it continues (a
/// detection replacing a tracked rect continues it); an object that appears, or reappears after
/// being lost, takes the next unused id. Ids count from 0; `reset()` starts them over. There is no
/// re-identification by appearance.
///
/// Not thread-safe: it holds the tracked rects; callers serialize use (the task runner does).
package struct TrackedRects {
    /// How detected rects are merged with tracked ones (the graph's association calculator).
    package typealias Association = (_ tracked: [NormalizedRect], _ detected: [NormalizedRect]) -> [AssociatedRect]

    private let maxCount: Int
    private let tracks: Bool
    private let clipsDetections: Bool
    private let associate: Association
    /// The rects the previous frame's objects give for this frame, with their ids (video and live stream).
    private var tracked: [(rect: NormalizedRect, id: Int)] = []
    /// The id the next new object takes.
    private var nextId = 0

    /// A loop over at most `maxCount` objects; `tracks` for video and live stream. `clipsDetections`:
    /// the detector's rects are cut to `maxCount` before the association (the face and hand graphs);
    /// otherwise all of them are associated and only the result is cut (the pose graph).
    package init(maxCount: Int, tracks: Bool, clipsDetections: Bool = true, associate: @escaping Association) {
        self.maxCount = maxCount
        self.tracks = tracks
        self.clipsDetections = clipsDetections
        self.associate = associate
    }

    /// Whether `rect` can be looked at in the next frame: finite, with an area.
    static func trackable(_ rect: NormalizedRect) -> Bool {
        [rect.xCenter, rect.yCenter, rect.width, rect.height, rect.rotation].allSatisfy(\.isFinite)
            && rect.width > 0 && rect.height > 0
    }

    /// Forgets the tracked rects, so the next frame starts a new stream with detection and ids from 0.
    package mutating func reset() {
        tracked = []
        nextId = 0
    }

    /// One frame: the rects to look at (the detector's rects, its best `maxCount` when it clips,
    /// detected only while fewer than `maxCount` are tracked, associated with the tracked ones and at
    /// most `maxCount`)
    /// → `observe` on them all (an entry per rect, nil: nothing there; the rects are independent,
    /// so it may look at several at once) → the objects `duplicates` names dropped → the next
    /// frame's rects from `nextRect` (nil: the object is not tracked further; nor is it when the rect is not finite
    /// or has no area, a model gone wrong: the detector then looks again). When `observe` throws, nothing stays
    /// tracked, so that one bad rect fails one frame, not every frame after it.
    ///
    /// Returns the objects with their ids: in image mode in the detector's order with no ids; in
    /// video and live stream ordered by id (the order they appeared in), so the order does not flip
    /// from frame to frame.
    package mutating func process<Object>(
        detect: () throws -> [NormalizedRect],
        observe: ([NormalizedRect]) throws -> [Object?],
        duplicates: ([Object]) -> Set<Int> = { _ in [] },
        nextRect: (Object) -> NormalizedRect?
    ) rethrows -> [(object: Object, id: Int?)] {
        let all = tracks && tracked.count >= maxCount ? [] : try detect()
        let detected = clipsDetections ? Array(all.prefix(maxCount)) : all
        guard tracks else {
            let objects = try observe(Array(detected.prefix(maxCount))).compactMap { $0 }
            let dropped = duplicates(objects)
            return objects.indices.filter { !dropped.contains($0) }.map { (objects[$0], nil) }
        }
        let rects = Array(associate(tracked.map(\.rect), detected).prefix(maxCount))
        let observed: [Object?]
        do {
            observed = try observe(rects.map(\.rect))
        } catch {
            tracked = []
            throw error
        }
        let found = zip(observed, rects).compactMap { object, rect in
            object.map { (object: $0, trackedIndex: rect.trackedIndex) }
        }
        let dropped = duplicates(found.map(\.object))
        var objects: [(object: Object, id: Int)] = []
        for (i, entry) in found.enumerated() where !dropped.contains(i) {
            if let index = entry.trackedIndex {
                objects.append((entry.object, tracked[index].id))
            } else {
                objects.append((entry.object, nextId))
                nextId += 1
            }
        }
        tracked = objects.compactMap { object, id in nextRect(object).flatMap { Self.trackable($0) ? ($0, id) : nil } }
        return objects.sorted { $0.id < $1.id }.map { ($0.object, $0.id) }
    }
}

// MediaPipe's AssociationNormRectCalculator: merges the rects tracked from the previous frame with
// freshly detected ones, dropping any earlier rect that overlaps a later one too much.

/// Intersection over union of two unrotated rects given by centre and size (rotation ignored, as
/// MediaPipe ignores it); 0 when they do not touch.
public func intersectionOverUnion(_ a: NormalizedRect, _ b: NormalizedRect) -> Float {
    let ax0 = a.xCenter - a.width / 2, ay0 = a.yCenter - a.height / 2
    let bx0 = b.xCenter - b.width / 2, by0 = b.yCenter - b.height / 2
    let ax1 = ax0 + a.width, ay1 = ay0 + a.height
    let bx1 = bx0 + b.width, by1 = by0 + b.height
    let aEmpty = ax0 > ax1 || ay0 > ay1, bEmpty = bx0 > bx1 || by0 > by1
    if aEmpty || bEmpty || bx1 < ax0 || ax1 < bx0 || by1 < ay0 || ay1 < by0 { return 0 }
    let ix0 = max(ax0, bx0), iy0 = max(ay0, by0), ix1 = min(ax1, bx1), iy1 = min(ay1, by1)
    let intersection = (ix1 - ix0) * (iy1 - iy0)
    let union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - intersection
    return union > 0 ? intersection / union : 0
}

/// A rect an association kept, and the tracked rect it continues: the tracked rect itself, or the
/// tracked rect a detection replaced (nil: a new object).
public struct AssociatedRect: Equatable, Sendable {
    /// The rect to look at.
    public var rect: NormalizedRect
    /// The index, in the tracked rects, of the object this rect continues; nil for a new object.
    public var trackedIndex: Int?

    /// A kept rect continuing tracked rect `trackedIndex` (nil: a new object).
    public init(_ rect: NormalizedRect, trackedIndex: Int?) {
        self.rect = rect
        self.trackedIndex = trackedIndex
    }
}

/// Merges the rects tracked from the previous frame with the detector's, as MediaPipe's
/// AssociationNormRectCalculator does (tracked first, then detected, in order): each rect removes
/// every rect already kept whose IoU with it exceeds `minSimilarityThreshold`, and is appended
/// after the survivors. A rect that removes kept rects continues the first of them that continues
/// a tracked rect; a tracked rect continues itself.
public func associateRects(
    tracked: [NormalizedRect], detected: [NormalizedRect],
    minSimilarityThreshold: Float
) -> [AssociatedRect] {
    var kept: [AssociatedRect] = []
    let all =
        tracked.enumerated().map { AssociatedRect($0.element, trackedIndex: $0.offset) }
        + detected.map { AssociatedRect($0, trackedIndex: nil) }
    for var rect in all {
        let removed = kept.filter { intersectionOverUnion(rect.rect, $0.rect) > minSimilarityThreshold }
        if !removed.isEmpty {
            kept.removeAll { intersectionOverUnion(rect.rect, $0.rect) > minSimilarityThreshold }
            if rect.trackedIndex == nil { rect.trackedIndex = removed.lazy.compactMap(\.trackedIndex).first }
        }
        kept.append(rect)
    }
    return kept
}

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

/// Merges lists of rects in order (e.g. the rects tracked from the previous frame, then the
/// detector's): each rect removes every rect already kept whose IoU with it exceeds
/// `minSimilarityThreshold`, and is appended after the survivors.
public func associateRects(_ lists: [[NormalizedRect]], minSimilarityThreshold: Float) -> [NormalizedRect] {
    var kept: [NormalizedRect] = []
    var first = true
    for list in lists where !list.isEmpty {
        for (i, rect) in list.enumerated() {
            if first && i == 0 {
                kept.append(rect)
                continue
            }
            kept.removeAll { intersectionOverUnion(rect, $0) > minSimilarityThreshold }
            kept.append(rect)
        }
        first = false
    }
    return kept
}

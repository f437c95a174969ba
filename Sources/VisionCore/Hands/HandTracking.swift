import Foundation

// Tracking between frames in MediaPipe's hand landmarker graph: which ROIs go to the landmark model
// (HandAssociationCalculator) and which hands are the same hand found twice
// (HandLandmarksDeduplicationCalculator).

/// Merges the ROIs tracked from the previous frame with newly detected ones, as MediaPipe's
/// `HandAssociationCalculator` does: every tracked rect is kept, in order, continuing itself; a
/// detected rect is appended as a new hand unless its IoU (rotation ignored) with a rect already
/// kept exceeds `minSimilarityThreshold` (the task's `minTrackingConfidence`).
public func associateHandRects(
    tracked: [NormalizedRect], detected: [NormalizedRect],
    minSimilarityThreshold: Float
) -> [AssociatedRect] {
    var result = tracked.enumerated().map { AssociatedRect($0.element, trackedIndex: $0.offset) }
    for rect in detected {
        let overlaps = result.contains { intersectionOverUnion($0.rect, rect) > minSimilarityThreshold }
        if !overlaps { result.append(AssociatedRect(rect, trackedIndex: nil)) }
    }
    return result
}

/// Finds hands found twice, as MediaPipe's `HandLandmarksDeduplicationCalculator` does, and returns
/// the indices to drop. Hands are visited in order; a hand is dropped when, against some hand
/// already kept, at least 10 of its 21 landmarks lie closer (in pixels) than 0.2 × the larger of
/// the two hands' baseline sizes and the IoU of their landmark boxes exceeds 0.2. The baseline size
/// is the longest side of the wrist / index MCP / pinky MCP triangle.
public func duplicateHandIndices(_ hands: [[SIMD3<Float>]], imageWidth: Int, imageHeight: Int) -> Set<Int> {
    let w = Float(imageWidth), h = Float(imageHeight)
    func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let dx = Double((a.x - b.x) * w), dy = Double((a.y - b.y) * h)
        return Float((dx * dx + dy * dy).squareRoot())
    }
    func baseline(_ hand: [SIMD3<Float>]) -> Float {
        guard hand.count > 17 else { return 0 }
        return max(distance(hand[0], hand[5]), distance(hand[5], hand[17]), distance(hand[17], hand[0]))
    }
    func bounds(_ hand: [SIMD3<Float>]) -> (left: Float, top: Float, right: Float, bottom: Float) {
        let b = VisionCore.bounds(of: hand, maximaStart: -.greatestFiniteMagnitude)
        return (b.xMin, b.yMin, b.xMax, b.yMax)
    }
    func iou(
        _ a: (left: Float, top: Float, right: Float, bottom: Float),
        _ b: (left: Float, top: Float, right: Float, bottom: Float)
    ) -> Float {
        let areaA = (a.right - a.left) * (a.bottom - a.top)
        let areaB = (b.right - b.left) * (b.bottom - b.top)
        if areaA <= 0 || areaB <= 0 { return 0 }
        let inter =
            max(min(a.bottom, b.bottom) - max(a.top, b.top), 0) * max(min(a.right, b.right) - max(a.left, b.left), 0)
        return inter / (areaA + areaB - inter)
    }

    let baselines = hands.map(baseline)
    let boxes = hands.map(bounds)
    var kept: [Int] = []
    var dropped = Set<Int>()
    for i in hands.indices {
        let isDuplicate = kept.contains { j in
            guard hands[i].count == hands[j].count else { return false }
            let threshold = max(baselines[i], baselines[j]) * 0.2
            let matched = zip(hands[i], hands[j]).reduce(0) { $0 + (distance($1.0, $1.1) < threshold ? 1 : 0) }
            return matched >= 10 && iou(boxes[i], boxes[j]) > 0.2
        }
        if isDuplicate { dropped.insert(i) } else { kept.append(i) }
    }
    return dropped
}

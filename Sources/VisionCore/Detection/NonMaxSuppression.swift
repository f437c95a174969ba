/// Intersection over union of two relative boxes, as MediaPipe's `NonMaxSuppressionCalculator`
/// computes it (`INTERSECTION_OVER_UNION`): 0 for boxes that do not touch or have a negative size.
public func intersectionOverUnion(_ a: RelativeDetection, _ b: RelativeDetection) -> Float {
    // Rectangles as MediaPipe's Rectangle_f holds them: corners, with the sizes recomputed from them.
    let aMaxX = a.xMin + a.width, aMaxY = a.yMin + a.height
    let bMaxX = b.xMin + b.width, bMaxY = b.yMin + b.height
    let aEmpty = a.xMin > aMaxX || a.yMin > aMaxY
    let bEmpty = b.xMin > bMaxX || b.yMin > bMaxY
    if aEmpty || bEmpty || bMaxX < a.xMin || aMaxX < b.xMin || bMaxY < a.yMin || aMaxY < b.yMin { return 0 }
    let left = max(a.xMin, b.xMin), top = max(a.yMin, b.yMin)
    let right = min(aMaxX, bMaxX), bottom = min(aMaxY, bMaxY)
    let intersection = (right - left) * (bottom - top)
    let areaA = (aMaxX - a.xMin) * (aMaxY - a.yMin)
    let areaB = (bMaxX - b.xMin) * (bMaxY - b.yMin)
    let union = areaA + areaB - intersection
    return union > 0 ? intersection / union : 0
}

/// Weighted non-max suppression as MediaPipe's `NonMaxSuppressionCalculator` does it (`WEIGHTED`,
/// IoU overlap): detections are visited by decreasing score; the best remaining one gathers every
/// remaining detection whose IoU with it exceeds `minSuppressionThreshold` (itself included) and
/// becomes their score-weighted average box and keypoints, keeping its own score and class.
/// (MediaPipe's weighted mode ignores `max_num_detections`, so there is no limit here either.)
public func weightedNonMaxSuppression(
    _ detections: [RelativeDetection],
    minSuppressionThreshold: Float
) -> [RelativeDetection] {
    // MediaPipe sorts (index, score) pairs by score, descending; ties keep index order here.
    var remaining = detections.indices.sorted { (i, j) in
        detections[i].score != detections[j].score ? detections[i].score > detections[j].score : i < j
    }
    var output: [RelativeDetection] = []
    var rest: [Int] = []
    var candidates: [Int] = []
    rest.reserveCapacity(remaining.count)
    candidates.reserveCapacity(remaining.count)
    while let first = remaining.first {
        let top = detections[first]
        rest.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        for index in remaining {
            if intersectionOverUnion(detections[index], top) > minSuppressionThreshold {
                candidates.append(index)
            } else {
                rest.append(index)
            }
        }
        var merged = top
        if !candidates.isEmpty {
            var xMin: Float = 0, yMin: Float = 0, xMax: Float = 0, yMax: Float = 0, total: Float = 0
            var keypoints = [SIMD2<Float>](repeating: .zero, count: top.keypoints.count)
            for index in candidates {
                let d = detections[index]
                let s = d.score
                total += s
                xMin += d.xMin * s
                yMin += d.yMin * s
                xMax += (d.xMin + d.width) * s
                yMax += (d.yMin + d.height) * s
                for k in keypoints.indices where k < d.keypoints.count {
                    keypoints[k].x += d.keypoints[k].x * s
                    keypoints[k].y += d.keypoints[k].y * s
                }
            }
            merged.xMin = xMin / total
            merged.yMin = yMin / total
            merged.width = xMax / total - merged.xMin
            merged.height = yMax / total - merged.yMin
            merged.keypoints = keypoints.map { SIMD2($0.x / total, $0.y / total) }
        }
        output.append(merged)
        if rest.count == remaining.count { break }
        swap(&remaining, &rest)
    }
    return output
}

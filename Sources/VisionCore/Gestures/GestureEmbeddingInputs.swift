import Foundation

// The gesture embedder's three inputs, prepared as MediaPipe's hand gesture recognizer graph
// prepares them (LandmarksToMatrixCalculator with object normalization, HandednessToMatrixCalculator).

/// Prepares one hand's landmarks for the gesture embedder as MediaPipe's
/// `LandmarksToMatrixCalculator` does, returning 21×3 values (x, y, z per landmark):
/// 1. for normalized landmarks (`imageSize` given), undo the image's aspect ratio around the centre;
/// 2. move the centre to (0, 0) and back in double precision, as MediaPipe's rotation by the whole
///    image's ROI rotation (0 here: the landmarks are the upright image's) rounds them;
/// 3. move landmark 0 to the origin and divide by the larger side of the x/y bounding box (+1e-5).
/// World landmarks pass `imageSize: nil`.
public func gestureLandmarksMatrix(_ landmarks: [SIMD3<Float>], imageSize: (width: Int, height: Int)?) -> [Float] {
    guard !landmarks.isEmpty else { return [] }
    var points = landmarks
    if let size = imageSize {
        let maxDim = Float(max(size.width, size.height))
        if maxDim > 0 {
            let sx = Double(Float(size.width) / maxDim), sy = Double(Float(size.height) / maxDim)
            points = points.map { p in
                SIMD3(Float((Double(p.x) - 0.5) * sx + 0.5), Float((Double(p.y) - 0.5) * sy + 0.5), p.z)
            }
        }
    }
    points = points.map { p in
        let x = Float(Double(p.x) - 0.5), y = Float(Double(p.y) - 0.5)
        return SIMD3(Float(Double(x) + 0.5), Float(Double(y) + 0.5), p.z)
    }
    let origin = points[0]
    var minX = Float.greatestFiniteMagnitude, maxX = Float.leastNormalMagnitude
    var minY = Float.greatestFiniteMagnitude, maxY = Float.leastNormalMagnitude
    for i in points.indices {
        points[i] -= origin
        minX = min(minX, points[i].x)
        maxX = max(maxX, points[i].x)
        minY = min(minY, points[i].y)
        maxY = max(maxY, points[i].y)
    }
    let scale = max(maxX - minX, maxY - minY) + 1e-5
    var out: [Float] = []
    out.reserveCapacity(points.count * 3)
    for p in points {
        out.append(p.x / scale)
        out.append(p.y / scale)
        out.append(p.z / scale)
    }
    return out
}

/// The embedder's handedness input, as MediaPipe's `HandednessToMatrixCalculator` computes it: the
/// probability that the hand is a right hand, from the best handedness entry as
/// `handedness(fromScore:)` gives it (index 0 "Right", index 1 "Left").
public func rightHandScore(_ handedness: Classification) -> Float {
    handedness.index == 1 ? 1 - handedness.score : handedness.score
}

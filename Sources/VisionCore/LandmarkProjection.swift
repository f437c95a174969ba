import Foundation

// MediaPipe's TensorsToLandmarksCalculator (normalized output) and LandmarkProjectionCalculator
// (with a rect and the image size): model-space landmarks back into image coordinates.

/// Decodes a landmark model's flat output into normalized points in the model's input square:
/// x / inputWidth, y / inputHeight, z / inputWidth / normalizeZ. `values` holds `count` landmarks
/// of `values.count / count` numbers each (x, y, z, …). Returns nil when the sizes do not fit.
public func decodeLandmarks(
    _ values: UnsafeBufferPointer<Float>, count: Int, inputWidth: Int,
    inputHeight: Int, normalizeZ: Float = 1
) -> [SIMD3<Float>]? {
    guard count > 0, inputWidth > 0, inputHeight > 0 else { return nil }
    let dims = values.count / count
    guard dims >= 2 else { return nil }
    let w = Float(inputWidth), h = Float(inputHeight)
    return (0..<count).map { i in
        let o = i * dims
        let z: Float = dims > 2 ? values[o + 2] / w / normalizeZ : 0
        return SIMD3(values[o] / w, values[o + 1] / h, z)
    }
}

/// Projects landmarks with a row-major 4×4 crop-to-image matrix (x and y through its first two
/// rows; z scaled by the length of the image of the unit x vector), as MediaPipe's
/// `LandmarkProjectionCalculator` does with a projection matrix.
public func projectLandmarks(_ landmarks: [SIMD3<Float>], matrix m: [Float]) -> [SIMD3<Float>] {
    // Length of the image of the segment (0,0)-(1,0), computed from the projected end points.
    let dx = Double((m[0] + m[3]) - m[3]), dy = Double((m[4] + m[7]) - m[7])
    let zScale = Float((dx * dx + dy * dy).squareRoot())
    return landmarks.map { p in
        SIMD3(
            p.x * m[0] + p.y * m[1] + p.z * m[2] + m[3],
            p.x * m[4] + p.y * m[5] + p.z * m[6] + m[7],
            p.z * zScale)
    }
}

/// Projects landmarks from the normalized space of `rect` back to the image as MediaPipe's
/// `LandmarkProjectionCalculator` does when given only the rect (the hand graph's case): each point
/// is rotated about the rect's centre by its rotation and scaled by its normalized width and height;
/// z is scaled by the rect's width.
public func projectLandmarks(_ landmarks: [SIMD3<Float>], fromNormalizedRect rect: NormalizedRect) -> [SIMD3<Float>] {
    let c = cosf(rect.rotation), s = sinf(rect.rotation)
    return landmarks.map { p in
        let x = p.x - 0.5, y = p.y - 0.5
        let nx = c * x - s * y, ny = s * x + c * y
        return SIMD3(nx * rect.width + rect.xCenter, ny * rect.height + rect.yCenter, p.z * rect.width)
    }
}

/// Rotates world landmarks (metres, origin at the hand's centre) by the ROI's rotation about the z
/// axis, as MediaPipe's `WorldLandmarkProjectionCalculator` does; z is unchanged.
public func rotateWorldLandmarks(_ landmarks: [SIMD3<Float>], by rotation: Float) -> [SIMD3<Float>] {
    let c = cosf(rotation), s = sinf(rotation)
    return landmarks.map { p in SIMD3(c * p.x - s * p.y, s * p.x + c * p.y, p.z) }
}

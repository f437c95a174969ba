import Foundation

// MediaPipe's TensorsToLandmarksCalculator (normalized output) and LandmarkProjectionCalculator
// (with a rect and the image size): model-space landmarks back into image coordinates.

/// Decodes a landmark model's flat output into normalized points in the model's input square:
/// x / inputWidth, y / inputHeight, z / inputWidth / normalizeZ. `values` holds `count` landmarks
/// of `values.count / count` numbers each (x, y, z, …). Returns nil when the sizes do not fit.
public func decodeLandmarks(_ values: UnsafeBufferPointer<Float>, count: Int, inputWidth: Int,
                            inputHeight: Int, normalizeZ: Float = 1) -> [SIMD3<Float>]? {
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

/// Projects landmarks from the normalized space of `rect` (a crop of an image of
/// `imageWidth`×`imageHeight`) back to normalized image coordinates, scaling z by the length of the
/// projected unit x vector, as MediaPipe's `LandmarkProjectionCalculator` does.
public func projectLandmarks(_ landmarks: [SIMD3<Float>], from rect: NormalizedRect,
                             imageWidth: Int, imageHeight: Int) -> [SIMD3<Float>] {
    projectLandmarks(landmarks, matrix: rect.denormalized(imageWidth: imageWidth, imageHeight: imageHeight)
        .subRectToImageMatrix(imageWidth: imageWidth, imageHeight: imageHeight))
}

/// Projects landmarks with a row-major 4×4 crop-to-image matrix (x and y through its first two
/// rows; z scaled by the length of the image of the unit x vector), as MediaPipe's
/// `LandmarkProjectionCalculator` does with a projection matrix.
public func projectLandmarks(_ landmarks: [SIMD3<Float>], matrix m: [Float]) -> [SIMD3<Float>] {
    // Length of the image of the segment (0,0)-(1,0), computed from the projected end points.
    let dx = Double((m[0] + m[3]) - m[3]), dy = Double((m[4] + m[7]) - m[7])
    let zScale = Float((dx * dx + dy * dy).squareRoot())
    return landmarks.map { p in
        SIMD3(p.x * m[0] + p.y * m[1] + p.z * m[2] + m[3],
              p.x * m[4] + p.y * m[5] + p.z * m[6] + m[7],
              p.z * zScale)
    }
}

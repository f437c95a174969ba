import Foundation
import VisionCore
import VisionErrors

/// MediaPipe's face geometry pipeline for landmarks (`geometry_pipeline.cc`, face landmark input):
/// converts a face's screen landmarks into metric space seen by a perspective camera and solves
/// for the pose of the canonical face, the facial transformation matrix.
struct FaceGeometryPipeline: Sendable {
    /// Vertical field of view of the virtual camera, in degrees (the face landmarker graph's 63°).
    static let verticalFieldOfViewDegrees: Float = 63
    /// Near clipping plane in centimetres.
    static let nearPlane: Float = 1
    /// Far clipping plane in centimetres.
    static let farPlane: Float = 10000

    let metadata: FaceGeometryMetadata

    /// The row-major 4×4 pose of the canonical face for `landmarks` (normalized, top-left origin,
    /// at least as many as the canonical mesh has vertices; extra ones such as the irises are
    /// ignored) in a `imageWidth`×`imageHeight` frame. Returns nil for a face whose landmarks are
    /// too compact to place, as MediaPipe skips such faces.
    func poseTransform(landmarks: [SIMD3<Float>], imageWidth: Int, imageHeight: Int) throws -> [Float]? {
        guard imageWidth > 0, imageHeight > 0 else {
            throw VisionTasksError.invalidArgument("face geometry: frame size \(imageWidth)×\(imageHeight)")
        }
        let count = metadata.canonicalLandmarks.count
        guard landmarks.count >= count else {
            throw VisionTasksError.processingFailed(
                "face geometry: \(landmarks.count) landmarks, the canonical mesh has \(count)")
        }
        let screen = Array(landmarks[0..<count])
        if Self.isTooCompact(screen) { return nil }

        // The camera frustum at the near plane.
        let heightAtNear = 2 * Self.nearPlane * tanf(0.5 * (Float.pi / 180) * Self.verticalFieldOfViewDegrees)
        let widthAtNear = Float(imageWidth) * heightAtNear / Float(imageHeight)
        let left = -0.5 * widthAtNear, bottom = -0.5 * heightAtNear

        // Screen → near-plane coordinates (y flipped for the top-left origin; z scaled as x).
        let projected = screen.map { p in
            SIMD3(p.x * widthAtNear + left, (1 - p.y) * heightAtNear + bottom, p.z * widthAtNear)
        }
        let depthOffset = projected.reduce(Float(0)) { $0 + $1.z } / Float(count)

        let firstScale = try estimateScale(projected.map { SIMD3($0.x, $0.y, -$0.z) })
        let intermediate = unproject(projected, depthOffset: depthOffset, scale: firstScale)
        let secondScale = try estimateScale(intermediate)
        let metric = unproject(projected, depthOffset: depthOffset, scale: firstScale * secondScale)
        return try solveWeightedOrthogonalProcrustes(
            source: metadata.canonicalLandmarks, target: metric,
            weights: metadata.weights)
    }

    /// Moves and rescales depth, unprojects x and y through the near plane, and flips handedness.
    private func unproject(_ points: [SIMD3<Float>], depthOffset: Float, scale: Float) -> [SIMD3<Float>] {
        points.map { p in
            let z = (p.z - depthOffset + Self.nearPlane) / scale
            return SIMD3(p.x * z / Self.nearPlane, p.y * z / Self.nearPlane, -z)
        }
    }

    /// The scale of the canonical-to-`points` similarity transform (length of its first column).
    private func estimateScale(_ points: [SIMD3<Float>]) throws -> Float {
        let m = try solveWeightedOrthogonalProcrustes(
            source: metadata.canonicalLandmarks, target: points,
            weights: metadata.weights)
        return (m[0] * m[0] + m[4] * m[4] + m[8] * m[8]).squareRoot()
    }

    /// True when every landmark lies within 1e-3 of their mean (MediaPipe skips such faces).
    static func isTooCompact(_ landmarks: [SIMD3<Float>]) -> Bool {
        var meanX: Float = 0, meanY: Float = 0
        for (i, p) in landmarks.enumerated() {
            meanX += (p.x - meanX) / Float(i + 1)
            meanY += (p.y - meanY) / Float(i + 1)
        }
        var maxSquared: Float = 0
        for p in landmarks {
            let dx = p.x - meanX, dy = p.y - meanY
            maxSquared = max(maxSquared, dx * dx + dy * dy)
        }
        return maxSquared.squareRoot() <= 1e-3
    }
}

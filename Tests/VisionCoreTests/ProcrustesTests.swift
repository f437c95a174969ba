import Foundation
import Testing

@testable import VisionCore

// Tolerance: 1e-4 on matrix entries (single-precision inputs, exact similarity transform).

@Test func procrustesRecoversAKnownSimilarityTransform() throws {
    let source: [SIMD3<Float>] = [SIMD3(1, 0, 0), SIMD3(0, 2, 0), SIMD3(0, 0, 3), SIMD3(-1, -1, 1), SIMD3(2, -1, -2)]
    // Rotation of 30° about the axis (1, 2, 2)/3, scale 1.7, translation (4, -5, 30).
    let axis = SIMD3<Double>(1, 2, 2) / 3, angle = Double.pi / 6
    let c = cos(angle), s = sin(angle), t = 1 - c
    let r: [[Double]] = [
        [t * axis.x * axis.x + c, t * axis.x * axis.y - s * axis.z, t * axis.x * axis.z + s * axis.y],
        [t * axis.x * axis.y + s * axis.z, t * axis.y * axis.y + c, t * axis.y * axis.z - s * axis.x],
        [t * axis.x * axis.z - s * axis.y, t * axis.y * axis.z + s * axis.x, t * axis.z * axis.z + c],
    ]
    let scale = 1.7, translation = [4.0, -5.0, 30.0]
    let target = source.map { p -> SIMD3<Float> in
        let v = [Double(p.x), Double(p.y), Double(p.z)]
        let o = (0..<3).map { i in scale * (r[i][0] * v[0] + r[i][1] * v[1] + r[i][2] * v[2]) + translation[i] }
        return SIMD3(Float(o[0]), Float(o[1]), Float(o[2]))
    }
    let m = try solveWeightedOrthogonalProcrustes(source: source, target: target, weights: [1, 0.5, 2, 1, 0.25])
    for i in 0..<3 {
        for j in 0..<3 { #expect(abs(Double(m[i * 4 + j]) - scale * r[i][j]) < 1e-4) }
        #expect(abs(Double(m[i * 4 + 3]) - translation[i]) < 1e-4)
    }
    #expect(Array(m[12...]) == [0, 0, 0, 1])
}

@Test func procrustesNeverReturnsAReflection() throws {
    // Mirrored target: the best proper rotation, not the mirror.
    let source: [SIMD3<Float>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 1)]
    let target = source.map { SIMD3(-$0.x, $0.y, $0.z) }
    let m = try solveWeightedOrthogonalProcrustes(source: source, target: target, weights: [1, 1, 1, 1])
    let r = Matrix3(
        rows: (
            SIMD3(Double(m[0]), Double(m[1]), Double(m[2])),
            SIMD3(Double(m[4]), Double(m[5]), Double(m[6])),
            SIMD3(Double(m[8]), Double(m[9]), Double(m[10]))
        ))
    #expect(r.determinant > 0)
}

@Test func procrustesRejectsDegenerateInput() {
    let p: [SIMD3<Float>] = [SIMD3(1, 2, 3), SIMD3(4, 5, 6)]
    #expect(throws: (any Error).self) { try solveWeightedOrthogonalProcrustes(source: p, target: p, weights: [0, 0]) }
    #expect(throws: (any Error).self) { try solveWeightedOrthogonalProcrustes(source: p, target: p, weights: [1]) }
    // All points on one spot: nothing to rotate.
    let same: [SIMD3<Float>] = [SIMD3(1, 1, 1), SIMD3(1, 1, 1)]
    #expect(throws: (any Error).self) {
        try solveWeightedOrthogonalProcrustes(source: same, target: same, weights: [1, 1])
    }
}

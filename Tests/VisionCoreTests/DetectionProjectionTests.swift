import Foundation
import Testing

@testable import VisionCore

/// Detection projection and pixel boxes against values worked out by hand from MediaPipe's
/// `DetectionProjectionCalculator` and `DetectionTransformationCalculator` (tolerance 1e-6).
@Suite struct DetectionProjectionTests {
    /// The matrix MediaPipe gives for a 200×100 image letterboxed into a square tensor: the tensor
    /// shows a 200×200 region centred on the image (x' = x, y' = 2y − 0.5).
    private let letterbox: [Float] = [1, 0, 0, 0, 0, 2, 0, -0.5, 0, 0, 1, 0, 0, 0, 0, 1]

    @Test func letterboxProjectionUndoesThePadding() throws {
        let p = try NormalizedProjection(matrix: letterbox)
        let q = p.apply(SIMD2(0.5, 0.25))
        #expect(abs(q.x - 0.5) < 1e-6 && abs(q.y - 0) < 1e-6)
        let box = RelativeDetection(
            score: 1, classIndex: 0, xMin: 0.25, yMin: 0.25, width: 0.5, height: 0.5,
            keypoints: [SIMD2(0.5, 0.75)])
        let out = projectDetection(box, p)
        #expect(abs(out.xMin - 0.25) < 1e-6 && abs(out.yMin) < 1e-6)
        #expect(abs(out.width - 0.5) < 1e-6 && abs(out.height - 1) < 1e-6)
        #expect(abs(out.keypoints[0].x - 0.5) < 1e-6 && abs(out.keypoints[0].y - 1) < 1e-6)
        #expect(out.score == 1 && out.classIndex == 0)
    }

    @Test func aRotatedProjectionBoxesTheTurnedCorners() throws {
        // A quarter turn: (x, y) -> (1 - y, x).
        let p = try NormalizedProjection(matrix: [0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        let q = p.apply(SIMD2(0.2, 0.1))
        #expect(abs(q.x - 0.9) < 1e-6 && abs(q.y - 0.2) < 1e-6)
        // Corners (0.1..0.3, 0.2..0.6) map to x 0.4..0.8, y 0.1..0.3.
        let out = projectDetection(
            RelativeDetection(
                score: 1, classIndex: 0, xMin: 0.1, yMin: 0.2,
                width: 0.2, height: 0.4), p)
        #expect(abs(out.xMin - 0.4) < 1e-6 && abs(out.yMin - 0.1) < 1e-6)
        #expect(abs(out.width - 0.4) < 1e-6 && abs(out.height - 0.2) < 1e-6)
    }

    @Test func pixelBoxesTruncateThenClamp() {
        let d = RelativeDetection(score: 1, classIndex: 0, xMin: 0.1234, yMin: -0.01, width: 0.5, height: 1.2)
        #expect(d.pixelBox(imageWidth: 640, imageHeight: 480) == CGRect(x: 78, y: 0, width: 320, height: 480))
        let nan = RelativeDetection(score: 1, classIndex: 0, xMin: .nan, yMin: .infinity, width: -.infinity, height: 2)
        #expect(nan.pixelBox(imageWidth: 10, imageHeight: 10) == CGRect(x: 0, y: 10, width: 0, height: 10))
    }

    @Test func malformedMatricesThrow() {
        #expect(throws: (any Error).self) { try NormalizedProjection(matrix: [1, 0, 0]) }
        #expect(throws: (any Error).self) { try NormalizedProjection(matrix: [Float](repeating: .nan, count: 16)) }
    }
}

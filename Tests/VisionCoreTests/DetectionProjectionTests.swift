import Foundation
import Testing
@testable import VisionCore

/// Letterbox projection and pixel boxes against values worked out by hand from MediaPipe's
/// `PadRoi`, `GetRotatedSubRectToRectTransformMatrix`, `DetectionProjectionCalculator` and
/// `DetectionTransformationCalculator` (tolerance 1e-6).
@Suite struct DetectionProjectionTests {
    @Test func letterboxOfAWideImageUndoesTheVerticalPadding() throws {
        let p = try NormalizedProjection.letterbox(imageWidth: 200, imageHeight: 100, tensorWidth: 128, tensorHeight: 128)
        let q = p.apply(SIMD2(0.5, 0.25))
        #expect(abs(q.x - 0.5) < 1e-6 && abs(q.y - 0) < 1e-6)
        let box = RelativeDetection(score: 1, classIndex: 0, xMin: 0.25, yMin: 0.25, width: 0.5, height: 0.5,
                                    keypoints: [SIMD2(0.5, 0.75)])
        let out = projectDetection(box, p)
        #expect(abs(out.xMin - 0.25) < 1e-6 && abs(out.yMin) < 1e-6)
        #expect(abs(out.width - 0.5) < 1e-6 && abs(out.height - 1) < 1e-6)
        #expect(abs(out.keypoints[0].x - 0.5) < 1e-6 && abs(out.keypoints[0].y - 1) < 1e-6)
    }

    @Test func letterboxOfATallImageUndoesTheHorizontalPadding() throws {
        let p = try NormalizedProjection.letterbox(imageWidth: 100, imageHeight: 400, tensorWidth: 128, tensorHeight: 128)
        let q = p.apply(SIMD2(0.375, 0.5))
        #expect(abs(q.x - 0) < 1e-6 && abs(q.y - 0.5) < 1e-6)
    }

    @Test func rotatedRectangleMapsAQuarterTurn() {
        let p = NormalizedProjection(centerX: 50, centerY: 50, width: 100, height: 100, rotation: .pi / 2,
                                     imageWidth: 100, imageHeight: 100)
        let q = p.apply(SIMD2(0.2, 0.1))
        #expect(abs(q.x - 0.9) < 1e-6 && abs(q.y - 0.2) < 1e-6)
        // The box around a rotated box: corners (0.1..0.3, 0.2..0.6) map to x 0.4..0.8, y 0.1..0.3.
        let out = projectDetection(RelativeDetection(score: 1, classIndex: 0, xMin: 0.1, yMin: 0.2,
                                                     width: 0.2, height: 0.4), p)
        #expect(abs(out.xMin - 0.4) < 1e-6 && abs(out.yMin - 0.1) < 1e-6)
        #expect(abs(out.width - 0.4) < 1e-6 && abs(out.height - 0.2) < 1e-6)
    }

    @Test func pixelBoxesTruncateThenClamp() {
        let d = RelativeDetection(score: 1, classIndex: 0, xMin: 0.1234, yMin: -0.01, width: 0.5, height: 1.2)
        #expect(PixelBox(d, imageWidth: 640, imageHeight: 480) == PixelBox(originX: 78, originY: 0, width: 320, height: 480))
        let nan = RelativeDetection(score: 1, classIndex: 0, xMin: .nan, yMin: .infinity, width: -.infinity, height: 2)
        #expect(PixelBox(nan, imageWidth: 10, imageHeight: 10) == PixelBox(originX: 0, originY: 10, width: 0, height: 10))
    }

    @Test func emptySizesThrow() {
        #expect(throws: (any Error).self) {
            try NormalizedProjection.letterbox(imageWidth: 0, imageHeight: 10, tensorWidth: 128, tensorHeight: 128)
        }
    }
}

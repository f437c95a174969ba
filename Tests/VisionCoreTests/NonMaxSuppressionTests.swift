import Testing

@testable import VisionCore

/// Weighted NMS against values worked out by hand from MediaPipe's `NonMaxSuppressionCalculator`
/// (WEIGHTED, IoU); tolerance 1e-6.
@Suite struct NonMaxSuppressionTests {
    let a = RelativeDetection(
        score: 0.9, classIndex: 0, xMin: 0, yMin: 0, width: 0.4, height: 0.4,
        keypoints: [SIMD2(0.1, 0.1)])
    let b = RelativeDetection(
        score: 0.6, classIndex: 0, xMin: 0.05, yMin: 0.05, width: 0.4, height: 0.4,
        keypoints: [SIMD2(0.2, 0.2)])
    let c = RelativeDetection(
        score: 0.8, classIndex: 0, xMin: 0.6, yMin: 0.6, width: 0.2, height: 0.2,
        keypoints: [SIMD2(0.7, 0.7)])

    @Test func iouOfOverlappingAndDisjointBoxes() {
        #expect(abs(intersectionOverUnion(a, b) - 0.1225 / 0.1975) < 1e-6)
        #expect(intersectionOverUnion(a, c) == 0)
        #expect(abs(intersectionOverUnion(a, a) - 1) < 1e-6)
    }

    @Test func overlappingDetectionsAverageBoxesAndKeypointsByScore() {
        let out = weightedNonMaxSuppression([b, c, a], minSuppressionThreshold: 0.3)
        #expect(out.count == 2)
        let merged = out[0]
        #expect(merged.score == 0.9) // the best detection's score, not an average
        #expect(abs(merged.xMin - 0.02) < 1e-6 && abs(merged.yMin - 0.02) < 1e-6)
        #expect(abs(merged.width - 0.4) < 1e-6 && abs(merged.height - 0.4) < 1e-6)
        #expect(abs(merged.keypoints[0].x - 0.14) < 1e-6 && abs(merged.keypoints[0].y - 0.14) < 1e-6)
        // A lone detection is still re-averaged with itself (as MediaPipe does), so only up to rounding.
        #expect(out[1].score == c.score && abs(out[1].width - c.width) < 1e-6 && abs(out[1].xMin - c.xMin) < 1e-6)
    }

    @Test func aHighThresholdKeepsEveryDetectionInScoreOrder() {
        let out = weightedNonMaxSuppression([b, c, a], minSuppressionThreshold: 0.7)
        #expect(out.map(\.score) == [0.9, 0.8, 0.6])
        #expect(out[0] == a)
    }

    @Test func emptyInputGivesNothing() {
        #expect(weightedNonMaxSuppression([], minSuppressionThreshold: 0.3).isEmpty)
    }
}

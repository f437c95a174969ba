import Foundation
import Testing
import VisionErrors

@testable import VisionCore

/// The hand pipeline's pure steps against values worked out by hand from MediaPipe's calculators
/// (hand_detector_graph.cc, HandLandmarksToRect, RectTransformation, LandmarkProjection,
/// WorldLandmarkProjection, HandAssociation, HandLandmarksDeduplication). Tolerance 1e-5 unless
/// stated.
@Suite struct HandStepsTests {
    private func close(_ a: Float, _ b: Float, _ tol: Float = 1e-5) -> Bool { abs(a - b) <= tol }

    @Test func palmRectUsesNinetyRadiansTargetAndGrowsTheBox() throws {
        // Square image, palm box 0.2×0.2 at (0.4, 0.4); wrist straight below the middle MCP.
        let palm = RelativeDetection(
            score: 0.9, classIndex: 0, xMin: 0.4, yMin: 0.4, width: 0.2, height: 0.2,
            keypoints: [
                SIMD2(0.5, 0.6), SIMD2(0.45, 0.5), SIMD2(0.5, 0.4),
                .zero, .zero, .zero, .zero,
            ])
        let rect = try #require(handRect(fromPalm: palm, imageWidth: 100, imageHeight: 100))
        // atan2(-(0.4-0.6), 0) = π/2, so rotation = normalize(90 - π/2).
        let expected = Float(
            Double(90 - Float.pi / 2) - 2 * Double.pi * (Double(90 - Float.pi / 2 + .pi) / (2 * .pi)).rounded(.down))
        #expect(close(rect.rotation, expected))
        #expect(close(rect.width, 0.52) && close(rect.height, 0.52))
        // Shift by -0.5 × height along the rect's rotated y axis.
        #expect(close(rect.xCenter, 0.5 + 0.1 * sinf(expected)))
        #expect(close(rect.yCenter, 0.5 - 0.1 * cosf(expected)))
        // A palm without the two rotation keypoints gives no ROI.
        var bare = palm
        bare.keypoints = [SIMD2(0.5, 0.6)]
        #expect(handRect(fromPalm: bare, imageWidth: 100, imageHeight: 100) == nil)
    }

    /// An upright synthetic hand: wrist at the bottom, fingers straight up.
    private func uprightHand() -> [SIMD3<Float>] {
        var points = [SIMD3<Float>](repeating: SIMD3(0.5, 0.8, 0), count: 21)
        for finger in 0..<5 {
            for joint in 0..<4 {
                let x = 0.4 + Float(finger) * 0.05
                let y = 0.7 - Float(joint) * 0.05
                points[1 + finger * 4 + joint] = SIMD3(x, y, 0)
            }
        }
        return points
    }

    @Test func landmarksRectOfAnUprightHandIsUnrotated() throws {
        let hand = uprightHand()
        let rect = try #require(handLandmarksRect(hand, imageWidth: 200, imageHeight: 200))
        // Wrist (0.5, 0.8) to the mean PIP point, which lies straight above: rotation ≈ 0.
        let pip = ((hand[6] + hand[14]) / 2 + hand[10]) / 2
        let angle = Float.pi / 2 - atan2f(-(pip.y - 0.8) * 200, (pip.x - 0.5) * 200)
        #expect(close(rect.rotation, angle, 1e-5))
        let next = try #require(handRect(fromLandmarks: hand, imageWidth: 200, imageHeight: 200))
        #expect(close(next.width, 2 * max(rect.width, rect.height), 1e-4))
        #expect(next.width == next.height)
        #expect(handLandmarksRect(Array(hand.prefix(20)), imageWidth: 200, imageHeight: 200) == nil)
    }

    @Test func projectionRotatesAboutTheRectCentreAndScalesZByWidth() {
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.4, width: 0.2, height: 0.3, rotation: .pi / 2)
        let out = projectLandmarks([SIMD3(1, 0.5, 0.1)], fromNormalizedRect: rect)
        // (0.5, 0) rotated by 90° is (0, 0.5): x = 0 × 0.2 + 0.5, y = 0.5 × 0.3 + 0.4.
        #expect(close(out[0].x, 0.5) && close(out[0].y, 0.55) && close(out[0].z, 0.02))
        let world = rotateWorldLandmarks([SIMD3(0.01, 0, 0.02)], by: .pi / 2)
        #expect(close(world[0].x, 0) && close(world[0].y, 0.01) && close(world[0].z, 0.02))
    }

    @Test func handednessFollowsMediaPipesBinaryLabels() {
        let right = handedness(fromScore: 0.8)
        #expect(right.label == "Right" && right.index == 0 && close(right.score, 0.8))
        let left = handedness(fromScore: 0.1)
        #expect(left.label == "Left" && left.index == 1 && close(left.score, 0.9))
        #expect(handIsPresent(score: 0.51, minPresenceConfidence: 0.5))
        #expect(!handIsPresent(score: 0.5, minPresenceConfidence: 0.5))
    }

    @Test func associationKeepsTrackedRectsAndAddsOnlyNewHands() {
        let tracked = [NormalizedRect(xCenter: 0.3, yCenter: 0.5, width: 0.2, height: 0.2)]
        let sameHand = NormalizedRect(xCenter: 0.31, yCenter: 0.5, width: 0.2, height: 0.2)
        let otherHand = NormalizedRect(xCenter: 0.7, yCenter: 0.5, width: 0.2, height: 0.2)
        let out = associateHandRects(tracked: tracked, detected: [sameHand, otherHand], minSimilarityThreshold: 0.5)
        #expect(out == [AssociatedRect(tracked[0], trackedIndex: 0), AssociatedRect(otherHand, trackedIndex: nil)])
        // A threshold above the pair's IoU (≈0.905) lets the re-detection through.
        #expect(associateHandRects(tracked: tracked, detected: [sameHand], minSimilarityThreshold: 0.95).count == 2)
    }

    @Test func deduplicationDropsTheSecondCopyOfAHand() {
        let hand = uprightHand()
        let nearCopy = hand.map { $0 + SIMD3(0.002, 0, 0) }
        let elsewhere = hand.map { $0 + SIMD3(0.3, 0, 0) }
        #expect(duplicateHandIndices([hand, nearCopy, elsewhere], imageWidth: 300, imageHeight: 300) == [1])
        #expect(duplicateHandIndices([hand, elsewhere], imageWidth: 300, imageHeight: 300).isEmpty)
    }

    @Test func gestureMatrixNormalizesAspectOriginAndScale() {
        // Two points in a 200×100 image: aspect undone around the centre, origin at point 0, scale
        // by the larger extent (+1e-5).
        let m = gestureLandmarksMatrix([SIMD3(0.5, 0.5, 0), SIMD3(0.75, 0.5, 0.1)], imageSize: (200, 100))
        let scale: Float = 0.25 + 1e-5
        #expect(close(m[3], 0.25 / scale) && close(m[4], 0) && close(m[5], 0.1 / scale))
        #expect(m[0] == 0 && m[1] == 0 && m[2] == 0)
        let world = gestureLandmarksMatrix([SIMD3(0.01, 0.02, 0), SIMD3(0.03, 0.02, 0.01)], imageSize: nil)
        #expect(close(world[3], 0.02 / (0.02 + 1e-5), 1e-4))
        #expect(close(rightHandScore(handedness(fromScore: 0.1)), 0.1))
        #expect(rightHandScore(handedness(fromScore: 0.7)) == 0.7)
    }

    @Test func combinedPredictionPrefersTheFirstNonBackgroundWinner() {
        let custom = [
            Classification(index: 0, score: 0.6, label: "None"), Classification(index: 1, score: 0.3, label: "add"),
        ]
        let canned = [Classification(index: 5, score: 0.8, label: "Thumb_Up")]
        let out = combineGesturePredictions([custom, canned])
        #expect(out == Classification(index: -1, score: 0.8, label: "Thumb_Up"))
        let customWins = combineGesturePredictions([[Classification(index: 2, score: 0.5, label: "divide")], canned])
        #expect(customWins?.label == "divide")
        // Both background: the first winner (custom's).
        let none = combineGesturePredictions([custom, [Classification(index: 0, score: 0.9, label: "None")]])
        #expect(none?.label == "None" && none?.score == 0.6)
        // Empty lists are skipped; nothing at all gives nil.
        #expect(combineGesturePredictions([[], canned])?.label == "Thumb_Up")
        #expect(combineGesturePredictions([[], []]) == nil)
    }

    @Test func classificationFilterAppliesMediaPipesOptions() throws {
        let labels = ["None", "Closed_Fist", "Open_Palm", "Thumb_Up"]
        let scores: [Float] = [0.1, 0.2, 0.3, 0.4]
        let all = try ClassificationFilter(labels: labels).classify(scores)
        #expect(all.map(\.index) == [3, 2, 1, 0])
        #expect(
            try ClassificationFilter(labels: labels, maxResults: 2).classify(scores).map(\.label) == [
                "Thumb_Up", "Open_Palm",
            ])
        #expect(try ClassificationFilter(labels: labels, scoreThreshold: 0.3).classify(scores).map(\.index) == [3, 2])
        // The option's threshold overrides the model's; the model's applies otherwise.
        #expect(try ClassificationFilter(labels: labels, metadataScoreThreshold: 0.35).classify(scores).count == 1)
        #expect(
            try ClassificationFilter(labels: labels, scoreThreshold: 0, metadataScoreThreshold: 0.35).classify(scores)
                .count == 4)
        #expect(
            try ClassificationFilter(labels: labels, categoryAllowlist: ["None", "Open_Palm"]).classify(scores).map(
                \.index) == [2, 0])
        #expect(
            try ClassificationFilter(labels: labels, categoryDenylist: ["Thumb_Up"]).classify(scores).map(\.index) == [
                2, 1, 0,
            ])
        // Only unknown names: nothing is filtered, as in MediaPipe.
        #expect(try ClassificationFilter(labels: labels, categoryAllowlist: ["Nope"]).classify(scores).count == 4)
        #expect(throws: VisionTasksError.self) { try ClassificationFilter(labels: labels, maxResults: 0) }
        #expect(throws: VisionTasksError.self) {
            try ClassificationFilter(labels: labels, categoryAllowlist: ["None"], categoryDenylist: ["Thumb_Up"])
        }
        #expect(throws: VisionTasksError.self) { try ClassificationFilter(labels: ["", ""], categoryAllowlist: ["a"]) }
    }
}

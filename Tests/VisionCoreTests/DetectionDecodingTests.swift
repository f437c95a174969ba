import Foundation
import Testing

@testable import VisionCore

/// Box/keypoint/score decoding against values worked out by hand from MediaPipe's
/// `TensorsToDetectionsCalculator` formulas (tolerance 1e-6).
@Suite struct DetectionDecodingTests {
    private let anchors = [
        NormalizedRect(xCenter: 0.25, yCenter: 0.25, width: 1, height: 1),
        NormalizedRect(xCenter: 0.75, yCenter: 0.5, width: 1, height: 1),
        NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1),
    ]

    private func options(_ format: SSDBoxFormat) -> SSDDecodingOptions {
        SSDDecodingOptions(
            numClasses: 1, numBoxes: 3, numCoords: 6, keypointCoordOffset: 4, numKeypoints: 1,
            xScale: 128, yScale: 128, wScale: 128, hScale: 128, boxFormat: format,
            sigmoidScore: true, scoreClippingThreshold: 100, minScoreThreshold: 0.5)
    }

    private func decode(_ boxes: [Float], _ scores: [Float], _ options: SSDDecodingOptions) throws
        -> [RelativeDetection]
    {
        try boxes.withUnsafeBufferPointer { b in
            try scores.withUnsafeBufferPointer { s in
                try decodeSSDDetections(rawBoxes: b, rawScores: s, anchors: anchors, options: options)
            }
        }
    }

    @Test func decodesXYWHBoxesKeypointsAndSigmoidScores() throws {
        let boxes: [Float] = [
            12.8, -6.4, 32, 64, 25.6, 0, // passes: score sigmoid(2)
            0, 0, 10, 10, 0, 0, // dropped: sigmoid(-1) < 0.5
            0, 0, -10, 10, 0, 0,
        ] // dropped: negative width
        let out = try decode(boxes, [2, -1, 50], options(.xywh))
        #expect(out.count == 1)
        let d = try #require(out.first)
        #expect(abs(d.score - 1 / (1 + exp(-2))) < 1e-6)
        #expect(d.classIndex == 0)
        #expect(abs(d.xMin - 0.225) < 1e-6 && abs(d.yMin - -0.05) < 1e-6)
        #expect(abs(d.width - 0.25) < 1e-6 && abs(d.height - 0.5) < 1e-6)
        #expect(abs(d.keypoints[0].x - 0.45) < 1e-6 && abs(d.keypoints[0].y - 0.25) < 1e-6)
    }

    @Test func readsYXHWWhenAsked() throws {
        let boxes: [Float] = [
            -6.4, 12.8, 64, 32, 0, 25.6,
            0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0,
        ]
        let d = try #require(try decode(boxes, [2, -5, -5], options(.yxhw)).first)
        #expect(abs(d.xMin - 0.225) < 1e-6 && abs(d.yMin - -0.05) < 1e-6)
        #expect(abs(d.width - 0.25) < 1e-6 && abs(d.height - 0.5) < 1e-6)
        #expect(abs(d.keypoints[0].x - 0.45) < 1e-6 && abs(d.keypoints[0].y - 0.25) < 1e-6)
    }

    @Test func clipsRawScoresBeforeTheSigmoid() throws {
        var o = options(.xywh)
        o.scoreClippingThreshold = 1
        o.minScoreThreshold = 0.7
        // sigmoid(1) = 0.731 passes; clipping 50 to 1 gives the same score, not sigmoid(50) ≈ 1.
        let out = try decode([Float](repeating: 1, count: 18), [1, 50, -50], o)
        #expect(out.count == 2)
        #expect(out.allSatisfy { abs($0.score - 1 / (1 + exp(-1))) < 1e-6 })
    }

    @Test func keepsAnchorOrderAndEveryClassPicksTheBest() throws {
        var o = options(.xywh)
        o.numClasses = 2
        o.minScoreThreshold = nil
        let out = try decode([Float](repeating: 1, count: 18), [0, 3, 4, -1, 1, 1], o)
        #expect(out.map(\.classIndex) == [1, 0, 0])
    }

    @Test func mismatchedBuffersThrow() {
        #expect(throws: (any Error).self) { try decode([1, 2, 3], [0, 0, 0], options(.xywh)) }
        #expect(throws: (any Error).self) { try decode([Float](repeating: 0, count: 18), [0], options(.xywh)) }
    }
}

import Foundation
import Testing

@testable import VisionCore

/// The pose pipeline's pure steps against values worked out by hand from MediaPipe's calculators
/// (AlignmentPointsRects, RectTransformation, TensorsToLandmarks, RefineLandmarksFromHeatmap,
/// WarpAffine) and the joint angles. Tolerance 1e-5 unless stated.
@Suite struct PoseStepsTests {
    private func close(_ a: Float, _ b: Float, _ tol: Float = 1e-5) -> Bool { abs(a - b) <= tol }

    @Test func alignmentRectIsTwiceTheCentreToScaleDistanceAndUpright() {
        // 100×200 image; the scale point 50 px straight above the centre: a 100 px square, unrotated.
        let rect = alignmentPointsRect(
            center: SIMD2(0.5, 0.5), scalePoint: SIMD2(0.5, 0.25), imageWidth: 100, imageHeight: 200)
        #expect(close(rect.xCenter, 0.5) && close(rect.yCenter, 0.5))
        #expect(close(rect.width, 1.0) && close(rect.height, 0.5))
        #expect(close(rect.rotation, 0))
        // The scale point to the right of the centre: the body lies on its side, a quarter turn.
        let side = alignmentPointsRect(
            center: SIMD2(0.5, 0.5), scalePoint: SIMD2(0.8, 0.5), imageWidth: 100, imageHeight: 100)
        #expect(close(side.rotation, .pi / 2) && close(side.width, 0.6))
    }

    @Test func detectionRectIsSquaredAndGrownAQuarter() throws {
        let detection = RelativeDetection(
            score: 0.9, classIndex: 0, xMin: 0.3, yMin: 0.2, width: 0.4, height: 0.6,
            keypoints: [SIMD2(0.5, 0.6), SIMD2(0.5, 0.4), .zero, .zero])
        // 200×100 image: 20 px from centre to scale point, a 40 px square, ×1.25 = 50 px.
        let rect = try #require(poseRect(fromDetection: detection, imageWidth: 200, imageHeight: 100))
        #expect(close(rect.width, 50.0 / 200) && close(rect.height, 50.0 / 100) && close(rect.rotation, 0))
        #expect(close(rect.xCenter, 0.5) && close(rect.yCenter, 0.6))
        var bare = detection
        bare.keypoints = [SIMD2(0.5, 0.6)]
        #expect(poseRect(fromDetection: bare, imageWidth: 200, imageHeight: 100) == nil)
        #expect(poseRect(fromAuxiliaryLandmarks: [SIMD3(0.5, 0.6, 0)], imageWidth: 200, imageHeight: 100) == nil)
        let tracked = try #require(
            poseRect(
                fromAuxiliaryLandmarks: [SIMD3(0.5, 0.6, 0.1), SIMD3(0.5, 0.4, 0.2)],
                imageWidth: 200, imageHeight: 100))
        #expect(tracked == rect)
    }

    @Test func decodesFiveValuesPerLandmarkWithSigmoidScores() throws {
        var raw = [Float](repeating: 0, count: 39 * 5)
        raw[0] = 128
        raw[1] = 64
        raw[2] = -25.6
        raw[3] = 0
        raw[4] = 100
        let decoded = try #require(raw.withUnsafeBufferPointer { decodePoseLandmarks($0, inputSide: 256) })
        #expect(decoded.points.count == 39 && decoded.visibility.count == 39 && decoded.presence.count == 39)
        #expect(decoded.points[0] == SIMD3(0.5, 0.25, -0.1))
        #expect(close(decoded.visibility[0], 0.5) && close(decoded.presence[0], 1))
        #expect(
            [Float](repeating: 0, count: 194).withUnsafeBufferPointer { decodePoseLandmarks($0, inputSide: 256) } == nil
        )
    }

    @Test func refinesToTheHeatmapsWeightedPeak() {
        // A 64×64 heatmap with 2 channels: landmark 0 has a strong 2-cell ridge, landmark 1 only weak values.
        let side = 64, channels = 2
        var heatmap = [Float](repeating: -20, count: side * side * channels)
        func set(_ row: Int, _ col: Int, _ channel: Int, _ v: Float) {
            heatmap[(row * side + col) * channels + channel] = v
        }
        set(10, 20, 0, 20)
        set(10, 22, 0, 20)
        set(10, 1, 0, 20)
        for r in 0..<side { for c in 0..<side { set(r, c, 1, -1) } }
        var points: [SIMD3<Float>] = [SIMD3(20.5 / 64, 10.2 / 64, 0.3), SIMD3(0.5, 0.5, 0.1)]
        let ok = heatmap.withUnsafeBufferPointer {
            refineLandmarksFromHeatmap(&points, heatmap: $0, height: side, width: side, channels: channels)
        }
        #expect(ok)
        // The mean of columns 20 and 22 is 21, row 10, over the width (the tiny rest of the window barely counts).
        #expect(close(points[0].x, 21.0 / 64, 1e-4) && close(points[0].y, 10.0 / 64, 1e-4) && points[0].z == 0.3)
        // sigmoid(-1) < 0.5: not refined.
        #expect(points[1] == SIMD3(0.5, 0.5, 0.1))
        // Slightly left of the heatmap truncates to column 0 (C++'s conversion) and is refined, to the
        // peak at column 1; far left stays.
        var edge: [SIMD3<Float>] = [SIMD3(-0.005, 10.0 / 64, 0), SIMD3(-0.5, 0.5, 0)]
        _ = heatmap.withUnsafeBufferPointer {
            refineLandmarksFromHeatmap(&edge, heatmap: $0, height: side, width: side, channels: channels)
        }
        #expect(close(edge[0].x, 1.0 / 64, 1e-4) && edge[1] == SIMD3(-0.5, 0.5, 0))
        // One channel per landmark, or nothing changes.
        var three: [SIMD3<Float>] = [.zero, .zero, .zero]
        #expect(
            !heatmap.withUnsafeBufferPointer {
                refineLandmarksFromHeatmap(&three, heatmap: $0, height: side, width: side, channels: channels)
            })
    }

    @Test func warpsMasksAsOpenCVDoesWithAZeroBorder() {
        // A 4×4 ramp; the identity warp to 4×4 gives it back.
        let source: [Float] = (0..<16).map { Float($0) / 16 }
        let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let same = source.withUnsafeBufferPointer {
            warpAffineBilinear($0, sourceWidth: 4, sourceHeight: 4, matrix: identity, outputWidth: 4, outputHeight: 4)
        }
        #expect(same == source)
        // Doubling the size samples half-pixel steps: output (1, 0) is halfway between source (0, 0) and (1, 0).
        let double = source.withUnsafeBufferPointer {
            warpAffineBilinear($0, sourceWidth: 4, sourceHeight: 4, matrix: identity, outputWidth: 8, outputHeight: 8)
        }
        #expect(double.count == 64 && close(double[1], (source[0] + source[1]) / 2))
        // The last column blends with the zero outside.
        #expect(close(double[7], source[3] / 2))
        // Shifted wholly outside: zero.
        let away: [Float] = [1, 0, 0, 5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let empty = source.withUnsafeBufferPointer {
            warpAffineBilinear($0, sourceWidth: 4, sourceHeight: 4, matrix: away, outputWidth: 4, outputHeight: 4)
        }
        #expect(empty.allSatisfy { $0 == 0 })
        // The inverse of a crop matrix maps back; a singular one has none.
        let crop: [Float] = [0.5, 0, 0, 0.25, 0, 0.25, 0, 0.5, 0, 0, 0.5, 0, 0, 0, 0, 1]
        let inverse = inverseAffineMatrix(crop)!
        #expect(close(inverse[0], 2) && close(inverse[3], -0.5) && close(inverse[5], 4) && close(inverse[7], -2))
        #expect(inverseAffineMatrix([Float](repeating: 0, count: 16)) == nil)
    }

    @Test func jointAnglesAreTheAnglesAtTheMiddleLandmark() {
        #expect(close(PoseJoint.angle(SIMD3(1, 0, 0), .zero, SIMD3(0, 0, 1))!, 90, 1e-4))
        #expect(close(PoseJoint.angle(SIMD3(-1, 0, 0), .zero, SIMD3(2, 0, 0))!, 180, 1e-4))
        #expect(close(PoseJoint.angle(SIMD3(1, 1, 0), .zero, SIMD3(1, 0, 0))!, 45, 1e-4))
        #expect(PoseJoint.angle(.zero, .zero, SIMD3(1, 0, 0)) == nil)
        // A body with a straight left arm and a right elbow bent square.
        var body = [SIMD3<Float>](repeating: .zero, count: 33)
        body[11] = SIMD3(0, 0, 0)
        body[13] = SIMD3(0, 1, 0)
        body[15] = SIMD3(0, 2, 0)
        body[12] = SIMD3(1, 0, 0)
        body[14] = SIMD3(1, 1, 0)
        body[16] = SIMD3(2, 1, 0)
        let angles = PoseJoint.angles(body)
        #expect(close(angles[.leftElbow]!, 180, 1e-4) && close(angles[.rightElbow]!, 90, 1e-4))
        // Joints with a zero-length segment are left out; too few landmarks give none.
        #expect(angles[.leftKnee] == nil)
        #expect(PoseJoint.angles(Array(body.prefix(20))).isEmpty)
        #expect(PoseJoint.allCases.count == 12)
    }
}

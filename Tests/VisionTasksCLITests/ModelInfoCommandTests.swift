import FixtureSupport
import Foundation
import Testing

/// `vision-tasks model info`, run as a process in the repository root.
@Suite
struct ModelInfoCommandTests {
    /// Runs the built `vision-tasks` with `arguments` in the repository root; returns exit status,
    /// standard output and error.
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let run = try CLIRun.run(arguments, in: CLIRun.root)
        return (run.status, run.stdout, run.stderr)
    }

    @Test func showsAModelInsideABundle() throws {
        let result = try Self.run([
            "model", "info", "models/face_landmarker.task", "--entry", "face_landmarks_detector.tflite",
        ])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("inputs:\n  0: input_12 [1, 256, 256, 3] float32"))
        #expect(result.out.contains("  0: Identity [1, 1, 1, 1434] float32"))
        #expect(result.out.contains("  DEQUANTIZE: 251\n"))
        #expect(result.out.contains("normalization mean [0.0] std [255.0]"))
        // Labels that cannot name an output's values are flagged: Google's hand landmark metadata lists handedness
        // first, where the graph's output 0 is the 63 landmark values.
        let hands = try Self.run([
            "model", "info", "models/hand_landmarker.task", "--entry", "hand_landmarks_detector.tflite",
        ])
        #expect(
            hands.out.contains(
                "output 0 handedness: 2 labels (Left, Right); they do not fit the graph's output 0 ([1, 63])"),
            "\(hands.out)")
    }

    @Test func listsNestedBundlesAndFindsNestedEntries() throws {
        let listing = try Self.run(["model", "info", "models/operations.task"])
        #expect(listing.status == 0)
        #expect(
            listing.out.contains(
                "  hand_gesture_recognizer.task (644166 bytes)\n    gesture_embedder.tflite (628312 bytes)"))
        let nested = try Self.run([
            "model", "info", "models/operations.task", "--entry",
            "hand_gesture_recognizer.task/custom_gesture_classifier.tflite",
        ])
        #expect(nested.status == 0)
        #expect(
            nested.out.contains(
                "output 0 scores: 9 labels (none, 0, add, clear, divide, equal, minus, multiply, ...)\n"))
        let byName = try Self.run(["model", "info", "models/operations.task", "--entry", "gesture_embedder.tflite"])
        #expect(byName.out.contains("  0: hand [1, 21, 3] float32\n  1: handedness [1, 1] float32"))
    }

    @Test func errorsAreClearAndExitNonZero() throws {
        let missing = try Self.run(["model", "info", "models/nope.tflite"])
        #expect(missing.status != 0)
        #expect(missing.err.contains("File not found: models/nope.tflite"))
        let noEntry = try Self.run(["model", "info", "models/hand_landmarker.task", "--entry", "palm.tflite"])
        #expect(noEntry.status != 0)
        #expect(noEntry.err.contains("has no entry matching \"palm.tflite\""))
        let notABundle = try Self.run(["model", "info", "models/blaze_face_short_range.tflite", "--entry", "x"])
        #expect(notABundle.status != 0)
        #expect(notABundle.err.contains("applies only to .task bundles"))
    }
}

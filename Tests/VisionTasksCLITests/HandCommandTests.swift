import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// `vision-tasks gesture-recognizer` and `hand-landmarker`, run as a user runs them (the binary
/// `swift build` puts beside the tests).
@Suite
struct HandCommandTests {
    private func run(_ arguments: [String]) throws -> (lines: [String], status: Int32, stderr: String) {
        let run = try CLIRun.run(arguments)
        return (run.outputLines, run.status, run.stderr)
    }

    private func model(_ name: String) -> String { CLIRun.models.appendingPathComponent(name).path }

    @Test func gestureRecognizerPrintsThumbUpAndReportsABadInput() throws {
        let thumb = CLIRun.fixtures.appendingPathComponent("hand_thumb_up.jpg").path
        let missing = "/no/such/hand.jpg"
        let (lines, status, _) = try run([
            "gesture-recognizer", "--model", model("gesture_recognizer.task"),
            thumb, missing,
        ])
        #expect(status == 1)
        #expect(lines.count == 2)
        struct Line: Decodable {
            let input: String
            let result: GestureRecognizerResult?
            let error: String?
        }
        let parsed = try lines.map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let result = try #require(parsed.first?.result)
        #expect(result.gestures.first?.first?.categoryName == "Thumb_Up")
        #expect(result.gestures.first?.first?.index == -1)
        #expect(result.landmarks.first?.count == 21 && result.worldLandmarks.first?.count == 21)
        #expect(lines[0].contains(#""categoryName":"Thumb_Up""#))
        #expect(lines[1] == #"{"input":"\#(missing)","error":"File not found: \#(missing)"}"#)
    }

    @Test func handLandmarkerPrintsLandmarksAndRejectsBadOptions() throws {
        let thumb = CLIRun.fixtures.appendingPathComponent("hand_thumb_up.jpg").path
        let (lines, status, _) = try run([
            "hand-landmarker", "--model", model("hand_landmarker.task"),
            "--num-hands", "2", thumb,
        ])
        #expect(status == 0)
        struct Line: Decodable {
            let input: String
            let result: HandLandmarkerResult
        }
        let line = try JSONDecoder().decode(Line.self, from: Data((lines.first ?? "").utf8))
        #expect(line.result.landmarks.count == 1 && line.result.handedness.first?.first?.categoryName == "Left")
        let bad = try run([
            "gesture-recognizer", "--model", model("gesture_recognizer.task"),
            "--canned-gestures-allowlist", "Thumb_Up", "--canned-gestures-denylist", "None", thumb,
        ])
        #expect(bad.status == 1 && bad.lines.isEmpty, "a task's rejection is a run-time failure, not a usage error")
        #expect(bad.stderr.hasPrefix("error: ") && bad.stderr.contains("mutually exclusive"), "\(bad.stderr)")
    }
}

import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// `vision-tasks face-detector`, run as a user runs it: one JSON line per input, the library's
/// result exactly (LibraryResults), errors as lines and options in kebab case.
@Suite
struct FaceDetectorCommandTests {
    static let model = "blaze_face_short_range.tflite"
    static let modelPath = CLIRun.models.appendingPathComponent(model).path

    /// The library's result for the image at `path`.
    static func detect(_ path: String, confidence: Float = 0.5, suppression: Float = 0.3) throws -> FaceDetectorResult {
        let options = FaceDetectorOptions(baseOptions: LibraryResults.baseOptions(model)) {
            $0.minDetectionConfidence = confidence
            $0.minSuppressionThreshold = suppression
        }
        return try FaceDetector(options: options).detect(image: MPImage(contentsOfFile: path))
    }

    @Test func printsOneJSONLinePerImageAndFailsAtTheEndOnABadOne() throws {
        let good = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        let composite = Fixture.path("references/face_detector/composite.png")
        let missing = "/no/such/photo.jpg"
        let run = try CLIRun.run([
            "face-detector", "--model", Self.modelPath, "--threads", "1", good, missing, composite,
        ])
        let lines = run.outputLines
        #expect(run.status == 1)
        try #require(lines.count == 3)
        // MediaPipe's box for the astronaut (references/face_detector/images.json).
        #expect(
            lines[0].hasPrefix(
                #"{"input":"\#(good)","result":{"detections":[{"boundingBox":{"height":95,"originX":177,"#))
        #expect(lines[0] == (try LibraryResults.line(input: good, result: Self.detect(good))))
        #expect(lines[1] == #"{"input":"\#(missing)","error":"File not found: \#(missing)"}"#)
        #expect(lines[2] == (try LibraryResults.line(input: composite, result: Self.detect(composite))))
    }

    @Test func takesTheOptionsInKebabCase() throws {
        let composite = Fixture.path("references/face_detector/composite.png")
        let run = try CLIRun.run([
            "face-detector", "--model", Self.modelPath,
            "--min-detection-confidence", "0.3", "--min-suppression-threshold", "0.3",
            "--threads", "1", composite,
        ])
        #expect(run.status == 0)
        // MediaPipe keeps a third face (score 0.33) at 0.3 that 0.5 drops (references/face_detector/images.json).
        let expected = try Self.detect(composite, confidence: 0.3, suppression: 0.3)
        #expect(expected.detections.count == 3)
        #expect(run.outputLines == [try LibraryResults.line(input: composite, result: expected)])
    }

    @Test func rejectsAnOptionOutOfRangeAsARunTimeFailure() throws {
        // Well formed but rejected by the task: exit 1 and one line naming the option (not usage's 64).
        let run = try CLIRun.run([
            "face-detector", "--model", Self.modelPath, "--min-detection-confidence", "1.5",
            CLIRun.fixtures.appendingPathComponent("astronaut.png").path,
        ])
        #expect(run.status == 1)
        #expect(run.outputLines.isEmpty)
        #expect(
            run.stderr == "error: Invalid option --min-detection-confidence: must be in [0, 1], got 1.5\n",
            "\(run.stderr)")
    }
}

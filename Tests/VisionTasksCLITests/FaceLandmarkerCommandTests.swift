import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// `vision-tasks face-landmarker` run as a process: one JSON line per input, the library's result
/// exactly (LibraryResults), errors as lines, a non-zero exit at the end.
@Suite
struct FaceLandmarkerCommandTests {
    static let model = "face_landmarker.task"
    static let modelPath = CLIRun.models.appendingPathComponent(model).path

    @Test func printsTheLibrarysFacesAsJSONLines() throws {
        let good = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        let missing = "/no/such/face.png"
        let run = try CLIRun.run([
            "face-landmarker", "--model", Self.modelPath, "--num-faces", "2",
            "--output-face-blendshapes", "--output-facial-transformation-matrixes", "--threads", "1", good, missing,
        ])
        let lines = run.outputLines
        #expect(run.status == 1)
        try #require(lines.count == 2)
        #expect(lines[1] == #"{"input":"\#(missing)","error":"File not found: \#(missing)"}"#)
        #expect(
            lines[0].contains(#""categoryName":"_neutral""#) && lines[0].contains(#""rows":4"#)
                && lines[0].contains(#""visibility":null"#) && lines[0].contains(#""timestampInMilliseconds":0"#))
        let options = FaceLandmarkerOptions(baseOptions: LibraryResults.baseOptions(Self.model)) {
            $0.numFaces = 2
            $0.outputFaceBlendshapes = true
            $0.outputFacialTransformationMatrixes = true
        }
        let result = try FaceLandmarker(options: options).detect(image: MPImage(contentsOfFile: good))
        #expect(
            result.faceLandmarks.count == 1 && result.faceBlendshapes.count == 1
                && result.facialTransformationMatrixes.count == 1)
        #expect(lines[0] == (try LibraryResults.line(input: good, result: result)))
    }

    @Test func rejectsBadOptionsBeforeAnyImage() throws {
        let good = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        let run = try CLIRun.run(["face-landmarker", "--model", Self.modelPath, "--num-faces", "0", good])
        #expect(
            run.status == 1 && run.outputLines.isEmpty, "a task's rejection is a run-time failure, not a usage error")
        #expect(
            run.stderr.hasPrefix("error: Invalid option --num-faces") && run.stderr.filter { $0 == "\n" }.count == 1,
            "\(run.stderr)")
    }
}

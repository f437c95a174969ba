import FixtureSupport
import Foundation
import Testing
@testable import VisionTasks

/// `vision-tasks face-landmarker` run as a process: one JSON line per input, errors as lines, a
/// non-zero exit at the end, MediaPipe's numbers (issue #4's tolerances: landmarks within 5e-3,
/// blendshapes within 1e-2, matrix rotation 1e-2 and translation 0.5).
@Suite(.enabled(if: Fixture.haveModels))
struct FaceLandmarkerCommandTests {
    @Test func printsMediaPipesFacesAsJSONLines() throws {
        let good = FaceLandmarkerFixtures.root.appendingPathComponent("Tests/Fixtures/images/astronaut.png").path
        let missing = "/no/such/face.png"
        let (lines, status, _) = try VisionTasksCLI.run([
            "face-landmarker", "--model", FaceLandmarkerFixtures.modelPath, "--num-faces", "2",
            "--output-face-blendshapes", "--output-facial-transformation-matrixes", "--threads", "1", good, missing])
        #expect(status == 1)
        try #require(lines.count == 2)
        #expect(lines[1] == #"{"input":"\#(missing)","error":"File not found: \#(missing)"}"#)
        #expect(lines[0].contains(#""categoryName":"_neutral""#) && lines[0].contains(#""rows":4"#)
                && lines[0].contains(#""visibility":null"#) && lines[0].contains(#""timestampInMilliseconds":0"#))
        struct Line: Decodable { let input: String; let result: FaceLandmarkerResult }
        let result = try JSONDecoder().decode(Line.self, from: Data(lines[0].utf8)).result
        let reference = try #require(try FaceLandmarkerFixtures.load("astronaut").results.first?.faces.first)
        try #require(result.faceLandmarks.count == 1)
        for (ours, theirs) in zip(result.faceLandmarks[0], reference.points) {
            #expect(abs(ours.x - theirs.x) <= 5e-3 && abs(ours.y - theirs.y) <= 5e-3)
        }
        for (ours, theirs) in zip(result.faceBlendshapes[0].categories, reference.blendshapes) {
            #expect(abs(ours.score - theirs) <= 1e-2)
        }
        let m = result.facialTransformationMatrixes[0]
        #expect(abs(m[0, 0] - reference.matrix[0]) <= 1e-2 && abs(m[2, 3] - reference.matrix[11]) <= 0.5)
    }

    @Test func rejectsBadOptionsBeforeAnyImage() throws {
        let good = FaceLandmarkerFixtures.root.appendingPathComponent("Tests/Fixtures/images/astronaut.png").path
        let (lines, status, stderr) = try VisionTasksCLI.run([
            "face-landmarker", "--model", FaceLandmarkerFixtures.modelPath, "--num-faces", "0", good])
        #expect(status == 1 && lines.isEmpty, "a task's rejection is a run-time failure, not a usage error")
        #expect(stderr.hasPrefix("error: Invalid option --num-faces") && stderr.filter { $0 == "\n" }.count == 1, "\(stderr)")
    }
}

import Foundation
import Testing
import VisionTasks

/// `vision-tasks face-detector`, run as a user runs it (the binary `swift build` puts beside the tests).
@Suite struct FaceDetectorCommandTests {
    @Test func printsOneJSONLinePerImageAndFailsAtTheEndOnABadOne() throws {
        let good = FaceDetectorSupport.imagePath("astronaut.png")
        let composite = FaceDetectorSupport.imagePath("references/face_detector/composite.png")
        let missing = "/no/such/photo.jpg"
        let (lines, status, _) = try VisionTasksCLI.run(["face-detector", "--model", FaceDetectorSupport.modelPath,
                                          good, missing, composite])
        #expect(status == 1)
        #expect(lines.count == 3)
        struct Line: Decodable { let input: String; let result: FaceDetectorResult?; let error: String? }
        let parsed = try lines.map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        #expect(parsed.map(\.input) == [good, missing, composite])
        #expect(lines[0].hasPrefix(#"{"input":"\#(good)","result":{"detections":[{"boundingBox":{"height":95,"originX":177,"#))
        #expect(lines[1] == #"{"input":"\#(missing)","error":"File not found: \#(missing)"}"#)
        let references = try FaceDetectorSupport.imageCases().filter {
            $0.quarterTurnsCCW == 0 && $0.pixelFormat == "rgb8" && $0.minDetectionConfidence == 0.5
                && $0.minSuppressionThreshold == 0.3
        }
        for (line, name) in [(parsed[0], "astronaut.png"), (parsed[2], "references/face_detector/composite.png")] {
            let reference = try #require(references.first { $0.image == name })
            FaceDetectorSupport.expectMatches(try #require(line.result), reference.result, "CLI \(name)")
        }
    }

    @Test func takesTheOptionsInKebabCase() throws {
        let good = FaceDetectorSupport.imagePath("woman_sitting.jpg")
        let (lines, status, _) = try VisionTasksCLI.run(["face-detector", "--model", FaceDetectorSupport.modelPath,
                                          "--min-detection-confidence", "0.3", "--min-suppression-threshold", "0.3",
                                          "--threads", "1", good])
        #expect(status == 0)
        let reference = try #require(try FaceDetectorSupport.imageCases().first {
            $0.image == "woman_sitting.jpg" && $0.minDetectionConfidence == 0.3 && $0.pixelFormat == "rgb8"
        })
        struct Line: Decodable { let result: FaceDetectorResult }
        let line = try JSONDecoder().decode(Line.self, from: Data(try #require(lines.first).utf8))
        FaceDetectorSupport.expectMatches(line.result, reference.result, "CLI woman_sitting.jpg at 0.3")
    }

    @Test func rejectsAnOptionOutOfRangeAsARunTimeFailure() throws {
        // Well formed but rejected by the task: exit 1 and one line naming the option (not usage's 64).
        let (lines, status, stderr) = try VisionTasksCLI.run(["face-detector", "--model", FaceDetectorSupport.modelPath,
                                               "--min-detection-confidence", "1.5",
                                               FaceDetectorSupport.imagePath("astronaut.png")])
        #expect(status == 1)
        #expect(lines.isEmpty)
        #expect(stderr == "error: Invalid option --min-detection-confidence: must be in [0, 1], got 1.5\n", "\(stderr)")
    }
}

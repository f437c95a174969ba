import FixtureSupport
import Foundation
import Testing

/// Runs the compiled iOS-guide snippets (examples/ios-guide-snippets): each task in its three modes,
/// the live-stream results through the guides' `NSObject` delegate classes. Counts are MediaPipe's
/// for these pictures (references/face_detector, references/hands/image_refs.json,
/// references/pose/image_refs.json, references/segmenter/manifest.json): exact.
@Suite struct IOSGuideSnippetsTests {
    @Test func snippetsRunEveryTaskInEveryMode() throws {
        let output = try Tool.run(
            CLIRun.built("ios-guide-snippets"),
            [
                CLIRun.models.path, CLIRun.fixtures.appendingPathComponent("astronaut.png").path,
                CLIRun.fixtures.appendingPathComponent("hand_thumb_up.jpg").path,
                CLIRun.fixtures.appendingPathComponent("woman_sitting.jpg").path,
            ])
        let text = output.stdout
        #expect(output.status == 0, "\(text)\(output.stderr)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(text)")
        #expect(lines.first == "face detector: image 1, video 1, live [1]")
        #expect(
            lines.dropFirst().first
                == "face landmarker: image 478 landmarks, video 1 faces, live [1], lips 40 connections")
        #expect(lines.dropFirst(2).first == "hand landmarker: image 1 hands, video 1, live [1], 21 connections")
        #expect(lines.dropFirst(3).first == "gesture recognizer: image Thumb_Up, video Thumb_Up, live [\"Thumb_Up\"]")
        #expect(
            lines.dropFirst(4).first == "pose landmarker: image 33 landmarks, video 1 poses, live [1], 35 connections")
        // 175,481 person pixels: MediaPipe's category mask of the same picture (its personFraction × 960 × 640, in
        // Tests/Fixtures/references/segmenter/manifest.json).
        #expect(
            lines.dropFirst(5).first
                == "image segmenter: image 960x640 category mask, 175481 person pixels, video 175481, live [175481], "
                + "confidence masks 0")
    }
}

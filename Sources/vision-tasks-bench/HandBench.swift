import ArgumentParser
import Foundation
import VisionTasks

/// `vision-tasks-bench hand-landmarker`: `HandLandmarker.detect(image:)` on one image, or
/// `detect(videoFrame:timestampInMilliseconds:)` on it as a stream of frames (tracking on).
struct HandLandmarkerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hand-landmarker",
        abstract: "Time HandLandmarker per image (image mode) or per video frame (video mode).")
    @OptionGroup var options: BenchOptions
    @Option(help: "Hands to find.")
    var numHands = 1

    func run() throws {
        let landmarker = try HandLandmarker(options: HandLandmarkerOptions(
            baseOptions: options.baseOptions, runningMode: options.runningMode, numHands: numHands))
        try options.report(task: "hand-landmarker", still: { _ = try landmarker.detect(image: $0) },
                           frame: { _ = try landmarker.detect(videoFrame: $0, timestampInMilliseconds: $1) })
    }
}

/// `vision-tasks-bench gesture-recognizer`: `GestureRecognizer.recognize(image:)` on one image, or
/// `recognize(videoFrame:timestampInMilliseconds:)` on it as a stream of frames (tracking on).
struct GestureRecognizerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-recognizer",
        abstract: "Time GestureRecognizer per image (image mode) or per video frame (video mode).")
    @OptionGroup var options: BenchOptions
    @Option(help: "Hands to find.")
    var numHands = 1

    func run() throws {
        let recognizer = try GestureRecognizer(options: GestureRecognizerOptions(
            baseOptions: options.baseOptions, runningMode: options.runningMode, numHands: numHands))
        try options.report(task: "gesture-recognizer", still: { _ = try recognizer.recognize(image: $0) },
                           frame: { _ = try recognizer.recognize(videoFrame: $0, timestampInMilliseconds: $1) })
    }
}

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
    @Flag(help: "Time video frames (detect(videoFrame:timestampInMilliseconds:)) instead of images.")
    var video = false
    @Option(help: "Hands to find.")
    var numHands = 1

    func run() throws {
        let landmarker = try HandLandmarker(options: HandLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetPath: options.model, numThreads: options.threads),
            runningMode: video ? .video : .image, numHands: numHands))
        let image = try MPImage(contentsOfFile: options.image)
        var timestamp = 0
        try options.report(task: video ? "hand-landmarker-video" : "hand-landmarker") {
            timestamp += 33
            _ = video ? try landmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)
                      : try landmarker.detect(image: image)
        }
    }
}

/// `vision-tasks-bench gesture-recognizer`: `GestureRecognizer.recognize(image:)` on one image, or
/// `recognize(videoFrame:timestampInMilliseconds:)` on it as a stream of frames (tracking on).
struct GestureRecognizerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-recognizer",
        abstract: "Time GestureRecognizer per image (image mode) or per video frame (video mode).")
    @OptionGroup var options: BenchOptions
    @Flag(help: "Time video frames (recognize(videoFrame:timestampInMilliseconds:)) instead of images.")
    var video = false
    @Option(help: "Hands to find.")
    var numHands = 1

    func run() throws {
        let recognizer = try GestureRecognizer(options: GestureRecognizerOptions(
            baseOptions: BaseOptions(modelAssetPath: options.model, numThreads: options.threads),
            runningMode: video ? .video : .image, numHands: numHands))
        let image = try MPImage(contentsOfFile: options.image)
        var timestamp = 0
        try options.report(task: video ? "gesture-recognizer-video" : "gesture-recognizer") {
            timestamp += 33
            _ = video ? try recognizer.recognize(videoFrame: image, timestampInMilliseconds: timestamp)
                      : try recognizer.recognize(image: image)
        }
    }
}

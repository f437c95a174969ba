import ArgumentParser
import Foundation
import VisionTasks

/// A hand task `vision-tasks-bench` times: the Hand Landmarker or the Gesture Recognizer, made
/// from the shared options and a hand count.
protocol HandBenchTask: CoreBackedTask {
    /// The subcommand, also the task name of the report ("hand-landmarker").
    static var benchName: String { get }
    /// The task in the options' model and running mode, finding at most `numHands` hands.
    static func make(_ options: BenchOptions, numHands: Int) throws -> Self
}

/// `vision-tasks-bench hand-landmarker` and `gesture-recognizer`: `HandLandmarker.detect(image:)`
/// or `GestureRecognizer.recognize(image:)` on one image, or their video-mode call on it as a
/// stream of frames (tracking on).
struct HandTaskBench<Task: HandBenchTask>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Task.benchName,
            abstract: "Time \(Task.self) per image (image mode) or per video frame (video mode).")
    }
    @OptionGroup var options: BenchOptions
    @Option(help: "Hands to find.")
    var numHands = 1

    func run() throws {
        try options.report(task: Task.benchName, timing: try Task.make(options, numHands: numHands))
    }
}

extension HandLandmarker: HandBenchTask {
    static var benchName: String { "hand-landmarker" }
    static func make(_ options: BenchOptions, numHands: Int) throws -> Self {
        try Self(
            options: HandLandmarkerOptions(
                baseOptions: options.baseOptions, runningMode: options.runningMode,
                numHands: numHands))
    }
}

extension GestureRecognizer: HandBenchTask {
    static var benchName: String { "gesture-recognizer" }
    static func make(_ options: BenchOptions, numHands: Int) throws -> Self {
        try Self(
            options: GestureRecognizerOptions(
                baseOptions: options.baseOptions, runningMode: options.runningMode,
                numHands: numHands))
    }
}

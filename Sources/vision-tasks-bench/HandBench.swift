import ArgumentParser
import Foundation
import VisionTasks

/// `vision-tasks-bench hand-landmarker` and `gesture-recognizer`: `HandLandmarker.detect(image:)`
/// or `GestureRecognizer.recognize(image:)` on one image, or their video-mode call on it as a
/// stream of frames (tracking on); the task is made from the shared options and a hand count.
struct HandTaskBench<Task: DescribedTask>: ParsableCommand where Task.Options: HandTrackingOptions {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Task.taskDescription.name,
            abstract: "Time \(Task.self) per image (image mode) or per video frame (video mode).")
    }
    @OptionGroup var options: BenchOptions
    @Option(help: "Hands to find.")
    var numHands = 1

    func run() throws {
        let taskOptions = Task.Options(baseOptions: options.baseOptions, runningMode: options.runningMode)
        taskOptions.numHands = numHands
        try options.report(task: Task.taskDescription.name, timing: try Task(options: taskOptions))
    }
}

import ArgumentParser
import Foundation
import VisionTasks

/// `vision-tasks-bench pose-landmarker`: `PoseLandmarker.detect(image:)` on one image, or
/// `detect(videoFrame:timestampInMilliseconds:)` on it as a stream of frames (tracking on).
struct PoseLandmarkerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose-landmarker",
        abstract: "Time PoseLandmarker per image (image mode) or per video frame (video mode).")
    @OptionGroup var options: BenchOptions
    @Option(help: "People to find.")
    var numPoses = 1
    @Flag(help: "Also output each person's segmentation mask (the image's size).")
    var outputSegmentationMasks = false

    func run() throws {
        let landmarker = try PoseLandmarker(
            options: PoseLandmarkerOptions(
                baseOptions: options.baseOptions, runningMode: options.runningMode, numPoses: numPoses,
                outputSegmentationMasks: outputSegmentationMasks))
        try options.report(task: "pose-landmarker", timing: landmarker)
    }
}

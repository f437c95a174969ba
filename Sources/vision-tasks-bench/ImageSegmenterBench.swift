import ArgumentParser
import Foundation
import VisionTasks

/// `vision-tasks-bench image-segmenter`: `ImageSegmenter.segment(image:)` on one image, or
/// `segment(videoFrame:timestampInMilliseconds:)` on it as a stream of frames, with the masks asked for.
struct ImageSegmenterBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image-segmenter",
        abstract: "Time ImageSegmenter per image (image mode) or per video frame (video mode).")
    @OptionGroup var options: BenchOptions
    @Flag(help: "Also output the category mask (the confidence masks are always output).")
    var outputCategoryMask = false

    func run() throws {
        let segmenter = try ImageSegmenter(
            options: ImageSegmenterOptions(
                baseOptions: options.baseOptions, runningMode: options.runningMode,
                shouldOutputConfidenceMasks: true, shouldOutputCategoryMask: outputCategoryMask))
        try options.report(task: "image-segmenter", timing: segmenter)
    }
}

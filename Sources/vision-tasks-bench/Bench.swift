import ArgumentParser
import Foundation
import VisionCore
import VisionTasks

/// `vision-tasks-bench`: end-to-end task latency, for comparing with MediaPipe's Python API
/// (tools/bench/bench.py runs both sides in one go). Prints one JSON object per run.
@main
struct VisionTasksBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vision-tasks-bench",
        abstract: "Time VisionTasks end to end (decoded image in, result out).",
        subcommands: [
            TaskBench<FaceDetector>.self, TaskBench<FaceLandmarker>.self, TaskBench<HandLandmarker>.self,
            TaskBench<GestureRecognizer>.self, TaskBench<PoseLandmarker>.self, TaskBench<ImageSegmenter>.self,
        ])
}

/// Options every task benchmark shares.
struct BenchOptions: ParsableArguments {
    @Option(help: "The model file.")
    var model: String
    @Option(help: "Timed runs.")
    var runs = 200
    @Option(help: "Untimed runs first.")
    var warmup = 20
    @Option(help: "Inference threads.")
    var threads = BaseOptions.defaultNumThreads
    @Flag(
        help:
            "Time video frames (the task's video-mode call on the image as a stream, timestamps 33 ms apart, tracking on) instead of images."
    )
    var video = false
    @Argument(help: "The image (decoded once, outside the timing).")
    var image: String

    /// The model and thread count as `BaseOptions`.
    var baseOptions: BaseOptions { BaseOptions(modelAssetPath: model, numThreads: threads) }
    /// `.video` with `--video`, else `.image`.
    var runningMode: RunningMode { video ? .video : .image }

    /// Decodes the image, then times `timed` on it: its image-mode call (`detect(image:)`,
    /// `recognize(image:)`) or, with `--video`, its video-mode call on timestamps 33 ms apart; the
    /// task is reported as `task` or `task-video`.
    func report(task: String, timing timed: some CoreBackedTask) throws {
        let picture = try MPImage(contentsOfFile: image)
        var timestamp = 0
        try report(task: video ? task + "-video" : task) {
            timestamp += 33
            if video {
                _ = try timed.processVideoFrame(picture, timestampInMilliseconds: timestamp)
            } else {
                _ = try timed.processImage(picture)
            }
        }
    }

    /// Times `body` `runs` times after `warmup` runs and prints {"task", "medianMs", "p90Ms",
    /// "cpuMsPerCall", ...}: wall-clock latency and the process's CPU time (all threads) over the
    /// timed runs, per run (`Timing.measure`).
    func report(task: String, _ body: () throws -> Void) throws {
        let timed = try Timing.measure(runs: runs, warmup: warmup, body)
        print(
            #"{"task":"\#(task)","image":"\#(image)","runs":\#(max(1, runs)),"threads":\#(threads),"#
                + #""medianMs":\#(timed.medianMs),"p90Ms":\#(timed.p90Ms),"cpuMsPerCall":\#(timed.cpuMsPerCall)}"#)
    }
}

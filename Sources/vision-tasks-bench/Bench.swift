import ArgumentParser
import Dispatch
import Foundation
import VisionTasks

/// `vision-tasks-bench`: end-to-end task latency, for comparing with MediaPipe's Python API
/// (tools/bench/bench.py runs both sides in one go). Prints one JSON object per run.
@main
struct VisionTasksBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vision-tasks-bench",
        abstract: "Time VisionTasks end to end (decoded image in, result out).",
        subcommands: [
            FaceDetectorBench.self, FaceLandmarkerBench.self, HandTaskBench<HandLandmarker>.self,
            HandTaskBench<GestureRecognizer>.self, PoseLandmarkerBench.self,
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
    /// timed runs, per run. Whole-loop, not per call: Linux adds a running thread's time to the
    /// process clock only at ticks and switches, so one call's reading misses the workers'.
    func report(task: String, _ body: () throws -> Void) throws {
        for _ in 0..<warmup { try body() }
        var times: [Double] = []
        times.reserveCapacity(runs)
        let cpuStart = processCPUTime()
        for _ in 0..<max(1, runs) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        let cpuPerCall = (processCPUTime() - cpuStart) * 1e3 / Double(times.count)
        times.sort()
        let median = times[times.count / 2], p90 = times[min(times.count - 1, times.count * 9 / 10)]
        print(
            #"{"task":"\#(task)","image":"\#(image)","runs":\#(times.count),"threads":\#(threads),"#
                + #""medianMs":\#(median),"p90Ms":\#(p90),"cpuMsPerCall":\#(cpuPerCall)}"#)
    }
}

/// CPU time used by the whole process so far, in seconds.
private func processCPUTime() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// `vision-tasks-bench face-detector`: `FaceDetector.detect(image:)` on one image, or
/// `detect(videoFrame:timestampInMilliseconds:)` on it as a stream of frames.
struct FaceDetectorBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-detector",
        abstract: "Time FaceDetector per image (image mode) or per video frame (video mode).")
    @OptionGroup var options: BenchOptions

    func run() throws {
        let detector = try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: options.baseOptions,
                runningMode: options.runningMode))
        try options.report(task: "face-detector", timing: detector)
    }
}

import ArgumentParser
import Dispatch
import Foundation
import VisionTasks

/// `vision-tasks-bench`: end-to-end task latency, for comparing with MediaPipe's Python API
/// (tools/bench_*.py run both sides in one go). Prints one JSON object per run.
@main
struct VisionTasksBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vision-tasks-bench",
        abstract: "Time VisionTasks end to end (decoded image in, result out).",
        subcommands: [FaceDetectorBench.self, FaceLandmarkerBench.self, HandLandmarkerBench.self,
                      GestureRecognizerBench.self])
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
    @Argument(help: "The image (decoded once, outside the timing).")
    var image: String

    /// Times `body` `runs` times after `warmup` runs and prints {"task", "medianMs", "p90Ms", ...}.
    func report(task: String, _ body: () throws -> Void) throws {
        for _ in 0..<warmup { try body() }
        var times: [Double] = []
        times.reserveCapacity(runs)
        for _ in 0..<max(1, runs) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        let median = times[times.count / 2], p90 = times[min(times.count - 1, times.count * 9 / 10)]
        print(#"{"task":"\#(task)","image":"\#(image)","runs":\#(times.count),"threads":\#(threads),"medianMs":\#(median),"p90Ms":\#(p90)}"#)
    }
}

/// `vision-tasks-bench face-detector`: `FaceDetector.detect(image:)` on one image.
struct FaceDetectorBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "face-detector",
                                                    abstract: "Time FaceDetector.detect(image:).")
    @OptionGroup var options: BenchOptions

    func run() throws {
        let detector = try FaceDetector(options: FaceDetectorOptions(
            baseOptions: BaseOptions(modelAssetPath: options.model, numThreads: options.threads)))
        let image = try MPImage(contentsOfFile: options.image)
        try options.report(task: "face-detector") { _ = try detector.detect(image: image) }
    }
}

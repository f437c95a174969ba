import Foundation
import VideoIO
import VisionRender
import VisionTasks

/// Video mode over a video file: each selected frame goes to the task with its presentation
/// timestamp; one JSON line per frame; `--annotate out.mp4` writes the frames with results drawn.
enum VideoRun {
    /// Processes the video at `path`, writing its lines to `output`; returns false if it or a frame failed.
    static func run<Task: MediaTask>(_ path: String, options: MediaOptions, factory: MediaTaskFactory<Task>,
                                     output: JSONLines) throws -> Bool {
        let failuresBefore = output.failures
        let reader: VideoReader
        do {
            reader = try VideoReader(contentsOfFile: path, startMs: try options.startMs, endMs: try options.endMs)
        } catch {
            output.process(input: path) { () throws -> Task.Result in throw error }
            return false
        }
        let task = try factory.make(.video, nil)
        let rate = reader.info.map { Self.rate($0.frameRate, every: options.every) } ?? "25"
        var writer: VideoWriter?
        let bar = options.showProgress ? reader.info?.frameCount.map { ProgressBar(total: $0, unit: "frames") } : nil
        let started = Date()
        var seen = 0, processed = 0, found = 0
        do {
            while let frame = try reader.nextFrame() {
                seen += 1
                bar?.update(done: frame.index + 1)
                guard (seen - 1) % options.every == 0 else { continue }
                processed += 1
                let image = try frame.image()
                var drawn: Task.Result?
                output.process(input: path, frame: frame.index) { () throws -> Task.Result in
                    let result = try task.detect(videoFrame: image, timestampInMilliseconds: frame.timestampInMilliseconds)
                    found += Task.found(in: result)
                    drawn = result
                    return result
                }
                if let annotate = options.annotate {
                    if writer == nil {
                        writer = try VideoWriter(path: annotate, width: frame.width, height: frame.height, frameRate: rate)
                    }
                    let annotation = try Annotation(pixels: frame.pixels, width: frame.width, height: frame.height, channels: 3)
                    if let drawn { Task.draw(drawn, on: annotation) }
                    try writer?.write(rgb: annotation.rgbPixels())
                }
            }
            try writer?.finish()
        } catch {
            bar?.clear()
            output.process(input: path) { () throws -> Task.Result in throw error }
            return false
        }
        bar?.clear()
        if seen == 0, let start = options.start {
            // Nothing at or after --start: say so rather than end with no line at all.
            let length = reader.info?.durationSeconds.map { String(format: " (%.2f s long)", $0) } ?? ""
            output.process(input: path) { () throws -> Task.Result in
                throw VisionTasksError.invalidOption(name: "--start", reason: "\(start) is past the last frame of \(path)\(length)")
            }
            return false
        }
        let seconds = Date().timeIntervalSince(started)
        Console.error(String(
            format: "summary: %d frames decoded, %d processed, %d %@ found, %d failed, %.1f frames/s\n",
            seen, processed, found, Task.foundNoun, output.failures - failuresBefore, seconds > 0 ? Double(processed) / seconds : 0))
        return output.failures == failuresBefore
    }

    /// The frame rate of every `every`-th frame: "30/1" with 2 → "30/2".
    static func rate(_ frameRate: String, every: Int) -> String {
        let parts = frameRate.split(separator: "/")
        guard let num = parts.first.flatMap({ Int($0) }), num > 0 else { return "25" }
        let den = parts.count > 1 ? Int(parts[1]) ?? 1 : 1
        return "\(num)/\(max(1, den) * every)"
    }
}

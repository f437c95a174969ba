import Foundation
import VisionTasks

/// `--video-list`: video mode over a manifest of videos, one after the other, each with a task of its
/// own (timestamps start again). Each video's frame lines end with its final line,
/// `{"input": …, "video": {"failed": k, "frames": n}}`, or with its error line if it could not be
/// read; a video that fails never stops the others.
enum VideoListRun {
    /// Processes `shard`'s share of `paths`, leaving out those `output`'s file already finished;
    /// returns false if any video or frame failed.
    static func run<Task: DescribedTask>(
        _ paths: [String], problems: [String: String] = [:], options: MediaOptions, shard: Shard?, output: JSONLines,
        factory: MediaTaskFactory<Task>
    ) throws -> Bool {
        let mine = shard.map { shard in paths.filter { shard.contains($0) } } ?? paths
        let todo = mine.filter { !output.sink.finished.contains($0) }
        var failedVideos = 0
        for path in todo {
            if let problem = problems[path] {
                // Its error line is its final line.
                output.process(input: path) { () throws -> Task.TaskResult in
                    throw VisionTasksError.invalidArgument("\(path) \(problem)")
                }
                failedVideos += 1
                continue
            }
            output.begin(input: path)
            let ok = try VideoRun.run(path, options: options, factory: factory, output: output)
            output.finishVideo(input: path)
            if !ok { failedVideos += 1 }
        }
        Console.error(
            "summary: \(todo.count) videos processed, \(mine.count - todo.count) skipped"
                + "\(output.sink.failedEarlier(mine)), \(failedVideos) failed\n")
        return failedVideos == 0 && !mine.contains { output.sink.failedBefore.contains($0) }
    }
}

import Foundation
import VisionTasks

/// `--video-list`: video mode over a manifest of videos, one after the other, each with a task of its
/// own (timestamps start again). Each video's frame lines end with its final line,
/// `{"input": …, "video": {"failed": k, "frames": n}}`, or with its error line if it could not be
/// read; a video that fails never stops the others.
enum VideoListRun {
    /// Processes `shard`'s share of `paths`, leaving out those `output`'s file already finished;
    /// returns false if any video or frame failed. `problems`: why the path at an index cannot be read (a list line
    /// that is not UTF-8); it gets its error line, and is left out only when the file holds an error line of its name
    /// (a finished success of that name is another file's, the name being shown, not its own bytes).
    static func run<Task: DescribedTask>(
        _ paths: [String], problems: [Int: String] = [:], options: MediaOptions, shard: Shard?, output: JSONLines,
        factory: MediaTaskFactory<Task>
    ) throws -> Bool {
        let listed = paths.enumerated().map { (path: $0.element, problem: problems[$0.offset]) }
        let mine = shard.map { shard in listed.filter { shard.contains($0.path) } } ?? listed
        let todo = mine.filter { !output.sink.isFinished($0.path, unreadable: $0.problem != nil) }
        let failedEarlier = mine.filter { output.sink.failedBefore($0.path, unreadable: $0.problem != nil) }.count
        var failedVideos = 0
        for (path, problem) in todo {
            if let problem {
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
                + "\(ResultSink.failedEarlier(failedEarlier)), \(failedVideos) failed\n")
        return failedVideos == 0 && failedEarlier == 0
    }
}

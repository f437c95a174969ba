import Foundation
import VisionTasks

/// Makes task instances in a running mode; live-stream mode passes the results' sink.
struct MediaTaskFactory<Task: DescribedTask> {
    /// `--threads`: the inference threads an instance gets unless capped.
    let threads: Int
    /// Whether `--threads` was given (else several `--jobs` share the cores out).
    let threadsGiven: Bool
    /// Makes an instance; the `Int?`: at most that many inference threads (nil: `--threads`).
    let build: (RunningMode, LiveStreamHandler<Task.TaskResult>?, Int?) throws -> Task

    /// An instance with `--threads` inference threads, or at most `threadsAtMost`.
    func make(_ mode: RunningMode, _ live: LiveStreamHandler<Task.TaskResult>?, threadsAtMost: Int? = nil) throws
        -> Task
    {
        try build(mode, live, threadsAtMost)
    }
}

/// Runs a subcommand's task over what the media and batch options name, printing JSON lines (or,
/// with `--format csv`, one CSV table) to standard output or the `--output` file.
enum MediaRun {
    /// Dispatches to folder/image, manifest, video or live processing; returns false if any input failed.
    static func run<Task: DescribedTask>(_ options: TaskOptions, images: [String], factory: MediaTaskFactory<Task>)
        throws
        -> Bool
    {
        let media = options.media, batch = options.batch
        // A list is read once, here: from standard input (`-`) a second reading finds nothing.
        let videoListing = try batch.videoList.map { try Manifest.read($0, option: "--video-list") }
        let inputListing = try batch.inputList.map { try Manifest.read($0, option: "--input-list") }
        let videoList = videoListing?.paths, inputs = inputListing?.paths ?? images
        let problems = (videoListing ?? inputListing)?.problems ?? [:]
        // The inputs are looked for only when an output file exists already (it could be one of them, or a list), and
        // once: `--output` and `--annotate` may both ask (a folder walk each time, before).
        var found: OutputFiles.InputFiles?
        // A list line that cannot be read names no file: its shown name may be another file's.
        func readable(_ paths: [String]) -> [String] {
            paths.enumerated().filter { problems[$0.offset] == nil }.map(\.element)
        }
        func inputFiles() throws -> OutputFiles.InputFiles {
            if let found { return found }
            let paths: [String]
            if let video = media.video {
                paths = [video]
            } else if let live = media.live {
                paths = [live]
            } else if let videoList, let list = batch.videoList {
                paths = [list] + readable(videoList)
            } else {
                paths = (batch.inputList.map { [$0] } ?? []) + (try FolderRun.expand(readable(inputs)).map(\.path))
            }
            let files = OutputFiles.InputFiles(paths)
            found = files
            return files
        }
        if let path = batch.outputFile, let annotate = media.annotate, OutputFiles.isSameFile(path, annotate) {
            throw VisionTasksError.invalidOption(
                name: "--annotate", reason: "\(annotate) is the --output file too: the results would be lost under it")
        }
        if let path = batch.outputFile, FileManager.default.fileExists(atPath: path) {
            try OutputFiles.checkNotAnInput(path, option: "--output", inputs: try inputFiles())
        }
        if media.video != nil || media.live != nil, let annotate = media.annotate {
            if FileManager.default.fileExists(atPath: annotate) {
                try OutputFiles.checkNotAnInput(annotate, option: "--annotate", inputs: try inputFiles())
            }
            try OutputFiles.checkVideoFile(annotate, option: "--annotate")
        }
        if let masks = media.masks { try OutputFiles.checkFolder(masks, option: "--masks") }
        // Only now is `--output` opened (made, or cut back with --resume): a refusal above leaves it as it was.
        let table = batch.format == .csv ? CSVTable(for: Task.TaskResult.self) : nil
        let output = JSONLines(sink: try batch.makeSink(header: table?.header), table: table)
        if let table { output.sink.writeHeader(table.header) }
        if output.sink.discardedLines > 0, let path = output.sink.path {
            Console.error(
                "resume: removed \(output.sink.discardedLines) line(s) after the last finished input of \(path), to be redone\n"
            )
        }
        // A live source's run stops cleanly on a signal, and finishes its MP4.
        if let live = media.live {
            return try LiveRun.run(live, options: media, factory: factory, output: output)
        }
        // Annotated pictures, masks and MP4s are written through partial files: a run ended by a signal removes them.
        let shard = try batch.selectedShard
        return try Console.endingCleanly {
            if let video = media.video {
                return try VideoRun.run(video, options: media, factory: factory, output: output)
            }
            if let videoList {
                return try VideoListRun.run(
                    videoList, problems: problems, options: media, shard: shard, output: output, factory: factory)
            }
            return try FolderRun.run(
                inputs, problems: problems, options: media, shard: shard, output: output, factory: factory)
        }
    }
}

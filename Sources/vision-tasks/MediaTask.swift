import Foundation
import VisionRender
import VisionTasks

/// One task instance as the shared media options drive it (FaceDetector, FaceLandmarker, ...):
/// its frames go through `VisionTask`'s running-mode methods, so the gesture recognizer's
/// `recognize` names need no forwarding here.
protocol MediaTask: VisionTask where TaskResult: Encodable {
    /// The task's options (`FaceDetectorOptions`, ...).
    associatedtype Options: VisionTaskOptions
    /// Creates the task; throws what the task throws for a bad model or option.
    init(options: Options) throws
    /// How many things (faces, hands) a result found.
    static func found(in result: TaskResult) -> Int
    /// What `found` counts, plural ("faces", "hands").
    static var foundNoun: String { get }
    /// Draws a result over its picture.
    static func draw(_ result: TaskResult, on annotation: Annotation)
}

/// Makes task instances in a running mode; live-stream mode passes the results' sink.
struct MediaTaskFactory<Task: MediaTask> {
    let make: (RunningMode, LiveStreamHandler<Task.TaskResult>?) throws -> Task
}

/// Runs a subcommand's task over what the media and batch options name, printing JSON lines to
/// standard output or the `--output` file.
enum MediaRun {
    /// Dispatches to folder/image, manifest, video or live processing; returns false if any input failed.
    static func run<Task: MediaTask>(_ options: TaskOptions, factory: MediaTaskFactory<Task>) throws -> Bool {
        let media = options.media, batch = options.batch
        let output = JSONLines(sink: try batch.makeSink())
        if output.sink.discardedLines > 0, let path = output.sink.path {
            Console.error("resume: removed \(output.sink.discardedLines) line(s) after the last finished input of \(path), to be redone\n")
        }
        if media.video != nil || media.live != nil, let annotate = media.annotate {
            try AnnotationFiles.checkVideoTarget(annotate)
        }
        if let video = media.video {
            return try VideoRun.run(video, options: media, factory: factory, output: output)
        }
        if let live = media.live {
            return try LiveRun.run(live, options: media, factory: factory, output: output)
        }
        if let list = batch.videoList {
            return try VideoListRun.run(try Manifest.read(list, option: "--video-list"), options: media,
                                        shard: try batch.selectedShard, output: output, factory: factory)
        }
        let inputs = try batch.inputList.map { try Manifest.read($0, option: "--input-list") } ?? options.images
        return try FolderRun.run(inputs, options: media, shard: try batch.selectedShard, output: output, factory: factory)
    }
}

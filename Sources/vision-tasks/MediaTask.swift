import Foundation
import VisionRender
import VisionTasks

/// One task instance as the shared media options drive it (FaceDetector, FaceLandmarker, ...).
protocol MediaTask: AnyObject {
    /// The task's result type, printed as JSON.
    associatedtype Result: Encodable & Sendable
    /// Image mode.
    func detect(image: MPImage) throws -> Result
    /// Video mode.
    func detect(videoFrame: MPImage, timestampInMilliseconds: Int) throws -> Result
    /// Live-stream mode: returns at once; the result goes to the live delegate.
    func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws
    /// Blocks until every live-stream frame sent has been delivered or dropped.
    func waitUntilIdle()
    /// How many things (faces, hands) a result found.
    static func found(in result: Result) -> Int
    /// What `found` counts, plural ("faces", "hands").
    static var foundNoun: String { get }
    /// Draws a result over its picture.
    static func draw(_ result: Result, on annotation: Annotation)
}

/// Collects live-stream results for the CLI: each task's delegate protocol is adopted by this
/// class (in the subcommand's file) and forwards here. The handler runs on the task's one serial
/// delivery queue only, so it may use state the sending thread leaves alone until `waitUntilIdle`.
final class LiveResults<Result: Sendable>: @unchecked Sendable {
    private let handler: (Result?, Int, (any Error)?) -> Void

    init(handler: @escaping (Result?, Int, (any Error)?) -> Void) {
        self.handler = handler
    }

    /// Called from the task's delegate on its serial queue.
    func deliver(_ result: Result?, timestampInMilliseconds: Int, error: (any Error)?) {
        handler(result, timestampInMilliseconds, error)
    }
}

/// Makes task instances in a running mode; live-stream mode passes the results' sink.
struct MediaTaskFactory<Task: MediaTask> {
    let make: (RunningMode, LiveResults<Task.Result>?) throws -> Task
}

/// Runs a subcommand's task over what the media options name, printing JSON lines.
enum MediaRun {
    /// Dispatches to folder/image, video or live processing; returns false if any input failed.
    static func run<Task: MediaTask>(_ options: MediaOptions, images: [String],
                                     factory: MediaTaskFactory<Task>) throws -> Bool {
        if let video = options.video {
            return try VideoRun.run(video, options: options, factory: factory)
        }
        if let live = options.live {
            return try LiveRun.run(live, options: options, factory: factory)
        }
        return try FolderRun.run(images, options: options, factory: factory)
    }
}

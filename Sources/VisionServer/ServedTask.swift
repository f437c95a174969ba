import Foundation
import VisionTasks

/// One task instance of any described task (`describedTasks`), seen through what the server needs: each call
/// returns the result already encoded as the shared result JSON (`ResultJSON`).
struct ServedTask: Sendable {
    /// Image mode.
    let detectImage: @Sendable (MPImage) throws -> Data
    /// Video mode.
    let detectVideoFrame: @Sendable (MPImage, Int) throws -> Data
    /// Live-stream mode: returns at once; the result reaches the `LiveReplies` the task was made with.
    let detectAsync: @Sendable (MPImage, Int) throws -> Void
    /// Live-stream mode: blocks until every accepted frame's result was delivered.
    let waitUntilIdle: @Sendable () -> Void
    /// The live-stream delegate, kept as long as the task (tasks hold their delegate weakly).
    private let liveDelegate: (any AnyObject & Sendable)?

    /// Wraps one task instance, through `CoreBackedTask`'s running-mode methods (the gesture
    /// recognizer's `recognize` and the others' `detect`), and keeps its live-stream delegate.
    private init<Task: CoreBackedTask>(_ task: Task, delegate: LiveStreamHandler<Task.TaskResult>?)
    where Task.TaskResult: Encodable {
        detectImage = { try ResultJSON.encode(try task.processImage($0)) }
        detectVideoFrame = { try ResultJSON.encode(try task.processVideoFrame($0, timestampInMilliseconds: $1)) }
        detectAsync = { try task.processAsync($0, timestampInMilliseconds: $1) }
        waitUntilIdle = { task.waitUntilIdle() }
        liveDelegate = delegate
    }

    /// A task for `settings` in `mode`, loading `modelPath`; live-stream mode hands each frame's
    /// result JSON, or its error, to `live` with the frame's timestamp, on the task's serial
    /// delivery queue in timestamp order.
    /// - Throws: The task's error as an `APIError`, every model named by its file name: a model changed or removed
    ///   since the scan (the task's own, or one an option chose, such as `face-detector-model`) is a 500 that names
    ///   it, not the server's folder.
    static func make(_ settings: TaskSettings, modelPath: String, mode: RunningMode, live: LiveReplies?) throws
        -> ServedTask
    {
        do {
            return try settings.task.make(settings, modelPath, mode, live)
        } catch {
            // The folder as the catalog wrote it before every model's file name (`--models m/` gives "m//"), only where
            // a path starts: a message's other text keeps any letters that spell it.
            let folder = String(modelPath.dropLast((modelPath as NSString).lastPathComponent.count))
            let api = APIError.from(error)
            var message = api.message
            for boundary in [" ", "(", "\"", "'"] {
                message = message.replacingOccurrences(of: boundary + folder, with: boundary)
            }
            if message.hasPrefix(folder) { message.removeFirst(folder.count) }
            throw APIError(api.status, message)
        }
    }

    /// A `Task` with the options of `settings` (the rest at the library's defaults).
    static func make<Task: DescribedTask>(
        _ task: Task.Type, _ settings: TaskSettings, modelPath: String, mode: RunningMode,
        live: LiveReplies?
    ) throws -> ServedTask {
        let base = BaseOptions(modelAssetPath: modelPath, numThreads: settings.threads)
        do {
            let options = try Task.options(baseOptions: base, runningMode: mode, values: settings.values)
            let delegate: LiveStreamHandler<Task.TaskResult>? = handler(live)
            Task.setLiveStreamHandler(delegate, of: options)
            return ServedTask(try Task(options: options), delegate: delegate)
        } catch VisionTasksError.invalidOption(let name, let reason) {
            // Named as the request named it: `num-faces`, not `numFaces`.
            throw VisionTasksError.invalidOption(
                name: Task.taskDescription.option(forProperty: name)?.name ?? name, reason: reason)
        }
    }

    /// The delegate handing a live-stream task's results to `live` as result JSON (nil without `live`).
    private static func handler<Result: Encodable>(_ live: LiveReplies?) -> LiveStreamHandler<Result>? {
        live.map { live in
            LiveStreamHandler { delivery in
                live(Swift.Result { try ResultJSON.encode(try delivery.get()) }, delivery.timestampInMilliseconds)
            }
        }
    }
}

/// Where a live-stream task's results go: each frame's result JSON, or its error, with its timestamp.
typealias LiveReplies = @Sendable (Result<Data, any Error>, Int) -> Void

import VisionErrors

/// A task that front ends (the CLI, the server) make and drive from its description alone: its
/// options come from `TaskDescription`, its results are JSON, CSV rows and overlay parts
/// (`DescribedResult`), and its live-stream results reach a `LiveStreamHandler`; it is made from its
/// options (`VisionTask.init(options:)`). The tasks adopt it, and `describedTasks` lists them once.
package protocol DescribedTask: CoreBackedTask where TaskResult: DescribedResult, Options: DescribedOptions {
    /// The delegate protocol of its live stream (`any FaceDetectorLiveStreamDelegate`).
    associatedtype Listener
    /// Where its options hold the live-stream delegate and how a result reaches it.
    static var liveStream: LiveStreamDelegation<Self, Options, TaskResult, Listener> { get }
    /// How many things (faces, hands) a result found.
    static func foundCount(in result: TaskResult) -> Int
}

/// A task's options class that carries the task's description (`FaceDetectorOptions.taskDescription`).
package protocol DescribedOptions: VisionTaskOptions {
    /// The task's name, options and outputs.
    static var taskDescription: TaskDescription { get }
}

extension DescribedTask {
    /// The task's name, options and outputs: its options class's.
    package static var taskDescription: TaskDescription { Options.taskDescription }

    /// Makes `handler` the options' live-stream delegate (nil: none).
    package static func setLiveStreamHandler(_ handler: LiveStreamHandler<TaskResult>?, of options: Options) {
        options[keyPath: liveStream.keyPath] = handler.map(liveStream.handler)
    }

    /// Options with every default, then each `(name, text)` in `values` set from its text form:
    /// `invalidOption` naming an unknown option or a malformed value. Ranges are checked when the
    /// task is created.
    package static func options(
        baseOptions: BaseOptions, runningMode: RunningMode,
        values: [(name: String, text: String)]
    ) throws -> Options {
        // Every options class inherits `VisionTaskOptions`' required initializer: its options at their defaults.
        let options = Options(baseOptions: baseOptions, runningMode: runningMode)
        for (name, text) in values {
            guard let option = taskDescription.option(named: name) else {
                let known = taskDescription.options.map(\.name).joined(separator: ", ")
                throw VisionTasksError.invalidOption(
                    name: name, reason: "is not an option of \(taskDescription.name) (known: \(known))")
            }
            try option.apply(text: text, to: options)
        }
        return options
    }
}

/// The tasks front ends offer, in the order they list them; `TaskDescription.all` follows it. Each
/// task adopts `DescribedTask` beside its declarations (`<Task>Description.swift`).
package let describedTasks: [any DescribedTask.Type] = [
    FaceDetector.self, FaceLandmarker.self,
    HandLandmarker.self, GestureRecognizer.self, PoseLandmarker.self, ImageSegmenter.self,
]

import TFLite
import VisionCore

/// The wiring every vision task shares around its graph: the live-stream delegate check, the graph
/// behind a `TaskRunner` (running-mode and timestamp rules, one frame at a time) and the delivery of
/// live-stream results to the delegate while the task lives. A task supplies only its names, its
/// graph (a `TaskGraph`) and how the graph's observations of one frame become the task's result.
package final class TaskCore<Owner: AnyObject, Output: Sendable>: Sendable {
    /// Runs the task's frames; `CoreBackedTask`'s methods call it.
    package let runner: TaskRunner<MPImage, Output>
    private let owner: WeakBox<Owner>

    /// Hands one live-stream result, or the error its frame raised, to the task's delegate.
    package typealias Delivery<Listener> = @Sendable (Listener, Owner, Output?, Int, (any Error)?) -> Void

    /// Turns the graph's observations of one frame into the task's result; `tracks` says whether the
    /// frames form a stream (video, live stream), in which results carry their objects' tracking ids.
    package typealias Assembly<Observation> = @Sendable ([Observation], FrameContext, _ tracks: Bool) throws -> Output

    /// Checks `options` against the task's declared ranges (`invalidOption`) and that the live-stream
    /// delegate (`liveStream`) is given exactly in live-stream mode, then loads the graph. The delegate
    /// is held weakly and called only through `liveStream.deliver`, on the runner's one serial result
    /// queue: the library owns the cross-thread hand-off, as MediaPipe does with its own serial queue,
    /// so the delegate need not be `Sendable` (an iOS-style `NSObject` subclass works). Errors name the
    /// task by its type and its methods by `verb` ("detect", "recognize"); each frame becomes a
    /// `FrameContext` with its timestamp, goes through the graph, and `result` turns the graph's
    /// observations into the task's result, told whether the running mode streams; `reset()` clears the
    /// graph's tracking.
    private init<Graph: TaskGraph, Options: DescribedOptions, Listener>(
        _ options: Options, verb: String, liveStream: LiveStreamDelegation<Owner, Options, Output, Listener>,
        loadGraph: () throws -> Graph, result: @escaping Assembly<Graph.Observation>
    ) throws {
        try Options.taskDescription.validate(options)
        let (runningMode, delegate, deliver) = (
            options.runningMode, options[keyPath: liveStream.keyPath], liveStream.deliver
        )
        try OptionChecks.delegate(present: delegate != nil, runningMode: runningMode, type(of: liveStream).property)
        let graph = SerializedGraph(try loadGraph())
        let tracks = runningMode != .image
        let owner = WeakBox<Owner>()
        var delivery: TaskRunner<MPImage, Output>.Deliver?
        if let delegate {
            let listener = UncheckedWeakBox<Listener>(delegate)
            delivery = { result, timestamp in
                guard let task = owner.object, let delegate = listener.object else { return }
                switch result {
                case .success(let value): deliver(delegate, task, value, timestamp, nil)
                case .failure(let error): deliver(delegate, task, nil, timestamp, error)
                }
            }
        }
        runner = TaskRunner(
            taskName: String(describing: Owner.self), verb: verb, runningMode: runningMode,
            process: { image, timestamp in
                let frame = FrameContext(image, timestampInMilliseconds: timestamp)
                return try result(try graph.graph.process(frame), frame, tracks)
            },
            deliver: delivery, reset: { graph.graph.resetTracking() }, admit: { try $0.checkOrientationSupported() })
        self.owner = owner
    }

    /// Lets live-stream results reach the delegate with `task`; the task calls it at the end of its init.
    package func attach(_ task: Owner) {
        owner.object = task
    }
}

extension TaskCore where Owner: DescribedTask, Output == Owner.TaskResult {
    /// The core of a task, with the task's own method verb (`CoreBackedTask.verb`) and live-stream
    /// delegation (`DescribedTask.liveStream`).
    package convenience init<Graph: TaskGraph>(
        _ options: Owner.Options, loadGraph: () throws -> Graph, result: @escaping Assembly<Graph.Observation>
    ) throws {
        try self.init(options, verb: Owner.verb, liveStream: Owner.liveStream, loadGraph: loadGraph, result: result)
    }

    /// The core of a task whose model is a `.task` bundle: reads the bundle of `options.baseOptions`
    /// (`invalidBundle` naming the task for a file that is not one) and makes the graph from it with
    /// `loadGraph`.
    package convenience init<Graph: TaskGraph>(
        bundled options: Owner.Options, loadGraph: (ModelBundle) throws -> Graph,
        result: @escaping Assembly<Graph.Observation>
    ) throws {
        try self.init(
            options,
            loadGraph: { try loadGraph(try options.baseOptions.loadTaskBundle(task: String(describing: Owner.self))) },
            result: result)
    }
}

/// A task's graph behind the runner's lock: not thread-safe itself, it is only used by the runner's
/// `process`, which runs one frame at a time.
private final class SerializedGraph<Graph>: @unchecked Sendable {
    let graph: Graph

    init(_ graph: Graph) { self.graph = graph }
}

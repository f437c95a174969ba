import VisionCore

/// The wiring every vision task shares around its graph: the live-stream delegate check, the graph
/// behind a `TaskRunner` (running-mode and timestamp rules, one frame at a time) and the delivery of
/// live-stream results to the delegate while the task lives. A task supplies only its names, its
/// graph and how the graph turns one frame into the task's result. Public only as the type of
/// `VisionTask._taskCore`: it has no public members.
public final class TaskCore<Owner: AnyObject, Output: Sendable>: Sendable {
    /// Runs the task's frames; `VisionTask`'s methods call it.
    package let runner: TaskRunner<MPImage, Output>
    private let owner: WeakBox<Owner>

    /// Hands one live-stream result, or the error its frame raised, to the task's delegate.
    package typealias Delivery<Listener> = @Sendable (Listener, Owner, Output?, Int, (any Error)?) -> Void

    /// Checks that `delegate` is given exactly in live-stream mode (`invalidOption` naming
    /// `delegateOption`), then loads the graph. The delegate is held weakly and called only through
    /// `deliver`, on the runner's one serial result queue: the library owns the cross-thread
    /// hand-off, as MediaPipe does with its own serial queue, so the delegate need not be `Sendable`
    /// (an iOS-style `NSObject` subclass works). `taskName` and `verb` ("detect", "recognize") name
    /// the task and its methods in errors; `process` runs the graph on one frame and its timestamp;
    /// `resetTracking` clears the graph's state between streams (`reset()`).
    package init<Graph, Listener>(
        taskName: String, verb: String, runningMode: RunningMode,
        delegateOption: String, delegate: Listener?, deliver: @escaping Delivery<Listener>,
        loadGraph: () throws -> Graph,
        process: @escaping @Sendable (Graph, MPImage, Int) throws -> Output,
        resetTracking: @escaping @Sendable (Graph) -> Void = { _ in }
    ) throws {
        try OptionChecks.delegate(present: delegate != nil, runningMode: runningMode, delegateOption)
        let graph = SerializedGraph(try loadGraph())
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
        runner = TaskRunner(taskName: taskName, verb: verb, runningMode: runningMode,
                            process: { image, timestamp in try process(graph.graph, image, timestamp) },
                            deliver: delivery, reset: { resetTracking(graph.graph) })
        self.owner = owner
    }

    /// Lets live-stream results reach the delegate with `task`; the task calls it at the end of its init.
    package func attach(_ task: Owner) {
        owner.object = task
    }
}

/// A task's graph behind the runner's lock: not thread-safe itself, it is only used by the runner's
/// `process`, which runs one frame at a time.
private final class SerializedGraph<Graph>: @unchecked Sendable {
    let graph: Graph

    init(_ graph: Graph) { self.graph = graph }
}

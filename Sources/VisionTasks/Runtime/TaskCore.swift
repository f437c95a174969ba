import VisionCore

/// The wiring every vision task shares around its graph: the live-stream delegate check, the graph
/// behind a `TaskRunner` (running-mode and timestamp rules, one frame at a time) and the delivery of
/// live-stream results to the delegate while the task lives. A task supplies only its names, its
/// graph and how the graph turns one frame into the task's result.
package final class TaskCore<Owner: AnyObject, Output: Sendable>: Sendable {
    /// Runs the task's frames; the task's public methods call it directly.
    package let runner: TaskRunner<MPImage, Output>
    private let owner: WeakBox<Owner>

    /// Hands one live-stream result, or the error its frame raised, to the task's delegate.
    package typealias Delivery = @Sendable (Owner, Output?, Int, (any Error)?) -> Void

    /// Checks that `deliver` (the delegate's call, holding the delegate weakly) is given exactly in
    /// live-stream mode (`invalidOption` naming `delegateOption`), then loads the graph. `taskName`
    /// and `verb` ("detect", "recognize") name the task and its methods in errors; `process` runs the
    /// graph on one frame and its timestamp.
    package init<Graph>(
        taskName: String, verb: String, runningMode: RunningMode,
        delegateOption: String, deliver: Delivery?,
        loadGraph: () throws -> Graph,
        process: @escaping @Sendable (Graph, MPImage, Int) throws -> Output
    ) throws {
        try OptionChecks.delegate(present: deliver != nil, runningMode: runningMode, delegateOption)
        let graph = SerializedGraph(try loadGraph())
        let owner = WeakBox<Owner>()
        var delivery: TaskRunner<MPImage, Output>.Deliver?
        if let deliver {
            delivery = { result, timestamp in
                guard let task = owner.object else { return }
                switch result {
                case .success(let value): deliver(task, value, timestamp, nil)
                case .failure(let error): deliver(task, nil, timestamp, error)
                }
            }
        }
        runner = TaskRunner(taskName: taskName, verb: verb, runningMode: runningMode,
                            process: { image, timestamp in try process(graph.graph, image, timestamp) },
                            deliver: delivery)
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

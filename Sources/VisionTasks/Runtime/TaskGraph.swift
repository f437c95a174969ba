import VisionCore

/// The one shape of every task's graph: it is loaded from the task's settings, takes one frame at a
/// time and returns what it observed there (a detection, a face, a hand); the task turns the
/// observations into its public result. `TaskCore` runs it behind the task runner's lock.
///
/// Graphs are not thread-safe: they own interpreters and tracking state. The runner calls a graph
/// from its queues one frame at a time; `SendableMetatype` lets its generic code do so.
package protocol TaskGraph: AnyObject, SendableMetatype {
    /// What the graph finds per object in a frame, before it becomes a public result.
    associatedtype Observation
    /// The observations of one frame, in MediaPipe's order.
    func process(_ frame: FrameContext) throws -> [Observation]
    /// Forgets what was tracked, so the next frame starts a new stream.
    func resetTracking()
}

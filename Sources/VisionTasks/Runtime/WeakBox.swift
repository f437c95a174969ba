import Foundation
import VisionCore

/// A lock-guarded weak reference, so a live-stream delivery closure made before its task exists can
/// reach the task later without keeping it alive.
package final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private weak var _object: Object?

    /// Creates an empty box.
    package init() {}

    /// The object, while it is alive.
    package var object: Object? {
        get { lock.withLock { _object } }
        set { lock.withLock { _object = newValue } }
    }
}

/// A live-stream delivery callback for a task runner: hands each frame's result (or its error) to
/// `call` with the task, while the task in `owner` is alive.
package func liveStreamDelivery<Task: AnyObject, Output: Sendable>(
    _ owner: WeakBox<Task>, _ call: @escaping @Sendable (Task, Output?, Int, (any Error)?) -> Void
) -> TaskRunner<MPImage, Output>.Deliver {
    { result, timestamp in
        guard let task = owner.object else { return }
        switch result {
        case .success(let value): call(task, value, timestamp, nil)
        case .failure(let error): call(task, nil, timestamp, error)
        }
    }
}

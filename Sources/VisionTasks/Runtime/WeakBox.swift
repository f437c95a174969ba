import Foundation

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

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

/// A weak reference to a live-stream delegate, which need not be `Sendable`: it is only read on the
/// task's serial result queue (after being stored once at creation), as MediaPipe for iOS calls its
/// delegates on its own serial queue.
package final class UncheckedWeakBox<Object>: @unchecked Sendable {
    private weak var _object: AnyObject?

    /// Holds `object` weakly (delegates are class instances: the task protocols require `AnyObject`).
    package init(_ object: Object) { _object = object as AnyObject }

    /// The object, while it is alive.
    package var object: Object? { _object as? Object }
}

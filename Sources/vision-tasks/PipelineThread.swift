import Foundation

/// Runs `body` on a new thread; `join()` waits for it to return.
final class PipelineThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    /// Starts `body` on its own thread (named `name` for profilers and debuggers).
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits until the thread's body has returned.
    func join() { done.wait() }
}

import Foundation

/// Runs `body` on a new thread; `join()` waits for it to return.
///
/// What `body` holds (a task, a pipeline) is let go on the thread as `body` returns, not when the `Thread`
/// object goes in the thread's teardown: a task released there, after the thread has used Dispatch, corrupts the
/// heap (glibc with swift-corelibs-libdispatch).
final class PipelineThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    /// Starts `body` on its own thread (named `name` for profilers and debuggers).
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Work(body)
        let thread = Thread { [done] in
            work.run()
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits until the thread's body has returned.
    func join() { done.wait() }

    /// The body, dropped as it is run.
    private final class Work: @unchecked Sendable {
        private var body: (@Sendable () -> Void)?
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        func run() {
            let body = self.body
            self.body = nil
            body?()
        }
    }
}

/// A value made on a thread of its own while the caller does something else; `value()` waits for it.
final class BackgroundValue<Value>: @unchecked Sendable {
    private var result: Result<Value, any Error>? // written by the thread before `join()` returns
    private var thread: PipelineThread?

    /// Starts `make` on a thread named `name`.
    init(name: String, _ make: @escaping () throws -> Value) {
        nonisolated(unsafe) let make = make
        thread = PipelineThread(name: name) { self.result = Result { try make() } }
    }

    /// The value, or what `make` threw, once the thread has finished.
    func value() throws -> Value {
        thread?.join()
        thread = nil
        return try result!.get()
    }
}

import Foundation

/// A process-wide pool of persistent worker threads that runs the parts of one kernel call
/// concurrently. `DispatchQueue.concurrentPerform` makes two mallocs a call on Linux; a call here
/// makes one small allocation (the escape check of `withoutActuallyEscaping`) once the pool has its threads.
final class WorkerPool: @unchecked Sendable {
    /// The pool every kernel shares; it grows to the largest thread count asked for.
    static let shared = WorkerPool()

    private let callers = NSLock()        // one call at a time owns the workers
    private let condition = NSCondition() // guards everything below
    private var job: ((Int) -> Void)?
    private var parts = 0
    private var nextPart = 0
    private var unfinished = 0
    private var workers = 0

    /// Runs `body(part)` for every part in `0 ..< parts` on the caller and the workers, and returns
    /// when all have finished. `body` must not call `run` again.
    func run(parts count: Int, _ body: (Int) -> Void) {
        // Non-escaping, so the caller's closure context stays on its stack; it is published to
        // the workers only until every part has finished.
        withoutActuallyEscaping(body) { body in publishAndRun(parts: count, body) }
    }

    private func publishAndRun(parts count: Int, _ body: @escaping (Int) -> Void) {
        callers.lock()
        defer { callers.unlock() }
        condition.lock()
        while workers < count - 1 { startWorker() }
        job = body
        parts = count
        nextPart = 0
        unfinished = count
        condition.broadcast()
        while nextPart < parts {
            let part = nextPart
            nextPart += 1
            condition.unlock()
            body(part)
            condition.lock()
            unfinished -= 1
        }
        while unfinished > 0 { condition.wait() }
        job = nil
        condition.unlock()
    }

    /// Must be called with `condition` held.
    private func startWorker() {
        workers += 1
        let thread = Thread { [unowned self] in self.workLoop() }
        thread.name = "VisionTasks.kernel-worker"
        thread.start()
    }

    private func workLoop() {
        condition.lock()
        while true {
            while job == nil || nextPart >= parts { condition.wait() }
            let part = nextPart
            nextPart += 1
            guard let body = job else { continue }
            condition.unlock()
            body(part)
            condition.lock()
            unfinished -= 1
            if unfinished == 0 { condition.broadcast() }
        }
    }
}

import Synchronization

/// A worker held past the handler that took it (a streamed response's body), given back exactly once: by `end()`,
/// or, when the body never runs (the client reset the connection before the response head went out, so writing
/// it threw), when the lease is dropped. `cleanup` (closing what the worker was given) runs first either way.
final class WorkerLease: Sendable {
    private let pool: WorkerPool
    private let worker: WorkerPool.Worker
    private let cleanup: @Sendable () -> Void
    private let ended = Mutex(false)

    /// Holds `worker` of `pool`; `cleanup` runs when the lease ends.
    init(_ worker: WorkerPool.Worker, of pool: WorkerPool, cleanup: @escaping @Sendable () -> Void) {
        (self.pool, self.worker, self.cleanup) = (pool, worker, cleanup)
    }

    /// Runs the cleanup and gives the worker back; later calls do nothing.
    func end() async {
        guard claim() else { return }
        cleanup()
        await pool.release(worker)
    }

    /// True the first time only.
    private func claim() -> Bool {
        ended.withLock { wasEnded in
            defer { wasEnded = true }
            return !wasEnded
        }
    }

    deinit {
        guard claim() else { return }
        cleanup()
        let (pool, worker) = (pool, worker)
        Task { await pool.release(worker) }
    }
}

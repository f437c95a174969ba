import Synchronization

/// A worker held past the handler that took it (a streamed response's body), given back exactly once: by `end()`,
/// or, when the body never runs (the client reset the connection before the response head went out, so writing
/// it threw), when the lease is dropped. `cleanup` (closing what the worker was given) runs first either way.
final class WorkerLease: Sendable {
    private let pool: WorkerPool
    private let worker: WorkerPool.Worker
    private let cleanup: @Sendable () -> Void
    private let ended = Mutex(false)
    private let phase = Mutex(WritePhase.idle)

    /// Where `write(within:_:)` is: between writes, in one, or past its limit (the lease then ended under it).
    private enum WritePhase { case idle, writing, expired }

    /// What `write(within:_:)` throws once a write outlasted its limit: the client stopped reading.
    struct StalledClient: Error {}

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

    /// Runs `write`. Should it still wait after `limit` (a client that stopped reading: the write waits on
    /// backpressure, for ever if the client never reads again, and no idle timeout closes a connection that is
    /// being answered), `onStall` runs meanwhile (to close the connection, which ends the write) and the lease
    /// ends; `write` returning later then throws `StalledClient`, as does every later call.
    func write(
        within limit: Duration, onStall: @escaping @Sendable () -> Void = {}, _ write: () async throws -> Void
    ) async throws {
        guard move(from: [.idle, .writing], to: .writing) else { throw StalledClient() }
        let watchdog = StallTimer(after: limit) { [weak self] in
            guard let self, self.move(from: [.writing], to: .expired) else { return }
            onStall()
            self.endAtOnce()
        }
        defer { watchdog.cancel() }
        try await write()
        guard move(from: [.writing], to: .idle) else { throw StalledClient() }
    }

    /// Ends the lease from synchronous code: the cleanup now, the worker given back by a task.
    private func endAtOnce() {
        guard claim() else { return }
        cleanup()
        let (pool, worker) = (pool, worker)
        Task { await pool.release(worker) }
    }

    /// Moves the write phase to `to` when it is one of `from`; false (and no move) otherwise.
    private func move(from: Set<WritePhase>, to: WritePhase) -> Bool {
        phase.withLock { current in
            guard from.contains(current) else { return false }
            current = to
            return true
        }
    }

    /// True the first time only.
    private func claim() -> Bool {
        ended.withLock { wasEnded in
            defer { wasEnded = true }
            return !wasEnded
        }
    }

    deinit {
        endAtOnce()
    }
}

import Dispatch
import Foundation
import VisionCore

/// A fixed number of workers for one kind of job, with a bounded line of waiting requests: when
/// every worker is busy and the line is full, one more request is refused (503) rather than queued
/// without bound. Each worker keeps the task instance it last made, so requests with the same
/// settings reuse it.
actor WorkerPool {
    /// A worker: the task instance it last made, and the settings it was made for. Only the
    /// request holding the worker touches it.
    final class Worker: @unchecked Sendable {
        fileprivate(set) var cached: (settings: TaskSettings, task: ServedTask)?

        /// The worker's task for `settings`, made (replacing the cached one) if the settings differ.
        func task(for settings: TaskSettings, make: () throws -> ServedTask) throws -> ServedTask {
            if let cached, cached.settings == settings { return cached.task }
            cached = nil
            let task = try make()
            ProcessMemory.trimHeap() // loading's buffers (the model file, unpacked weights)
            cached = (settings, task)
            return task
        }
    }

    private var idle: [Worker]
    private var waiting: [CheckedContinuation<Worker, Never>] = []
    private let queueDepth: Int
    private let name: String

    /// `workers` workers and at most `queueDepth` requests waiting; `name` is used in the 503 message.
    init(name: String, workers: Int, queueDepth: Int) {
        self.name = name
        idle = (0..<workers).map { _ in Worker() }
        self.queueDepth = queueDepth
    }

    /// Runs `body` with a worker on a thread of its own (task inference blocks, so it stays off
    /// the server's event loops and Swift's cooperative threads); waits in line for a worker, or
    /// throws 503 when the line is full.
    func run<T: Sendable>(_ body: @escaping @Sendable (Worker) throws -> T) async throws -> T {
        let worker = try await acquire()
        let result = await Self.offloaded { try body(worker) }
        release(worker)
        return try result.get()
    }

    /// Requests waiting for a worker now.
    var waitingCount: Int { waiting.count }

    /// Workers free now.
    var idleCount: Int { idle.count }

    /// Takes a worker for a longer job (a video), which gives it back with `release`.
    func acquire() async throws -> Worker {
        if let worker = idle.popLast() { return worker }
        guard waiting.count < queueDepth else {
            throw APIError(
                .serviceUnavailable,
                "all \(name) workers are busy and \(queueDepth) requests already wait; try again later")
        }
        return await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a worker back: to the first request in line, else to the idle workers (and schedules
    /// giving back kept pixel memory if the server stays idle).
    func release(_ worker: Worker) {
        KeptMemoryTrim.shared.requestEnded()
        if waiting.isEmpty {
            idle.append(worker)
        } else {
            waiting.removeFirst().resume(returning: worker)
        }
    }

    /// `body` run on a Dispatch thread, its outcome returned to the awaiting task.
    static func offloaded<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Result { try body() }) }
        }
    }
}

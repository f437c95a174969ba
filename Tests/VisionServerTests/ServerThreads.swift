import Foundation
import Testing

/// Threads of the server suites' own, as a served process has its own: each test of a suite marked
/// `.serverThreads` runs with them as its task executor, so the server's and the client's async work (and the
/// tasks' replies) never wait for a thread of Swift's shared pool, which Swift Testing fills with the other
/// suites' synchronous model runs (a live socket's flood took 257-291 s beside them against 7 s alone).
final class ServerThreads: TaskExecutor, @unchecked Sendable {
    /// The one set the suites share: four threads, more than the tests' async work keeps busy.
    static let shared = ServerThreads(count: 4)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "VisionServerTests \(index)"
            thread.start()
        }
    }

    /// Queues `job` for the next free thread.
    func enqueue(_ job: consuming ExecutorJob) {
        let queued = UnownedJob(job)
        condition.withLock {
            jobs.append(queued)
            condition.signal()
        }
    }

    /// A thread's life: runs the queued jobs in order, sleeping while there is none.
    private func work() {
        while true {
            let job = condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs each test of a suite (and the suite) with `ServerThreads.shared` as its task executor.
struct ServerThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ServerThreads.shared) { try await function() }
    }
}

extension SuiteTrait where Self == ServerThreadsTrait {
    /// The suite's tests run on the server suites' own threads (`ServerThreads`).
    static var serverThreads: Self { ServerThreadsTrait() }
}

import Foundation

/// A socket test's bound on its own wall time: a server or client await that is never resumed (a reply that
/// never comes, an upgrade the client keeps waiting on) fails the test by name instead of holding the whole
/// run until CI's limit. The late work is cancelled and left behind; the run goes on.
enum Deadline {
    /// What a test reports when it ran out of time.
    struct Exceeded: Error, CustomStringConvertible {
        let what: String
        let seconds: Int
        var description: String { "\(what) did not finish within \(seconds) s (an await was never resumed)" }
    }

    /// Runs `body` and returns when it ends, or throws `Exceeded` after `seconds`, whichever comes first.
    static func run(
        _ what: String, seconds: Int = 180, _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        let outcome = Outcome()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            outcome.set(continuation)
            // On the server suites' threads, as the test itself runs: an unstructured task does not inherit them, and
            // Swift's shared pool is full of the other suites' synchronous work.
            let work = Task(executorPreference: ServerThreads.shared) {
                do {
                    try await body()
                    outcome.resume(with: .success(()))
                } catch {
                    outcome.resume(with: .failure(error))
                }
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                if outcome.resume(with: .failure(Exceeded(what: what, seconds: seconds))) { work.cancel() }
            }
        }
    }

    /// The continuation, resumed once by whichever of the work and the timer ends first.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, any Error>?

        func set(_ continuation: CheckedContinuation<Void, any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        /// Resumes the continuation if nothing has yet; returns whether this call did.
        @discardableResult func resume(with result: Result<Void, any Error>) -> Bool {
            let taken = lock.withLock {
                defer { continuation = nil }
                return continuation
            }
            taken?.resume(with: result)
            return taken != nil
        }
    }
}

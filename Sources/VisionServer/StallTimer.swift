import Dispatch

/// The limit on one write to a client: a Dispatch timer that runs its action unless cancelled first. Unlike a
/// sleeping task it fires on time however busy Swift's cooperative threads are (in a full test run other suites
/// kept them so busy that a 50 ms watchdog task had not woken after 30 s).
struct StallTimer {
    private let item: DispatchWorkItem

    /// Runs `action` after `limit`, unless `cancel()` comes first.
    init(after limit: Duration, _ action: @escaping @Sendable () -> Void) {
        item = DispatchWorkItem(block: action)
        let (seconds, attoseconds) = limit.components
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)),
            execute: item)
    }

    /// Stops the timer; an action already running runs to its end.
    func cancel() { item.cancel() }

    /// Runs `write` under a timer that runs `onStall` should the write still wait after `limit`.
    static func write<T>(
        within limit: Duration, onStall: @escaping @Sendable () -> Void, _ write: () async throws -> T
    ) async rethrows -> T {
        let timer = StallTimer(after: limit, onStall)
        defer { timer.cancel() }
        return try await write()
    }
}

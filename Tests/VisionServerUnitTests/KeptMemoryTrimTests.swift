import Foundation
import Synchronization
import Testing

@testable import VisionServer

/// The server's idle trim: after a request ends, the kept pixel blocks are released once the delay
/// has passed, again while some stay kept, and with one check pending however many requests end.
@Suite struct KeptMemoryTrimTests {
    /// The calls the trim made, and what each answered (blocks still kept).
    final class Releases: Sendable {
        let calls = Mutex<[Double]>([])
        let answers: [Int]
        init(answers: [Int]) { self.answers = answers }

        func release(_ seconds: Double) -> Int {
            calls.withLock {
                $0.append(seconds)
                return $0.count <= answers.count ? answers[$0.count - 1] : 0
            }
        }
        var count: Int { calls.withLock { $0.count } }
    }

    @Test func releasesAfterTheDelayAndAgainWhileBlocksStayKept() async throws {
        let releases = Releases(answers: [2, 1, 0])
        let trim = KeptMemoryTrim(delay: 0.2) { releases.release($0) }
        for _ in 0..<5 { trim.requestEnded() } // one check pending at most
        try await Task.sleep(for: .milliseconds(100))
        #expect(releases.count == 0, "released before the delay")
        try await Self.wait { releases.count >= 3 }
        try await Task.sleep(for: .milliseconds(500))
        // Kept 2, then 1, then none: three releases, each of blocks unused for the delay, then no more.
        #expect(releases.calls.withLock { $0 } == [0.2, 0.2, 0.2])
        // A request ending later starts a new check.
        trim.requestEnded()
        try await Self.wait { releases.count >= 4 }
        #expect(releases.count == 4)
    }

    /// Waits until `done` holds, 20 s at most (the tests run in parallel: a busy machine delays the check).
    static func wait(_ done: () -> Bool) async throws {
        for _ in 0..<200 where !done() {
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

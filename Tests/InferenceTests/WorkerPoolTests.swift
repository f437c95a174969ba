import Dispatch
import Foundation
import Testing

@testable import Inference

/// The worker pool (Sources/CKernels/pool.c) under several callers at once: interpreters on
/// different threads (server workers, `--jobs` with `--threads`) split their calls concurrently.
@Suite struct WorkerPoolTests {
    /// Counts, for one caller, how often each item ran.
    private struct CountingJob: RangeJob {
        let counts: UnsafeMutablePointer<Int32>

        func run(thread: Int, begin: Int, end: Int) {
            for i in begin..<end { counts[i] += 1 }
        }
    }

    /// A job whose part holding item 0 says it started, then waits (at most `holdLimit`) to be let go: the pool stays
    /// held by this job meanwhile.
    private struct HoldingJob: RangeJob {
        let started: DispatchSemaphore
        let letGo: DispatchSemaphore
        let holdLimit: Double

        func run(thread: Int, begin: Int, end: Int) {
            guard begin == 0 else { return }
            started.signal()
            _ = letGo.wait(timeout: .now() + holdLimit)
        }
    }

    /// Runs `body` on a thread of its own (not Dispatch's or Swift's shared pools, which a blocked caller would
    /// hold); the semaphore is signalled when it returns.
    private static func onOwnThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done
    }

    /// Four callers, each splitting 300 calls of 20,000 items over 2 threads at the same time: every
    /// item of every call runs exactly once (a caller that finds the pool taken runs its parts itself).
    @Test func concurrentCallersEachRunEveryItemOnce() {
        let (callers, calls, items) = (4, 300, 20000)
        let counts = UnsafeMutablePointer<Int32>.allocate(capacity: callers * items)
        counts.initialize(repeating: 0, count: callers * items)
        let address = Int(bitPattern: counts) // each caller writes its own slice
        // Threads of their own: Dispatch's concurrentPerform may run the callers one after another.
        let finished = (0..<callers).map { caller in
            Self.onOwnThread {
                let job = CountingJob(counts: UnsafeMutablePointer<Int32>(bitPattern: address)! + caller * items)
                for _ in 0..<calls { KernelThreads(2).split(items, job) }
            }
        }
        let late = finished.filter { $0.wait(timeout: .now() + 120) == .timedOut }.count
        #expect(late == 0, "\(late) of \(callers) callers did not finish their \(calls) calls within 120 s")
        guard late == 0 else { return } // still writing: the counts stay allocated
        defer { counts.deallocate() }
        let wrong = (0..<(callers * items)).filter { counts[$0] != Int32(calls) }
        #expect(
            wrong.count == 0, "items not run \(calls) times, the first: \(wrong.prefix(5).map { ($0, counts[$0]) })")
    }

    /// While one caller's job holds the pool (its part blocked), another caller's split call returns, having run
    /// all its items itself: a caller never waits for another interpreter's call (commit e638b53; waiting on the
    /// pool's lock serialised every interpreter behind one and let one invoke() starve the others).
    @Test func aCallerFindingThePoolHeldRunsItsPartsWithoutWaiting() throws {
        let items = 20000
        let (started, letGo) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let holder = Self.onOwnThread {
            KernelThreads(2).split(2, HoldingJob(started: started, letGo: letGo, holdLimit: 30))
        }
        defer {
            letGo.signal()
            _ = holder.wait(timeout: .now() + 60)
        }
        try #require(started.wait(timeout: .now() + 30) == .success, "the holding job's part did not start in 30 s")
        let counts = UnsafeMutablePointer<Int32>.allocate(capacity: items)
        counts.initialize(repeating: 0, count: items)
        let address = Int(bitPattern: counts)
        let second = Self.onOwnThread {
            KernelThreads(2).split(items, CountingJob(counts: UnsafeMutablePointer<Int32>(bitPattern: address)!))
        }
        let returned = second.wait(timeout: .now() + 10) == .success
        #expect(returned, "a second caller's call did not return within 10 s while another job held the pool")
        letGo.signal()
        // Once let go, the second call ends in any case; its counts are read after that.
        let ended = returned || second.wait(timeout: .now() + 60) == .success
        #expect(ended, "the second caller's call did not end within 60 s of the pool being let go")
        guard ended else { return } // still writing: the counts stay allocated
        defer { counts.deallocate() }
        let wrong = (0..<items).filter { counts[$0] != 1 }
        #expect(wrong.isEmpty, "items not run once, the first: \(wrong.prefix(5).map { ($0, counts[$0]) })")
    }
}

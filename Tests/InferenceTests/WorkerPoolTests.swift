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

    /// Four callers, each splitting 300 calls of 20,000 items over 2 threads at the same time: every
    /// item of every call runs exactly once (a caller that finds the pool taken runs its parts itself).
    @Test func concurrentCallersEachRunEveryItemOnce() {
        let (callers, calls, items) = (4, 300, 20000)
        let counts = UnsafeMutablePointer<Int32>.allocate(capacity: callers * items)
        counts.initialize(repeating: 0, count: callers * items)
        defer { counts.deallocate() }
        let address = Int(bitPattern: counts) // each caller writes its own slice
        // Threads of their own: Dispatch's concurrentPerform may run the callers one after another.
        let threads = (0..<callers).map { caller in
            Thread {
                let job = CountingJob(counts: UnsafeMutablePointer<Int32>(bitPattern: address)! + caller * items)
                for _ in 0..<calls { KernelThreads(2).split(items, job) }
            }
        }
        threads.forEach { $0.start() }
        while threads.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.001) }
        let wrong = (0..<(callers * items)).filter { counts[$0] != Int32(calls) }
        #expect(
            wrong.count == 0, "items not run \(calls) times, the first: \(wrong.prefix(5).map { ($0, counts[$0]) })")
    }
}

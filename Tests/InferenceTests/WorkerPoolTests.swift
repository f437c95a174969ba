import CKernels
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

    /// What each part of one job recorded: the thread that ran it and that thread's count of parts run before it.
    private struct Tally {
        var thread = [Int32](repeating: -1, count: 8)
        var order = [Int32](repeating: -1, count: 8)
        var done = [Int32](repeating: 0, count: 64)
    }

    /// The parts are dealt in contiguous ranges, one per thread: a range's owner runs a prefix of it, in order, and
    /// the others take the rest from its back (the caller is never left waiting for a preempted worker's whole
    /// share, and each thread keeps reading what it wrote). Jobs of 8 parts over 2 threads, each part ~20 µs, until
    /// 100 of them had parts run by both threads (at most 30 s: other suites' calls may hold the pool meanwhile).
    @Test func eachThreadRunsItsOwnRangeFirstAndTakesTheOthersFromTheBack() throws {
        var shared = 0
        let deadline = Date().addingTimeInterval(30)
        while shared < 100 && Date() < deadline {
            var tally = Tally()
            tally.thread.withUnsafeMutableBufferPointer { thread in
                tally.order.withUnsafeMutableBufferPointer { order in
                    tally.done.withUnsafeMutableBufferPointer { done in
                        var pointers = (thread.baseAddress!, order.baseAddress!, done.baseAddress!)
                        withUnsafeMutablePointer(to: &pointers) { context in
                            vt_parallel_run(
                                8, 2,
                                { context, part, thread in
                                    let (threads, order, done) = context!.assumingMemoryBound(
                                        to: (
                                            UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>,
                                            UnsafeMutablePointer<Int32>
                                        ).self
                                    ).pointee
                                    let start = DispatchTime.now().uptimeNanoseconds
                                    while DispatchTime.now().uptimeNanoseconds - start < 20_000 {}
                                    threads[Int(part)] = thread
                                    order[Int(part)] = done[Int(thread) * 16] // one cache line per thread
                                    done[Int(thread) * 16] += 1
                                }, context)
                        }
                    }
                }
            }
            try #require(tally.thread.allSatisfy { $0 == 0 || $0 == 1 }, "a part not run once: \(tally.thread)")
            // A job the worker took no part of may have run whole on the caller, in order, because another
            // suite's call held the pool (as a caller finding it held does): only shared jobs show the ranges.
            guard tally.thread.contains(1) else { continue }
            shared += 1
            for owner in 0..<2 {
                let range = Array(owner * 4..<(owner + 1) * 4)
                let own = range.prefix { tally.thread[$0] == Int32(owner) }
                let taken = range.dropFirst(own.count)
                // The owner's: a prefix, run in order. The other thread's: the rest, taken last part first.
                #expect(
                    taken.allSatisfy { tally.thread[$0] == Int32(1 - owner) }, "range \(owner): \(tally.thread)")
                #expect(zip(own, own.dropFirst()).allSatisfy { tally.order[$0] < tally.order[$1] }, "\(tally.order)")
                #expect(
                    zip(taken, taken.dropFirst()).allSatisfy { tally.order[$0] > tally.order[$1] }, "\(tally.order)")
            }
        }
        // Else the worker too seldom ran a part for the ranges to be tried.
        #expect(shared == 100, "only \(shared) jobs in 30 s had parts run by both threads")
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

import Synchronization
import VisionCore

/// Gives the pixel memory kept for reuse (a photo's block, tens of MB each) and malloc's free pages
/// back to the system once the server has been idle for `delay`: each request's end schedules a
/// check, at most one pending, which unmaps the blocks no request reused within `delay` and checks
/// again while any stay kept.
final class KeptMemoryTrim: Sendable {
    /// The server's one trim (the kept blocks are the process's); 5 s, longer than the gap between
    /// a client's requests, so a busy server keeps reusing its blocks.
    static let shared = KeptMemoryTrim(delay: 5)

    /// Seconds a kept block may stay unused.
    let delay: Double
    private let release: @Sendable (Double) -> Int
    private let pending = Atomic<Bool>(false)

    /// `release` unmaps the blocks unused for the seconds given and returns how many stay kept; by
    /// default it also gives back the free pages of malloc's heaps.
    init(
        delay: Double,
        release: @escaping @Sendable (Double) -> Int = { seconds in
            defer { ProcessMemory.trimHeap() }
            return ProcessMemory.releaseKeptPixels(unusedFor: seconds)
        }
    ) {
        self.delay = delay
        self.release = release
    }

    /// Called when a request has finished: starts the check unless one is pending.
    func requestEnded() {
        guard pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        Task.detached { [self] in
            while true {
                try? await Task.sleep(for: .seconds(delay))
                // `pending` cleared first: a block kept after the release below is either seen by it
                // (then checked again here) or kept by a request whose end starts a check of its own.
                pending.store(false, ordering: .releasing)
                if release(delay) == 0 { return }
                guard
                    pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
                else { return }
            }
        }
    }
}

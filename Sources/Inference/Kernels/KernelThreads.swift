import Foundation

/// How many threads a kernel call may use; a call splits its work range into that many parts.
package struct KernelThreads: Sendable, Equatable {
    /// Number of parts (at least 1).
    package let count: Int

    /// Up to `count` threads (values below 1 mean 1).
    package init(_ count: Int) { self.count = Swift.max(1, count) }

    /// One thread: the call runs on the caller's thread.
    package static let single = KernelThreads(1)

    /// Runs `body(part, begin, end)` over `0 ..< total` split into at most `count` contiguous parts
    /// whose boundaries are multiples of `granule`; parts run concurrently and all finish before return.
    /// Parts with fewer than `minimumPerPart` items are merged (small work stays on one thread).
    func split(_ total: Int, granule: Int = 1, minimumPerPart: Int = 1,
               _ body: (_ part: Int, _ begin: Int, _ end: Int) -> Void) {
        guard total > 0 else { return }
        let g = Swift.max(1, granule)
        let granules = (total + g - 1) / g
        let byWork = Swift.max(1, total / Swift.max(1, minimumPerPart))
        let parts = Swift.min(count, granules, byWork)
        if parts <= 1 {
            body(0, 0, total)
            return
        }
        WorkerPool.shared.run(parts: parts) { part in
            let begin = Swift.min(total, granules * part / parts * g)
            let end = Swift.min(total, granules * (part + 1) / parts * g)
            if begin < end { body(part, begin, end) }
        }
    }
}

import CKernels

/// How many threads a kernel may use; a call splits its work range into that many parts.
package struct KernelThreads: Sendable, Equatable {
    /// Number of parts (at least 1).
    package let count: Int

    /// Up to `count` threads (values below 1 mean 1).
    package init(_ count: Int) { self.count = Swift.max(1, count) }

    /// One thread: the call runs on the caller's thread.
    package static let single = KernelThreads(1)

    /// Runs `job.run(part:begin:end:)` over `0 ..< total` split into at most `count` contiguous
    /// parts whose boundaries are multiples of `granule`; parts run concurrently on the worker pool
    /// (Sources/CKernels/pool.c) and all finish before return. No allocation.
    /// Parts with fewer than `minimumPerPart` items are merged (small work stays on one thread).
    func split<Job: RangeJob>(_ total: Int, granule: Int = 1, minimumPerPart: Int = 1, _ job: Job) {
        guard total > 0 else { return }
        let g = Swift.max(1, granule)
        let granules = (total + g - 1) / g
        let byWork = Swift.max(1, total / Swift.max(1, minimumPerPart))
        let parts = Swift.min(count, granules, byWork)
        if parts <= 1 {
            job.run(part: 0, begin: 0, end: total)
            return
        }
        let split = SplitJob(job: job, total: total, granule: g, granules: granules, parts: parts)
        withUnsafePointer(to: split) { pointer in
            var erased = ErasedJob(type: SplitJob<Job>.self, job: UnsafeRawPointer(pointer))
            withUnsafeMutablePointer(to: &erased) { context in
                // A closure literal that captures nothing becomes a plain C function pointer.
                vt_parallel_run(Int32(parts), { context, part in
                    guard let erased = context?.assumingMemoryBound(to: ErasedJob.self).pointee else { return }
                    erased.type.run(at: erased.job, part: Int(part))
                }, context)
            }
        }
    }
}

/// A kernel call's work over a range, split by `KernelThreads.split`: a struct of the call's
/// pointers and parameters, so handing it to the worker threads allocates nothing.
protocol RangeJob {
    /// Computes items `begin ..< end`; `part` (below the thread count) picks per-thread scratch.
    func run(part: Int, begin: Int, end: Int)
}

/// What most kernel jobs carry: the input and output tensors, the fused clamp and the code path.
struct JobIO {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let activation: ClampRange
    let isa: Int32
}

/// One part of a split call.
private protocol PartJob {
    func run(part: Int)
}

extension PartJob {
    /// Runs part `part` of the job of this type at `pointer`.
    static func run(at pointer: UnsafeRawPointer, part: Int) {
        pointer.assumingMemoryBound(to: Self.self).pointee.run(part: part)
    }
}

private struct SplitJob<Job: RangeJob>: PartJob {
    let job: Job
    let total, granule, granules, parts: Int

    func run(part: Int) {
        let begin = Swift.min(total, granules * part / parts * granule)
        let end = Swift.min(total, granules * (part + 1) / parts * granule)
        if begin < end { job.run(part: part, begin: begin, end: end) }
    }
}

/// A job's dynamic type and address, behind the `void *` the C pool passes to each part.
private struct ErasedJob {
    let type: any PartJob.Type
    let job: UnsafeRawPointer
}

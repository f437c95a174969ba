import CKernels

/// How many threads a kernel may use; a call splits its work range into that many parts.
package struct KernelThreads: Sendable, Equatable {
    /// Number of parts (at least 1).
    package let count: Int
    /// The grain given at creation; nil: this host's, as measured at each split.
    let fixedGrain: Double?
    /// Whether the memory plan gives each run-time tensor its own buffer rather than reusing dead ones' space
    /// (`HandoffCost.separatesBuffers`; false for one thread).
    package let separateBuffers: Bool

    /// Up to `count` threads (values below 1 mean 1), with this host's grain and buffer choice (measured on first use).
    package init(_ count: Int) {
        // The hand-off is first measured here, at the plan, outside any pool job (a split inside one could not).
        if count > 1 { _ = HandoffCost.nanoseconds }
        self.init(count, grain: nil, separateBuffers: count > 1 && HandoffCost.separatesBuffers)
    }

    /// Up to `count` threads with every minimum work per part scaled by `grain` (nil: this host's, `HandoffCost.grain`,
    /// read at each split), and buffers separate or reused as `separateBuffers` says (tests fix them).
    package init(_ count: Int, grain: Double?, separateBuffers: Bool = false) {
        self.count = Swift.max(1, count)
        self.fixedGrain = grain
        self.separateBuffers = separateBuffers && count > 1
    }

    /// The factor on every kernel's minimum work per part: the grain given, else this host's hand-off cost over the
    /// one the minimums were tuned at (`HandoffCost.grain`, re-measured while late); 1 for one thread.
    package var grain: Double { count > 1 ? fixedGrain ?? HandoffCost.grain : 1 }

    /// One thread: the call runs on the caller's thread.
    package static let single = KernelThreads(1)

    /// Parts per thread when a call is split. The pool deals them in one contiguous range per thread, so each
    /// thread still computes the same share of every layer and reads what it wrote; a thread out of parts takes
    /// another's from the back, so a worker that starts late or is preempted mid-call holds the caller up by a
    /// quarter of its share at most. Against one part per thread claimed by whichever thread was free (AMD EPYC,
    /// 2 vCPUs, quiet, 20 alternating rounds): 2-thread medians 0-6% lower on four detector and landmark models
    /// (pose_detector +1%, within noise), CPU per call at 2 threads against 1 lower (1.11-1.27 against 1.17-1.28).
    static let partsPerThread = 4

    /// Runs `job.run(thread:begin:end:)` over `0 ..< total` split into contiguous parts whose
    /// boundaries are multiples of `granule`: up to `partsPerThread` parts per thread, none with
    /// fewer than `minimum(minimumPerPart)` items, the tuned minimum scaled by the grain (small work stays on the calling thread: splitting it would
    /// cost more than it saves). Parts run concurrently on the worker pool (Sources/CKernels/pool.c)
    /// and all finish before return. No allocation.
    func split<Job: RangeJob>(_ total: Int, granule: Int = 1, minimumPerPart: Int = 0, _ job: Job) {
        guard total > 0 else { return }
        let g = Swift.max(1, granule)
        let granules = (total + g - 1) / g
        let parts = self.parts(total, granule: g, minimumPerPart: minimumPerPart)
        if count <= 1 || parts <= 1 {
            job.run(thread: 0, begin: 0, end: total)
            return
        }
        let split = SplitJob(job: job, total: total, granule: g, granules: granules, parts: parts)
        withUnsafePointer(to: split) { pointer in
            var erased = ErasedJob(type: SplitJob<Job>.self, job: UnsafeRawPointer(pointer))
            withUnsafeMutablePointer(to: &erased) { context in
                // A closure literal that captures nothing becomes a plain C function pointer.
                vt_parallel_run(
                    Int32(parts), Int32(Swift.min(count, parts)),
                    { context, part, thread in
                        guard let erased = context?.assumingMemoryBound(to: ErasedJob.self).pointee else { return }
                        erased.type.run(at: erased.job, part: Int(part), thread: Int(thread))
                    }, context)
            }
        }
    }
}

extension KernelThreads {
    /// `items`, a kernel's minimum work per part as tuned, scaled by the grain; 0 (no minimum) gives 1.
    func minimum(_ items: Int) -> Int {
        items <= 0 ? 1 : Swift.max(1, Int((Double(items) * grain).rounded(.up)))
    }

    /// How many parts `split` cuts `total` items into: at most `partsPerThread` per thread, one per
    /// granule, and none below `minimum(minimumPerPart)` items (1: the call stays whole, as on one thread;
    /// a `minimumPerPart` of 0 sets no minimum).
    func parts(_ total: Int, granule: Int = 1, minimumPerPart: Int = 0) -> Int {
        guard count > 1 else { return 1 }
        let g = Swift.max(1, granule)
        let byWork = Swift.max(1, total / minimum(minimumPerPart))
        return Swift.max(1, Swift.min(count * Self.partsPerThread, (total + g - 1) / g, byWork))
    }
}

/// A kernel call's work over a range, split by `KernelThreads.split`: a struct of the call's
/// pointers and parameters, so handing it to the worker threads allocates nothing.
protocol RangeJob {
    /// Computes items `begin ..< end` on thread `thread` (below the thread count: it picks per-thread scratch).
    func run(thread: Int, begin: Int, end: Int)
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
    func run(part: Int, thread: Int)
}

extension PartJob {
    /// Runs part `part` of the job of this type at `pointer` on thread `thread`.
    static func run(at pointer: UnsafeRawPointer, part: Int, thread: Int) {
        pointer.assumingMemoryBound(to: Self.self).pointee.run(part: part, thread: thread)
    }
}

private struct SplitJob<Job: RangeJob>: PartJob {
    let job: Job
    let total, granule, granules, parts: Int

    func run(part: Int, thread: Int) {
        let begin = Swift.min(total, granules * part / parts * granule)
        let end = Swift.min(total, granules * (part + 1) / parts * granule)
        if begin < end { job.run(thread: thread, begin: begin, end: end) }
    }
}

/// A job's dynamic type and address, behind the `void *` the C pool passes to each part.
private struct ErasedJob {
    let type: any PartJob.Type
    let job: UnsafeRawPointer
}

import CKernels

/// CONV_2D: `output` [N, OH, OW, O] = conv(`input` [N, H, W, C], weights) + bias, then
/// `+ residual` (when given: a tensor of the output's shape, may be `output` itself; or
/// [N, OH, OW, `residualChannels`] with fewer channels, zero-padded to O on the fly), clamped to
/// `activation`, then PReLU with per-output-channel slopes `preluAlpha` [O] (when given). The
/// optional parts fuse CONV_2D (activation NONE) → ADD (its activation) → PRELU into one pass.
/// `scratch` holds at least `weights.scratchCount(threads:)` floats (may be nil when that is 0).
/// No allocation; the work is split across `threads` in tiles of output pixels × output channels
/// (see `Conv2DTiling`), or not at all when it is too small to pay for the split.
package func conv2D(
    input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
    weights: PackedConv2DWeights, activation: ClampRange = .none,
    residual: UnsafePointer<Float>? = nil, residualChannels: Int? = nil,
    preluAlpha: UnsafePointer<Float>? = nil,
    scratch: UnsafeMutablePointer<Float>?, threads: KernelThreads = .single,
    isa: KernelISA = .best
) {
    var cg = weights.geometry.c
    let perThread = vt_conv2d_scratch_count(&cg)
    precondition(perThread == 0 || scratch != nil, "conv2D: scratch buffer missing")
    let g = weights.geometry
    precondition(
        (1...g.outputChannels).contains(residualChannels ?? g.outputChannels), "conv2D: residual channels out of range")
    let tiling = Conv2DTiling(
        pixels: g.batch * g.outputHeight * g.outputWidth, columns: g.outputChannels,
        reduction: g.kernelHeight * g.kernelWidth * g.inputChannels, taps: g.kernelHeight * g.kernelWidth,
        threads: threads.count, minimumWork: threads.minimum(Conv2DTiling.minimumWork))
    let job = Conv2DJob(
        geometry: cg, input: input, packed: UnsafePointer(weights.storage.pointer), output: output,
        epilogue: vt_epilogue(
            lo: activation.min, hi: activation.max, residual: residual,
            prelu_alpha: preluAlpha,
            residual_channels: Int32(residualChannels ?? 0)),
        scratch: scratch, scratchPerThread: perThread, tiling: tiling, isa: isa.code)
    threads.split(tiling.tiles, job)
}

/// How one CONV_2D call is cut into tiles for the worker threads: ranges of output pixels first
/// (each tile then gathers only its own pixels), and, when a small map leaves too few pixel ranges,
/// ranges of output channels too. A 1×1 convolution on a map with fewer pixels than channels
/// (`splitsChannels`: the deep layers, 7×7 or 8×8 pixels by hundreds of channels) is cut by channels
/// only: each thread then reads its share of the weights, not all of them, and computes every pixel
/// of its channels in the same row blocks as one thread does (a 49-pixel map cut 24 : 25 costs one
/// thread an extra block). A tile holds at least `minimumWork` multiply-adds, so small convolutions
/// stay on one thread.
struct Conv2DTiling: Equatable {
    /// Multiply-adds below which a tile costs more to hand over than it saves (about 2 µs of work),
    /// as tuned where the hand-off cost `HandoffCost.tunedNanoseconds`.
    static let minimumWork = 65_536
    /// Output pixels per pixel-range boundary (a multiple of the AVX2 micro-kernel's 6 rows).
    static let pixelGranule = 24

    let pixels, columns: Int
    /// Pixel ranges × channel ranges.
    let pixelTiles, columnTiles: Int
    /// Columns per channel-range boundary: 16 (a packed panel), or 32 (the AVX-512 micro-kernel's pair
    /// of panels) when cut by channels only and the threads' shares come out as even as with 16.
    let columnStep: Int

    /// Whether a convolution of `taps` kernel taps (height × width) on `pixels` output pixels by `columns`
    /// output channels is cut by channels only: a 1×1 one with fewer pixels than channels, so the weights
    /// (reduction × columns) outweigh the input (pixels × reduction) that each thread then reads whole.
    /// Wider kernels stay cut by pixels, which shares out the gathering of windows that cross the padding.
    static func splitsChannels(pixels: Int, columns: Int, taps: Int) -> Bool { taps == 1 && columns > pixels }

    /// Tiles for `pixels` × `columns` outputs of `reduction` multiply-adds each from a kernel of `taps`
    /// taps, over `threads` threads, none below `minimumWork` multiply-adds (the tuned minimum scaled by
    /// `KernelThreads.grain`).
    init(
        pixels: Int, columns: Int, reduction: Int, taps: Int = 1, threads: Int,
        minimumWork: Int = Conv2DTiling.minimumWork
    ) {
        self.pixels = pixels
        self.columns = columns
        let work = pixels * columns * Swift.max(1, reduction)
        let wanted =
            threads <= 1 ? 1 : Swift.min(threads * KernelThreads.partsPerThread, work / Swift.max(1, minimumWork))
        guard wanted > 1 else {
            (pixelTiles, columnTiles, columnStep) = (1, 1, 16)
            return
        }
        if Self.splitsChannels(pixels: pixels, columns: columns, taps: taps) {
            // 288 columns are 9 steps of 32, dealt 4 : 5 to two threads; 18 panels of 16 are dealt 9 : 9.
            func largestShare(_ step: Int) -> Int {
                Self.largestShare(columns: columns, step: step, tiles: wanted, threads: threads)
            }
            columnStep = largestShare(32) <= largestShare(16) ? 32 : 16
            (pixelTiles, columnTiles) = (1, Swift.min((columns + columnStep - 1) / columnStep, wanted))
            return
        }
        columnStep = 16
        let pixelRanges = Swift.max(1, Swift.min(wanted, pixels / Self.pixelGranule))
        let panels = (columns + 15) / 16
        (pixelTiles, columnTiles) = (pixelRanges, Swift.max(1, Swift.min(panels, wanted / pixelRanges)))
    }

    /// The most columns one of `threads` threads computes when `columns` are cut into up to `tiles`
    /// ranges on multiples of `step`, the ranges dealt in contiguous runs, one a thread (as the pool deals
    /// a call's parts: `vt_parallel_run`).
    static func largestShare(columns: Int, step: Int, tiles wanted: Int, threads: Int) -> Int {
        let steps = (columns + step - 1) / step
        let tiles = Swift.min(steps, wanted), dealt = Swift.max(1, Swift.min(threads, tiles))
        func bound(_ tile: Int) -> Int { Swift.min(columns, steps * tile / tiles * step) }
        var largest = 0 // a loop, not map(_:): this runs in every split call, which allocates nothing
        for thread in 0..<dealt {
            largest = Swift.max(largest, bound(tiles * (thread + 1) / dealt) - bound(tiles * thread / dealt))
        }
        return largest
    }

    /// Number of tiles.
    var tiles: Int { pixelTiles * columnTiles }

    /// The output pixels and channels of tile `t`; channel bounds are multiples of `columnStep` or `columns`.
    func ranges(_ t: Int) -> (pixels: Range<Int>, columns: Range<Int>) {
        let (p, c) = t.quotientAndRemainder(dividingBy: columnTiles)
        let steps = (columns + columnStep - 1) / columnStep
        let (first, last) = (steps * c / columnTiles * columnStep, steps * (c + 1) / columnTiles * columnStep)
        return (
            pixels * p / pixelTiles..<pixels * (p + 1) / pixelTiles,
            Swift.min(columns, first)..<Swift.min(columns, last)
        )
    }
}

/// One CONV_2D call's pointers; a part computes a range of tiles.
private struct Conv2DJob: RangeJob {
    let geometry: vt_conv_geometry
    let input: UnsafePointer<Float>
    let packed: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let epilogue: vt_epilogue
    let scratch: UnsafeMutablePointer<Float>?
    let scratchPerThread: Int
    let tiling: Conv2DTiling
    let isa: Int32

    func run(thread: Int, begin: Int, end: Int) {
        var g = geometry
        var ep = epilogue
        let threadScratch = scratch.map { $0 + thread * scratchPerThread }
        for t in begin..<end {
            let (p, c) = tiling.ranges(t)
            guard !p.isEmpty, !c.isEmpty else { continue }
            vt_conv2d(
                &g, input, packed, output, &ep, threadScratch, p.lowerBound, p.upperBound,
                c.lowerBound, c.upperBound, isa)
        }
    }
}

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
        reduction: g.kernelHeight * g.kernelWidth * g.inputChannels, threads: threads.count,
        minimumWork: threads.minimum(Conv2DTiling.minimumWork))
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
/// (each tile then gathers only its own pixels), and, when a small map leaves too few pixel ranges
/// (the deep layers: 12×12 or 6×6 pixels, hundreds of channels), ranges of output channels too.
/// A tile holds at least `minimumWork` multiply-adds, so small convolutions stay on one thread.
struct Conv2DTiling: Equatable {
    /// Multiply-adds below which a tile costs more to hand over than it saves (about 2 µs of work),
    /// as tuned where the hand-off cost `HandoffCost.tunedNanoseconds`.
    static let minimumWork = 65_536
    /// Output pixels per pixel-range boundary (a multiple of the AVX2 micro-kernel's 6 rows).
    static let pixelGranule = 24

    let pixels, columns: Int
    /// Pixel ranges × channel ranges.
    let pixelTiles, columnTiles: Int

    /// Tiles for `pixels` × `columns` outputs of `reduction` multiply-adds each, over `threads`
    /// threads, none below `minimumWork` multiply-adds (the tuned minimum scaled by `KernelThreads.grain`).
    init(pixels: Int, columns: Int, reduction: Int, threads: Int, minimumWork: Int = Conv2DTiling.minimumWork) {
        self.pixels = pixels
        self.columns = columns
        let work = pixels * columns * Swift.max(1, reduction)
        let wanted =
            threads <= 1 ? 1 : Swift.min(threads * KernelThreads.partsPerThread, work / Swift.max(1, minimumWork))
        guard wanted > 1 else {
            (pixelTiles, columnTiles) = (1, 1)
            return
        }
        let pixelRanges = Swift.max(1, Swift.min(wanted, pixels / Self.pixelGranule))
        let panels = (columns + 15) / 16
        (pixelTiles, columnTiles) = (pixelRanges, Swift.max(1, Swift.min(panels, wanted / pixelRanges)))
    }

    /// Number of tiles.
    var tiles: Int { pixelTiles * columnTiles }

    /// The output pixels and channels of tile `t`; channel bounds are multiples of 16 or `columns`.
    func ranges(_ t: Int) -> (pixels: Range<Int>, columns: Range<Int>) {
        let (p, c) = t.quotientAndRemainder(dividingBy: columnTiles)
        let panels = (columns + 15) / 16
        return (
            pixels * p / pixelTiles..<pixels * (p + 1) / pixelTiles,
            Swift.min(columns, panels * c / columnTiles * 16)..<Swift.min(columns, panels * (c + 1) / columnTiles * 16)
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

// RESIZE_BILINEAR on NHWC, with TFLite's align_corners and half_pixel_centers rules: the taps are computed here,
// the weighted sums in C (`vt_resize_bilinear`, resize.c).

import CKernels

/// Source indices and weight of one output coordinate (`vt_bilinear_tap`): `upper`'s weight is `weight`,
/// `lower`'s 1 − weight.
typealias BilinearTap = vt_bilinear_tap

/// The taps of every output coordinate along one axis, computed as TFLite does:
/// scale = in/out (or (in−1)/(out−1) with align_corners), source = (o + ½)·scale − ½ with
/// half-pixel centres (else o·scale), lower = max(⌊source⌋, 0), upper = min(⌈source⌉, in−1),
/// weight = source − lower (TFLite's reference kernel).
func bilinearTaps(inputSize: Int, outputSize: Int, alignCorners: Bool, halfPixelCenters: Bool) -> [BilinearTap] {
    let scale: Float =
        alignCorners && outputSize > 1
        ? Float(inputSize - 1) / Float(outputSize - 1)
        : Float(inputSize) / Float(outputSize)
    return (0..<outputSize).map { o in
        let source = halfPixelCenters ? (Float(o) + 0.5) * scale - 0.5 : Float(o) * scale
        let lower = max(Int(source.rounded(.down)), 0)
        let upper = min(Int(source.rounded(.up)), inputSize - 1)
        return BilinearTap(lower: lower, upper: upper, weight: source - Float(lower))
    }
}

/// A prepared bilinear resize of [batch, inH, inW, channels] to [batch, outH, outW, channels], clamped to
/// `activation`, its output rows split over `threads` (each element computed alike whatever the split).
final class ResizeBilinearKernel: Kernel {
    let input: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>
    let batch: Int, inH: Int, inW: Int, channels: Int
    let rows: [BilinearTap], columns: [BilinearTap]
    let activation: ClampRange
    let threads: KernelThreads
    let isa: KernelISA

    init(
        input: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, inputShape s: [Int], outH: Int, outW: Int,
        alignCorners: Bool, halfPixelCenters: Bool, activation: ClampRange = .none, threads: KernelThreads = .single,
        isa: KernelISA = .best
    ) {
        self.input = input
        self.out = out
        batch = s[0]
        inH = s[1]
        inW = s[2]
        channels = s[3]
        rows = bilinearTaps(
            inputSize: s[1], outputSize: outH, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
        columns = bilinearTaps(
            inputSize: s[2], outputSize: outW, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
        self.activation = activation
        self.threads = threads
        self.isa = isa
    }

    func run() {
        let rowWork = columns.count * channels
        rows.withUnsafeBufferPointer { rowTaps in
            columns.withUnsafeBufferPointer { columnTaps in
                // Parts of at least ~8K outputs: below that a split costs more than it saves.
                threads.split(
                    batch * rowTaps.count, minimumPerPart: Swift.max(1, 8192 / Swift.max(1, rowWork)),
                    ResizeRowsJob(
                        input: input, out: out, inH: inH, inW: inW, channels: channels,
                        rows: rowTaps, columns: columnTaps, activation: activation, isa: isa.code))
            }
        }
    }
}

/// Output rows `begin ..< end` (over batch × height) of one resize call.
private struct ResizeRowsJob: RangeJob {
    let input: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>
    let inH: Int, inW: Int, channels: Int
    let rows: UnsafeBufferPointer<BilinearTap>, columns: UnsafeBufferPointer<BilinearTap>
    let activation: ClampRange
    let isa: Int32

    func run(thread: Int, begin: Int, end: Int) {
        vt_resize_bilinear(
            input, out, inH, inW, channels, rows.baseAddress, rows.count, columns.baseAddress, columns.count,
            activation.min, activation.max, begin, end, isa)
    }
}

// RESIZE_BILINEAR on NHWC, with TFLite's align_corners and half_pixel_centers rules.

/// Source indices and weight of one output coordinate.
struct BilinearTap: Equatable {
    var lower: Int, upper: Int
    /// Weight of `upper`; `lower` gets 1 − weight.
    var weight: Float
}

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

    init(
        input: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, inputShape s: [Int], outH: Int, outW: Int,
        alignCorners: Bool, halfPixelCenters: Bool, activation: ClampRange = .none, threads: KernelThreads = .single
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
                        rows: rowTaps, columns: columnTaps, activation: activation))
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

    func run(thread: Int, begin: Int, end: Int) {
        let c = channels
        let clamps = activation != .none
        let (lo, hi) = (activation.min, activation.max)
        let (vlo, vhi) = (SIMD8<Float>(repeating: lo), SIMD8<Float>(repeating: hi))
        var y = out + begin * columns.count * c
        for row in begin..<end {
            let image = input + (row / rows.count) * inH * inW * c
            let ry = rows[row % rows.count]
            let r0 = image + ry.lower * inW * c, r1 = image + ry.upper * inW * c
            let wy = ry.weight
            for cx in columns {
                let wx = cx.weight
                // TFLite's formula: each corner weighted by the product of its two 1-D weights.
                let w00 = (1 - wy) * (1 - wx), w01 = (1 - wy) * wx, w10 = wy * (1 - wx), w11 = wy * wx
                let p00 = r0 + cx.lower * c, p01 = r0 + cx.upper * c
                let p10 = r1 + cx.lower * c, p11 = r1 + cx.upper * c
                var k = 0
                while k + 8 <= c {
                    var v = load8(p00 + k) * w00
                    v += load8(p10 + k) * w10
                    v += load8(p01 + k) * w01
                    v += load8(p11 + k) * w11
                    if clamps { v = lanewiseMin(lanewiseMax(v, vlo), vhi) }
                    store8(v, y + k)
                    k += 8
                }
                while k < c {
                    let v = p00[k] * w00 + p10[k] * w10 + p01[k] * w01 + p11[k] * w11
                    // As the lanes above: a NaN stays NaN.
                    y[k] = clamps ? (hi < v ? hi : (v < lo ? lo : v)) : v
                    k += 1
                }
                y += c
            }
        }
    }
}

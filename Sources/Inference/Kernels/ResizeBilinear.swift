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
    let scale: Float = alignCorners && outputSize > 1
        ? Float(inputSize - 1) / Float(outputSize - 1)
        : Float(inputSize) / Float(outputSize)
    return (0..<outputSize).map { o in
        let source = halfPixelCenters ? (Float(o) + 0.5) * scale - 0.5 : Float(o) * scale
        let lower = max(Int(source.rounded(.down)), 0)
        let upper = min(Int(source.rounded(.up)), inputSize - 1)
        return BilinearTap(lower: lower, upper: upper, weight: source - Float(lower))
    }
}

/// A prepared bilinear resize of [batch, inH, inW, channels] to [batch, outH, outW, channels].
final class ResizeBilinearKernel: Kernel {
    let input: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>
    let batch: Int, inH: Int, inW: Int, channels: Int
    let rows: [BilinearTap], columns: [BilinearTap]

    init(input: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, inputShape s: [Int], outH: Int, outW: Int,
         alignCorners: Bool, halfPixelCenters: Bool) {
        self.input = input
        self.out = out
        batch = s[0]; inH = s[1]; inW = s[2]; channels = s[3]
        rows = bilinearTaps(inputSize: s[1], outputSize: outH, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
        columns = bilinearTaps(inputSize: s[2], outputSize: outW, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
    }

    func run() {
        let c = channels
        var y = out
        for b in 0..<batch {
            let image = input + b * inH * inW * c
            rows.forEachWithoutAllocating { ry in
                let r0 = image + ry.lower * inW * c, r1 = image + ry.upper * inW * c
                let wy = ry.weight
                columns.forEachWithoutAllocating { cx in
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
                        store8(v, y + k)
                        k += 8
                    }
                    while k < c {
                        y[k] = p00[k] * w00 + p10[k] * w10 + p01[k] * w01 + p11[k] * w11
                        k += 1
                    }
                    y += c
                }
            }
        }
    }
}

/// OpenCV's `warpPerspective` with `INTER_LINEAR` on 8-bit pixels in the fixed-point form that
/// MediaPipe 1.2.2's ImageToTensorCalculator produces (checked against MediaPipe itself): source
/// coordinates in double precision, per 16-row x 64-column block as OpenCV walks the tensor,
/// rounded (half to even) to 1/32 pixel; the four neighbours weighted by 15-bit integer
/// coefficients `(32 - fx)(32 - fy)·32` …, summed with rounding and shifted back to a level 0...255,
/// which is then looked up in the output range table.
struct BilinearWarp {
    let source: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let format: PixelFormat
    /// Row-major 3x3 mapping tensor pixel (x, y, 1) to source pixel coordinates (homogeneous).
    let inverseMatrix: [Double]
    let zeroBorder: Bool

    func run(into output: UnsafeMutablePointer<Float>, width outWidth: Int, height outHeight: Int,
             levels: UnsafePointer<Float>) {
        let m = inverseMatrix
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let blockRows = min(16, outHeight)
        let blockColumns = min(1024 / blockRows, outWidth)
        for y in 0..<outHeight {
            let fy = Double(y)
            var target = output + y * outWidth * 3
            var blockStart = 0
            while blockStart < outWidth {
                let count = min(blockColumns, outWidth - blockStart)
                let fx = Double(blockStart)
                let x0 = m0 * fx + m1 * fy + m2
                let y0 = m3 * fx + m4 * fy + m5
                let w0 = m6 * fx + m7 * fy + m8
                for x1 in 0..<count {
                    let dx = Double(x1)
                    var w = w0 + m6 * dx
                    w = w != 0 ? 32 / w : 0
                    let sx = fixedPoint((x0 + m0 * dx) * w)
                    let sy = fixedPoint((y0 + m3 * dx) * w)
                    sample(sx, sy, into: target, levels: levels)
                    target += 3
                }
                blockStart += count
            }
        }
    }

    /// A coordinate in 1/32 pixels, rounded half to even and clamped as OpenCV's `saturate_cast<int>`.
    @inline(__always)
    private func fixedPoint(_ value: Double) -> Int {
        guard value == value else { return Int(Int32.min) }
        let clamped = max(Double(Int32.min), min(Double(Int32.max), value))
        return Int(clamped.rounded(.toNearestOrEven))
    }

    @inline(__always)
    private func sample(_ sx: Int, _ sy: Int, into target: UnsafeMutablePointer<Float>, levels: UnsafePointer<Float>) {
        // Whole pixel (clamped to 16 bits as OpenCV stores it) and fraction in 1/32.
        let ix = min(max(sx >> 5, -32768), 32767), iy = min(max(sy >> 5, -32768), 32767)
        let fx = sx & 31, fy = sy & 31
        let w00 = (32 - fx) * (32 - fy) * 32, w01 = fx * (32 - fy) * 32
        let w10 = (32 - fx) * fy * 32, w11 = fx * fy * 32
        let bpp = format.bytesPerPixel
        let offsets = format.rgbOffsets
        let stride = width * bpp
        if ix >= 0, iy >= 0, ix < width - 1, iy < height - 1 {
            let p = source + iy * stride + ix * bpp
            let q = p + stride
            target[0] = levels[blend(p + offsets.r, q + offsets.r, bpp, w00, w01, w10, w11)]
            target[1] = levels[blend(p + offsets.g, q + offsets.g, bpp, w00, w01, w10, w11)]
            target[2] = levels[blend(p + offsets.b, q + offsets.b, bpp, w00, w01, w10, w11)]
            return
        }
        if zeroBorder && (ix >= width || ix + 1 < 0 || iy >= height || iy + 1 < 0) {
            target[0] = levels[0]
            target[1] = levels[0]
            target[2] = levels[0]
            return
        }
        // Partly outside: each neighbour by the border rule (zero, or the nearest edge pixel).
        let x0 = borderIndex(ix, width), x1 = borderIndex(ix + 1, width)
        let y0 = borderIndex(iy, height), y1 = borderIndex(iy + 1, height)
        func level(_ offset: Int) -> Float {
            let v00 = fetch(x0, y0, offset, stride, bpp), v01 = fetch(x1, y0, offset, stride, bpp)
            let v10 = fetch(x0, y1, offset, stride, bpp), v11 = fetch(x1, y1, offset, stride, bpp)
            return levels[round(v00 * w00 + v01 * w01 + v10 * w10 + v11 * w11)]
        }
        target[0] = level(offsets.r)
        target[1] = level(offsets.g)
        target[2] = level(offsets.b)
    }

    @inline(__always)
    private func blend(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, _ bpp: Int,
                       _ w00: Int, _ w01: Int, _ w10: Int, _ w11: Int) -> Int {
        round(Int(p[0]) * w00 + Int(p[bpp]) * w01 + Int(q[0]) * w10 + Int(q[bpp]) * w11)
    }

    /// The 15-bit fixed-point sum back to a level, rounded and saturated.
    @inline(__always)
    private func round(_ sum: Int) -> Int {
        min(max((sum + (1 << 14)) >> 15, 0), 255)
    }

    /// The index to read for a neighbour outside the image: clamped, or -1 (zero) for a zero border.
    @inline(__always)
    private func borderIndex(_ i: Int, _ count: Int) -> Int {
        if i >= 0 && i < count { return i }
        return zeroBorder ? -1 : min(max(i, 0), count - 1)
    }

    @inline(__always)
    private func fetch(_ x: Int, _ y: Int, _ offset: Int, _ stride: Int, _ bpp: Int) -> Int {
        x < 0 || y < 0 ? 0 : Int(source[y * stride + x * bpp + offset])
    }
}

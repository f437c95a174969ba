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
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * outWidth) { scratch in
            guard let coordinates = scratch.baseAddress else { return }
            for y in 0..<outHeight {
                computeCoordinates(row: y, width: outWidth, height: outHeight, into: coordinates)
                let target = output + y * outWidth * 3
                switch format {
                case .rgb8: sampleRow(RGB8.self, coordinates, outWidth, target, levels)
                case .rgba8: sampleRow(RGBA8.self, coordinates, outWidth, target, levels)
                case .bgra8: sampleRow(BGRA8.self, coordinates, outWidth, target, levels)
                case .gray8: sampleRow(Gray8.self, coordinates, outWidth, target, levels)
                }
            }
        }
    }

    /// Source positions of one tensor row in 1/32 pixels (x, y interleaved), as OpenCV computes
    /// them: per block of 64 columns a double-precision start, then `(x0 + M0·i)·(32 / w)`, clamped
    /// to 32-bit and rounded half to even (adding and removing 1.5·2^52 rounds without a call).
    private func computeCoordinates(row y: Int, width outWidth: Int, height outHeight: Int,
                                    into coordinates: UnsafeMutablePointer<Int32>) {
        let m = inverseMatrix
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        // OpenCV walks the tensor in blocks of (at most) 16 rows by 1024/rows columns.
        let blockColumns = min(1024 / min(16, outHeight), outWidth)
        let fy = Double(y)
        let magic = 6_755_399_441_055_744.0
        let low = Double(Int32.min), high = Double(Int32.max)
        var blockStart = 0
        while blockStart < outWidth {
            let count = min(blockColumns, outWidth - blockStart)
            let fx = Double(blockStart)
            let x0 = m0 * fx + m1 * fy + m2
            let y0 = m3 * fx + m4 * fy + m5
            let w0 = m6 * fx + m7 * fy + m8
            let out = coordinates + 2 * blockStart
            for i in 0..<count {
                let d = Double(i)
                var w = w0 + m6 * d
                w = w != 0 ? 32 / w : 0
                var sx = (x0 + m0 * d) * w, sy = (y0 + m3 * d) * w
                sx = sx == sx ? max(low, min(high, sx)) : low
                sy = sy == sy ? max(low, min(high, sy)) : low
                out[2 * i] = Int32((sx + magic) - magic)
                out[2 * i + 1] = Int32((sy + magic) - magic)
            }
            blockStart += count
        }
    }

    private func sampleRow<L: PixelLayout>(_ layout: L.Type, _ coordinates: UnsafePointer<Int32>, _ count: Int,
                                           _ target: UnsafeMutablePointer<Float>, _ levels: UnsafePointer<Float>) {
        let stride = width * L.bytesPerPixel
        let innerWidth = width - 1, innerHeight = height - 1
        for x in 0..<count {
            let sx = Int(coordinates[2 * x]), sy = Int(coordinates[2 * x + 1])
            let ix = sx >> 5, iy = sy >> 5
            let fx = sx & 31, fy = sy & 31
            let w00 = (32 - fx) * (32 - fy) * 32, w01 = fx * (32 - fy) * 32
            let w10 = (32 - fx) * fy * 32, w11 = fx * fy * 32
            let out = target + 3 * x
            if ix >= 0, iy >= 0, ix < innerWidth, iy < innerHeight {
                // The weights sum to 2^15, so the rounded result is already within 0...255.
                let p = source + iy * stride + ix * L.bytesPerPixel
                let q = p + stride
                let n = L.bytesPerPixel
                let r = Int(p[L.red]) * w00 + Int(p[L.red + n]) * w01 + Int(q[L.red]) * w10 + Int(q[L.red + n]) * w11
                out[0] = levels[(r + 16384) >> 15]
                if L.bytesPerPixel == 1 {
                    out[1] = out[0]
                    out[2] = out[0]
                } else {
                    let g = Int(p[L.green]) * w00 + Int(p[L.green + n]) * w01 + Int(q[L.green]) * w10 + Int(q[L.green + n]) * w11
                    let b = Int(p[L.blue]) * w00 + Int(p[L.blue + n]) * w01 + Int(q[L.blue]) * w10 + Int(q[L.blue + n]) * w11
                    out[1] = levels[(g + 16384) >> 15]
                    out[2] = levels[(b + 16384) >> 15]
                }
            } else {
                sampleAtBorder(L.self, min(max(ix, -32768), 32767), min(max(iy, -32768), 32767),
                               (w00, w01, w10, w11), out, levels)
            }
        }
    }

    /// A tensor pixel whose neighbours are not all inside: OpenCV's remap border rules.
    private func sampleAtBorder<L: PixelLayout>(_ layout: L.Type, _ ix: Int, _ iy: Int, _ w: (Int, Int, Int, Int),
                                                _ out: UnsafeMutablePointer<Float>, _ levels: UnsafePointer<Float>) {
        if zeroBorder && (ix >= width || ix + 1 < 0 || iy >= height || iy + 1 < 0) {
            out[0] = levels[0]
            out[1] = levels[0]
            out[2] = levels[0]
            return
        }
        let stride = width * L.bytesPerPixel
        let x0 = borderIndex(ix, width), x1 = borderIndex(ix + 1, width)
        let y0 = borderIndex(iy, height), y1 = borderIndex(iy + 1, height)
        func level(_ offset: Int) -> Float {
            func value(_ x: Int, _ y: Int) -> Int {
                x < 0 || y < 0 ? 0 : Int(source[y * stride + x * L.bytesPerPixel + offset])
            }
            let sum = value(x0, y0) * w.0 + value(x1, y0) * w.1 + value(x0, y1) * w.2 + value(x1, y1) * w.3
            return levels[min(max((sum + 16384) >> 15, 0), 255)]
        }
        out[0] = level(L.red)
        out[1] = level(L.green)
        out[2] = level(L.blue)
    }

    /// The index to read for a neighbour outside the image: clamped, or -1 (zero) for a zero border.
    @inline(__always)
    private func borderIndex(_ i: Int, _ count: Int) -> Int {
        if i >= 0 && i < count { return i }
        return zeroBorder ? -1 : min(max(i, 0), count - 1)
    }
}

/// A pixel layout known at compile time, so each format gets its own specialised sampling loop.
private protocol PixelLayout {
    static var bytesPerPixel: Int { get }
    static var red: Int { get }
    static var green: Int { get }
    static var blue: Int { get }
}

private enum RGB8: PixelLayout {
    static var bytesPerPixel: Int { 3 }
    static var red: Int { 0 }
    static var green: Int { 1 }
    static var blue: Int { 2 }
}

private enum RGBA8: PixelLayout {
    static var bytesPerPixel: Int { 4 }
    static var red: Int { 0 }
    static var green: Int { 1 }
    static var blue: Int { 2 }
}

private enum BGRA8: PixelLayout {
    static var bytesPerPixel: Int { 4 }
    static var red: Int { 2 }
    static var green: Int { 1 }
    static var blue: Int { 0 }
}

private enum Gray8: PixelLayout {
    static var bytesPerPixel: Int { 1 }
    static var red: Int { 0 }
    static var green: Int { 0 }
    static var blue: Int { 0 }
}

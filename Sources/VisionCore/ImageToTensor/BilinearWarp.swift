import CImageCodecs

/// OpenCV's `warpPerspective` with `INTER_LINEAR` on 8-bit pixels in the fixed-point form that
/// MediaPipe 1.2.2's ImageToTensorCalculator produces (checked against MediaPipe itself): source
/// coordinates in double precision, per 16-row x 64-column block as OpenCV walks the tensor,
/// rounded (half to even) to 1/32 pixel; the four neighbours weighted by 15-bit integer
/// coefficients `(32 - fx)(32 - fy)·32` …, summed with rounding and shifted back to a level 0...255,
/// which is then looked up in the output range table. The coordinates are computed here, the
/// sampling in C (`ic_warp_row`, which prefetches the source lines a rotated crop reads next).
struct BilinearWarp {
    let source: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let format: PixelFormat
    /// Row-major 3x3 mapping tensor pixel (x, y, 1) to source pixel coordinates (homogeneous).
    let inverseMatrix: [Double]
    let zeroBorder: Bool

    /// Fills tensor rows `rows` of the `outWidth`×`outHeight` tensor at `output` (rows are
    /// independent, so disjoint ranges may run on different threads).
    func run(into output: UnsafeMutablePointer<Float>, width outWidth: Int, height outHeight: Int, rows: Range<Int>,
             levels: UnsafePointer<Float>) {
        let (red, green, blue) = format.rgbOffsets
        var picture = ic_warp_source(pixels: source, width: Int32(width), height: Int32(height),
                                     bytes_per_pixel: Int32(format.bytesPerPixel), red: Int32(red),
                                     green: Int32(green), blue: Int32(blue), zero_border: zeroBorder ? 1 : 0)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * outWidth) { scratch in
            guard let coordinates = scratch.baseAddress else { return }
            for y in rows {
                computeCoordinates(row: y, width: outWidth, height: outHeight, into: coordinates)
                ic_warp_row(&picture, coordinates, Int32(outWidth), output + y * outWidth * 3, levels)
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
}

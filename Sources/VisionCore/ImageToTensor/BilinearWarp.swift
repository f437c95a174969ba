import CImageCodecs

/// OpenCV's `warpPerspective` with `INTER_LINEAR` on 8-bit pixels in the fixed-point form that
/// MediaPipe 1.2.2's ImageToTensorCalculator produces (checked against MediaPipe itself): source
/// coordinates in double precision, per 16-row x 64-column block as OpenCV walks the tensor,
/// rounded (half to even) to 1/32 pixel; the four neighbours weighted by 15-bit integer
/// coefficients `(32 - fx)(32 - fy)·32` …, summed with rounding and shifted back to a level 0...255,
/// which is then mapped to the output range as `low + level × scale` (one fused rounding). Both halves are in C: the coordinates
/// (`ic_warp_coordinates`, vectorised, no fused multiply-adds) and the sampling (`ic_warp_row`,
/// eight tensor pixels at a time with AVX2 or four with NEON, prefetching the source lines of the next row meanwhile).
struct BilinearWarp {
    let source: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let format: PixelFormat
    /// Row-major 3x3 mapping tensor pixel (x, y, 1) to source pixel coordinates (homogeneous).
    let inverseMatrix: [Double]
    let zeroBorder: Bool

    /// Fills tensor rows `rows` of the `outWidth`×`outHeight` tensor at `output`, level l as
    /// `low.addingProduct(l, scale)` (rows are independent, so disjoint ranges may run on different threads).
    func run(
        into output: UnsafeMutablePointer<Float>, width outWidth: Int, height outHeight: Int, rows: Range<Int>,
        low: Float, scale: Float
    ) {
        precondition(inverseMatrix.count == 9, "BilinearWarp: the matrix must be 3x3")
        let (red, green, blue) = format.rgbOffsets
        var picture = ic_warp_source(
            pixels: source, width: Int32(width), height: Int32(height),
            bytes_per_pixel: Int32(format.bytesPerPixel), red: Int32(red),
            green: Int32(green), blue: Int32(blue), zero_border: zeroBorder ? 1 : 0)
        // Two rows of coordinates: the row sampled and the next, whose source lines are prefetched
        // meanwhile when the crop is rotated enough that a tensor row crosses a source row every few
        // pixels (the hardware prefetcher follows rows that stay within one or two source rows).
        let prefetch = abs(inverseMatrix[3]) > 0.125
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * outWidth) { scratch in
            guard let base = scratch.baseAddress, !rows.isEmpty else { return }
            var current = base, next = base + 2 * outWidth
            inverseMatrix.withUnsafeBufferPointer { matrix in
                guard let matrix = matrix.baseAddress else { return }
                ic_warp_coordinates(matrix, Int32(rows.lowerBound), Int32(outWidth), Int32(outHeight), current)
                for y in rows {
                    let hasNext = y + 1 < rows.upperBound
                    if hasNext { ic_warp_coordinates(matrix, Int32(y + 1), Int32(outWidth), Int32(outHeight), next) }
                    ic_warp_row(
                        &picture, current, hasNext && prefetch ? next : nil, Int32(outWidth),
                        output + y * outWidth * 3, low, scale)
                    swap(&current, &next)
                }
            }
        }
    }
}

/// OpenCV's `warpPerspective` with `INTER_LINEAR` on 8-bit pixels, as OpenCV 5 computes it (the
/// version MediaPipe 1.2.2 links): for each tensor pixel the source point comes from the inverse
/// matrix in single precision with fused multiply-adds, the four neighbours are blended in single
/// precision (fused), the result is rounded half to even to a level 0...255, then looked up in the
/// output range table.
struct BilinearWarp {
    let source: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let format: PixelFormat
    /// Row-major 3x3 mapping tensor pixel (x, y, 1) to source pixel coordinates (homogeneous).
    let inverseMatrix: [Float]
    let zeroBorder: Bool

    func run(into output: UnsafeMutablePointer<Float>, width outWidth: Int, height outHeight: Int,
             levels: UnsafePointer<Float>) {
        let m = inverseMatrix
        let bpp = format.bytesPerPixel
        let (offR, offG, offB) = format.rgbOffsets
        let stride = width * bpp
        let srcW = width, srcH = height
        let lastX = srcW - 1, lastY = srcH - 1
        for y in 0..<outHeight {
            let fy = Float(y)
            // OpenCV computes each row's constant terms as float(y * M1 + M2), fused.
            let rowX = m[2].addingProduct(fy, m[1])
            let rowY = m[5].addingProduct(fy, m[4])
            let rowW = m[8].addingProduct(fy, m[7])
            var target = output + y * outWidth * 3
            for x in 0..<outWidth {
                let fx = Float(x)
                let w = rowW.addingProduct(m[6], fx)
                let sx = rowX.addingProduct(m[0], fx) / w
                let sy = rowY.addingProduct(m[3], fx) / w
                defer { target += 3 }
                // Far outside (or not a number): the border value, as OpenCV's out-of-range coordinates give.
                guard sx > -1_000_000, sx < 1_000_000, sy > -1_000_000, sy < 1_000_000 else {
                    writeBorder(target, levels: levels, nearestX: sx < 0 ? 0 : lastX, nearestY: sy < 0 ? 0 : lastY,
                                offsets: (offR, offG, offB), stride: stride, bpp: bpp)
                    continue
                }
                let floorX = sx.rounded(.down), floorY = sy.rounded(.down)
                let ix = Int(floorX), iy = Int(floorY)
                let ax = sx - floorX, ay = sy - floorY
                if ix >= 0, iy >= 0, ix < lastX, iy < lastY {
                    let p = source + iy * stride + ix * bpp
                    target[0] = levels[blend(p + offR, bpp, stride, ax, ay)]
                    target[1] = levels[blend(p + offG, bpp, stride, ax, ay)]
                    target[2] = levels[blend(p + offB, bpp, stride, ax, ay)]
                    continue
                }
                if zeroBorder && (ix < -1 || ix >= srcW || iy < -1 || iy >= srcH) {
                    target[0] = levels[0]
                    target[1] = levels[0]
                    target[2] = levels[0]
                    continue
                }
                // Partly outside: fetch each neighbour with the border rule.
                target[0] = levels[blendAtBorder(ix, iy, offR, stride, bpp, ax, ay)]
                target[1] = levels[blendAtBorder(ix, iy, offG, stride, bpp, ax, ay)]
                target[2] = levels[blendAtBorder(ix, iy, offB, stride, bpp, ax, ay)]
            }
        }
    }

    @inline(__always)
    private func blend(_ p: UnsafePointer<UInt8>, _ bpp: Int, _ stride: Int, _ ax: Float, _ ay: Float) -> Int {
        interpolate(Float(p[0]), Float(p[bpp]), Float(p[stride]), Float(p[stride + bpp]), ax, ay)
    }

    @inline(__always)
    private func interpolate(_ p00: Float, _ p01: Float, _ p10: Float, _ p11: Float, _ ax: Float, _ ay: Float) -> Int {
        let top = p00.addingProduct(ax, p01 - p00)
        let bottom = p10.addingProduct(ax, p11 - p10)
        let value = top.addingProduct(ay, bottom - top)
        let level = value.rounded(.toNearestOrEven)
        return level <= 0 ? 0 : (level >= 255 ? 255 : Int(level))
    }

    private func blendAtBorder(_ ix: Int, _ iy: Int, _ offset: Int, _ stride: Int, _ bpp: Int,
                               _ ax: Float, _ ay: Float) -> Int {
        interpolate(fetch(ix, iy, offset, stride, bpp), fetch(ix + 1, iy, offset, stride, bpp),
                    fetch(ix, iy + 1, offset, stride, bpp), fetch(ix + 1, iy + 1, offset, stride, bpp), ax, ay)
    }

    @inline(__always)
    private func fetch(_ x: Int, _ y: Int, _ offset: Int, _ stride: Int, _ bpp: Int) -> Float {
        if x >= 0, y >= 0, x < width, y < height {
            return Float(source[y * stride + x * bpp + offset])
        }
        if zeroBorder { return 0 }
        let cx = min(max(x, 0), width - 1), cy = min(max(y, 0), height - 1)
        return Float(source[cy * stride + cx * bpp + offset])
    }

    private func writeBorder(_ target: UnsafeMutablePointer<Float>, levels: UnsafePointer<Float>, nearestX: Int,
                             nearestY: Int, offsets: (Int, Int, Int), stride: Int, bpp: Int) {
        if zeroBorder {
            target[0] = levels[0]; target[1] = levels[0]; target[2] = levels[0]
            return
        }
        let p = source + nearestY * stride + nearestX * bpp
        target[0] = levels[Int(p[offsets.0])]
        target[1] = levels[Int(p[offsets.1])]
        target[2] = levels[Int(p[offsets.2])]
    }
}

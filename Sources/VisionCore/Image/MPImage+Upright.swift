extension MPImage {
    /// The upright image as compact RGB8 pixels with orientation `.up`: the stored pixels turned by
    /// `orientation` (mirrored ones mirrored too), alpha dropped, gray repeated in R, G and B.
    /// - Throws: `VisionTasksError.invalidImage` when the copy's memory cannot be allocated.
    public func uprightRGB() throws -> MPImage {
        if orientation == .up && bufferFormat == .rgb8 {
            return self
        }
        let w = width, h = height
        let target = try PixelStorage(count: w * h * 3, for: "upright copy")
        let bpp = bufferFormat.bytesPerPixel
        let (offR, offG, offB) = bufferFormat.rgbOffsets
        let sourceStride = bufferBytesPerRow
        let bw = bufferWidth, bh = bufferHeight
        withUnsafeBufferBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            let src = base.assumingMemoryBound(to: UInt8.self)
            let dst = target.base.assumingMemoryBound(to: UInt8.self)
            for v in 0..<h {
                for u in 0..<w {
                    // The stored pixel shown at upright pixel (u, v).
                    let x: Int, y: Int
                    switch orientation {
                    case .up: (x, y) = (u, v)
                    case .down: (x, y) = (bw - 1 - u, bh - 1 - v)
                    case .right: (x, y) = (v, bh - 1 - u)
                    case .left: (x, y) = (bw - 1 - v, u)
                    case .upMirrored: (x, y) = (bw - 1 - u, v)
                    case .downMirrored: (x, y) = (u, bh - 1 - v)
                    case .rightMirrored: (x, y) = (v, u)
                    case .leftMirrored: (x, y) = (bw - 1 - v, bh - 1 - u)
                    }
                    let p = src + y * sourceStride + x * bpp
                    let q = dst + (v * w + u) * 3
                    q[0] = p[offR]
                    q[1] = p[offG]
                    q[2] = p[offB]
                }
            }
        }
        return MPImage(storage: target, bufferWidth: w, bufferHeight: h, format: .rgb8, orientation: .up)
    }
}

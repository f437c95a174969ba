import CImageCodecs
import Foundation
import Testing

/// The warp's C kernels: the source coordinates (`ic_warp_coordinates`, vectorised) against
/// OpenCV's formula written out in Swift, and the sampling (`ic_warp_row`, eight pixels at a time
/// with AVX2) against its one-pixel-at-a-time path. Tolerance: exact.
@Suite struct WarpKernelTests {
    /// OpenCV's warpPerspective coordinates for row `y`: per block of 1024/min(16, height) columns a
    /// double-precision start, then (x0 + M0·i)·(32 / w), clamped to Int32 and rounded half to even.
    static func reference(_ m: [Double], y: Int, width: Int, height: Int) -> [Int32] {
        var out = [Int32](repeating: 0, count: 2 * width)
        let block = min(1024 / min(16, height), width)
        let fy = Double(y)
        var start = 0
        while start < width {
            let count = min(block, width - start)
            let fx = Double(start)
            let x0 = m[0] * fx + m[1] * fy + m[2], y0 = m[3] * fx + m[4] * fy + m[5], w0 = m[6] * fx + m[7] * fy + m[8]
            for i in 0..<count {
                let d = Double(i)
                var w = w0 + m[6] * d
                w = w != 0 ? 32 / w : 0
                let sx = (x0 + m[0] * d) * w, sy = (y0 + m[3] * d) * w
                for (k, v) in [sx, sy].enumerated() {
                    let c = v == v ? max(Double(Int32.min), min(Double(Int32.max), v)) : Double(Int32.min)
                    out[2 * (start + i) + k] = Int32(c.rounded(.toNearestOrEven))
                }
            }
            start += count
        }
        return out
    }

    @Test func matchOpenCVsFormulaExactly() {
        var rng = LinearCongruential(state: 2026)
        var rows = 0
        for trial in 0..<60 {
            let angle = Double.random(in: -3.2...3.2, using: &rng), scale = Double.random(in: 0.05...9, using: &rng)
            var m = [
                scale * cos(angle), -scale * sin(angle), Double.random(in: -500...1500, using: &rng),
                scale * sin(angle), scale * cos(angle), Double.random(in: -500...1500, using: &rng), 0, 0, 1,
            ]
            if trial % 3 == 1 {
                m[6] = Double.random(in: -1e-3...1e-3, using: &rng)
                m[7] = Double.random(in: -1e-3...1e-3, using: &rng)
            }
            if trial % 10 == 7 { m[2] = 3e12 } // clamps to Int32
            if trial % 10 == 8 {
                m[6] = 0
                m[7] = 0
                m[8] = 0
            } // w = 0
            let (width, height) = [(256, 256), (224, 224), (192, 192), (128, 128), (1, 1), (300, 7), (65, 3)][trial % 7]
            for y in [0, height / 2, height - 1] {
                var got = [Int32](repeating: 0, count: 2 * width)
                m.withUnsafeBufferPointer {
                    ic_warp_coordinates($0.baseAddress, Int32(y), Int32(width), Int32(height), &got)
                }
                #expect(
                    got == Self.reference(m, y: y, width: width, height: height),
                    "matrix \(m), row \(y) of \(width)x\(height)")
                rows += 1
            }
        }
        #expect(rows == 180)
    }

    @Test func samplingEightAtATimeMatchesOneAtATime() {
        var rng = LinearCongruential(state: 7)
        var compared = 0
        // (width, height, bytes per pixel, red, green, blue): RGB, BGR, xRGB words, gray, tiny pictures.
        let layouts = [
            (37, 29, 3, 0, 1, 2), (64, 48, 3, 2, 1, 0), (40, 33, 4, 2, 1, 0), (31, 20, 1, 0, 0, 0),
            (1, 1, 3, 0, 1, 2), (2, 3, 4, 0, 1, 2), (9, 4, 3, 0, 1, 2),
        ]
        for (i, (width, height, bpp, red, green, blue)) in layouts.enumerated() {
            let pixels: [UInt8] = (0..<(width * height * bpp)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for zeroBorder in [Int32(0), 1] {
                for row in 0..<12 {
                    let count = [1, 7, 8, 9, 16, 45, 64][(row + i) % 7]
                    // Mostly inside, some across the edges and far outside (1/32 pixel units).
                    let spread = row % 3 == 0 ? 4 : 1
                    let coordinates: [Int32] = (0..<count).flatMap { _ in
                        [
                            Int32.random(in: Int32(-64 * spread)...Int32(32 * width * spread), using: &rng),
                            Int32.random(in: Int32(-64 * spread)...Int32(32 * height * spread), using: &rng),
                        ]
                    }
                    // The next row's positions, only prefetched: every other row none, else far
                    // outside as often as inside, which must change nothing.
                    let next: [Int32]? =
                        row % 2 == 0
                        ? nil
                        : (0..<count).flatMap { _ in
                            [
                                Int32.random(in: Int32(-3200)...Int32(32 * width + 3200), using: &rng),
                                Int32.random(in: Int32(-3200)...Int32(32 * height + 3200), using: &rng),
                            ]
                        }
                    // An output range that is not a power-of-two multiple of 255, so a wrong level shows.
                    let low = Float.random(in: -2...0, using: &rng), scale = Float.random(in: 0.001...0.02, using: &rng)
                    var fast = [Float](repeating: .nan, count: 3 * count), slow = fast
                    pixels.withUnsafeBufferPointer { p in
                        var source = ic_warp_source(
                            pixels: p.baseAddress, width: Int32(width), height: Int32(height),
                            bytes_per_pixel: Int32(bpp), red: Int32(red), green: Int32(green),
                            blue: Int32(blue), zero_border: zeroBorder)
                        ic_warp_row(&source, coordinates, next, Int32(count), &fast, low, scale)
                        ic_warp_row_portable(&source, coordinates, Int32(count), &slow, low, scale)
                    }
                    #expect(fast == slow, "\(width)x\(height)x\(bpp), zero border \(zeroBorder), row \(row)")
                    compared += count
                }
            }
        }
        #expect(compared > 2_000)
    }
}

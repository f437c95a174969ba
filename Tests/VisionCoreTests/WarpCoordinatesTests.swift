import CImageCodecs
import Foundation
import Testing

/// The C source coordinates of the warp (`ic_warp_coordinates`, vectorised) against OpenCV's
/// formula written out in Swift, exactly: every column of every row, for affine and perspective
/// matrices, tensors narrower and wider than a 64-column block, and out-of-range values.
@Suite struct WarpCoordinatesTests {
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
            var m = [scale * cos(angle), -scale * sin(angle), Double.random(in: -500...1500, using: &rng),
                     scale * sin(angle), scale * cos(angle), Double.random(in: -500...1500, using: &rng), 0, 0, 1]
            if trial % 3 == 1 { m[6] = Double.random(in: -1e-3...1e-3, using: &rng); m[7] = Double.random(in: -1e-3...1e-3, using: &rng) }
            if trial % 10 == 7 { m[2] = 3e12 } // clamps to Int32
            if trial % 10 == 8 { m[6] = 0; m[7] = 0; m[8] = 0 } // w = 0
            let (width, height) = [(256, 256), (224, 224), (192, 192), (128, 128), (1, 1), (300, 7), (65, 3)][trial % 7]
            for y in [0, height / 2, height - 1] {
                var got = [Int32](repeating: 0, count: 2 * width)
                m.withUnsafeBufferPointer { ic_warp_coordinates($0.baseAddress, Int32(y), Int32(width), Int32(height), &got) }
                #expect(got == Self.reference(m, y: y, width: width, height: height), "matrix \(m), row \(y) of \(width)x\(height)")
                rows += 1
            }
        }
        #expect(rows == 180)
    }
}

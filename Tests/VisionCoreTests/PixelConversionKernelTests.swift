import CImageCodecs
import Testing

/// The pixel conversions' vector kernels (`ic_pack_i420_kernel`, `ic_expand_xrgb_kernel` with
/// IC_KERNEL_VECTOR: AVX2 and SSSE3 here, NEON on AArch64) against their portable C on this CPU, on
/// sizes around the vector widths, odd sizes and padded rows. Tolerance: exact. (The NEON kernels are
/// checked the same way under qemu by tools/platform/test_neon_kernels.sh.)
@Suite struct PixelConversionKernelTests {
    /// (width, height, row padding in bytes).
    static let sizes = [(1, 1, 0), (2, 2, 0), (15, 3, 0), (16, 2, 5), (17, 5, 0), (33, 9, 3), (100, 11, 0)]

    /// Runs `convert` (pixels, row stride, width, height, output, kernel) with the vector and the portable
    /// kernel on random pictures of every size, `bytes` a pixel, expecting the same `outputCount`
    /// (width, height) bytes; returns how many sizes it compared.
    private static func compare(
        bytes: Int, seed: UInt64, outputCount: (Int, Int) -> Int,
        convert: ([UInt8], Int, Int, Int, inout [UInt8], Int32) -> Int32
    ) -> Int {
        var rng = LinearCongruential(state: seed)
        var compared = 0
        for (width, height, pad) in sizes {
            let stride = width * bytes + pad
            let pixels: [UInt8] = (0..<(stride * height)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var vector = [UInt8](repeating: 0, count: outputCount(width, height)), portable = vector
            let status = convert(pixels, stride, width, height, &vector, IC_KERNEL_VECTOR)
            _ = convert(pixels, stride, width, height, &portable, IC_KERNEL_PORTABLE)
            #expect(status == 0, "no vector kernel on this CPU")
            #expect(vector == portable, "\(width)x\(height), \(bytes) bytes a pixel, padding \(pad)")
            compared += 1
        }
        return compared
    }

    @Test(arguments: [3, 4]) func i420VectorKernelEqualsPortable(bytesPerPixel: Int) {
        let layout = bytesPerPixel == 3 ? IC_LAYOUT_RGB : IC_LAYOUT_BGRX
        let compared = Self.compare(
            bytes: bytesPerPixel, seed: 38,
            outputCount: { width, height in
                let (w2, h2) = ((width + 1) & ~1, (height + 1) & ~1)
                return w2 * h2 + 2 * (w2 / 2) * (h2 / 2)
            }
        ) { pixels, stride, width, height, out, kernel in
            ic_pack_i420_kernel(pixels, stride, Int32(width), Int32(height), layout, &out, kernel)
        }
        #expect(compared == Self.sizes.count)
    }

    @Test(arguments: [3, 4]) func xrgbVectorKernelEqualsPortable(channels: Int) {
        let compared = Self.compare(bytes: channels, seed: 39, outputCount: { 4 * $0 * $1 }) {
            pixels, stride, width, height, out, kernel in
            ic_expand_xrgb_kernel(pixels, stride, Int32(channels), &out, 4 * width, Int32(width), Int32(height), kernel)
        }
        #expect(compared == Self.sizes.count)
    }

    @Test func unknownKernelIsRefused() {
        var out = [UInt8](repeating: 7, count: 4 * 6)
        let pixels = [UInt8](repeating: 1, count: 3 * 4)
        #expect(ic_pack_i420_kernel(pixels, 6, 2, 2, IC_LAYOUT_RGB, &out, 9) == -1)
        #expect(ic_expand_xrgb_kernel(pixels, 6, 3, &out, 8, 2, 2, 9) == -1)
        #expect(out.allSatisfy { $0 == 7 }, "nothing written")
    }
}

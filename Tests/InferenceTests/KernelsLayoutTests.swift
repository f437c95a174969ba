import CKernels
import Testing

@testable import Inference

/// The block transpose under TRANSPOSE against a one-float-at-a-time loop: exact on every code path.
@Suite struct KernelsLayoutTests {
    /// Sizes around the 8×8 (AVX2) and 4×4 (NEON) blocks, with strides wider than the block; each path
    /// writes exactly the transposed block (the padding between destination rows stays NaN).
    @Test func blockTransposeMatchesElementOrder() {
        var rng = TestRandom(seed: 97)
        let sizes = [1, 3, 4, 7, 8, 9, 16, 17, 64, 97]
        for rows in sizes {
            for cols in sizes {
                let ls = cols + rng.int(0...5), ld = rows + rng.int(0...5)
                let src = rng.floats(rows * ls)
                var expected = [Float](repeating: .nan, count: cols * ld)
                for r in 0..<rows { for c in 0..<cols { expected[c * ld + r] = src[r * ls + c] } }
                for isa in testedISAs {
                    var dst = [Float](repeating: .nan, count: cols * ld)
                    src.withUnsafeBufferPointer { s in
                        dst.withUnsafeMutableBufferPointer { d in
                            vt_transpose(s.baseAddress!, ls, d.baseAddress!, ld, rows, cols, isa.code)
                        }
                    }
                    let same = zip(dst, expected).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
                    #expect(same, "\(isa) \(rows)×\(cols), strides \(ls) and \(ld)")
                }
            }
        }
    }

    /// TRANSPOSE permutations that swap the innermost two axes (the block path) and others (the strided
    /// copy), against the output indexed element by element.
    @Test func transposeOperatorMatchesPermutedIndexing() throws {
        let cases: [([Int], [Int])] = [
            ([97, 64], [1, 0]), ([1, 1, 97, 64], [0, 1, 3, 2]), ([3, 13, 11], [0, 2, 1]), ([5, 9, 10], [2, 0, 1]),
            ([2, 3, 8, 8], [0, 1, 3, 2]), ([4, 3], [1, 0]),
        ]
        var rng = TestRandom(seed: 41)
        for (shape, perm) in cases {
            let x = rng.floats(shape.reduce(1, *))
            let outShape = perm.map { shape[$0] }
            var g = GraphBuilder()
            let i = g.input(shape)
            g.node(TransposeOperator(), [i, g.ints(perm)], [outShape])
            let out = try g.run([x])[0]
            let inStrides = contiguousStrides(shape), outStrides = contiguousStrides(outShape)
            var expected = [Float](repeating: 0, count: x.count)
            for o in 0..<x.count {
                var source = 0
                for k in outShape.indices { source += (o / outStrides[k]) % outShape[k] * inStrides[perm[k]] }
                expected[o] = x[source]
            }
            #expect(out == expected, "\(shape) by \(perm)")
        }
    }
}

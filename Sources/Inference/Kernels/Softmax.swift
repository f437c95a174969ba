// SOFTMAX along the last dimension: exp(beta·(x − max)) / Σ.

/// A prepared softmax over `rows` rows of `depth` values.
final class SoftmaxKernel: Kernel {
    let input: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>
    let rows: Int, depth: Int
    let beta: Float

    init(input: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, rows: Int, depth: Int, beta: Float) {
        self.input = input
        self.out = out
        self.rows = rows
        self.depth = depth
        self.beta = beta
    }

    func run() {
        for r in 0..<rows {
            let x = input + r * depth, y = out + r * depth
            var m = -Float.infinity
            for i in 0..<depth { m = max(m, x[i]) }
            let vb = SIMD8<Float>(repeating: beta), vm = SIMD8<Float>(repeating: m)
            var sum = SIMD8<Float>(repeating: 0)
            var i = 0
            while i + 8 <= depth {
                let e = vectorExp((load8(x + i) - vm) * vb)
                store8(e, y + i)
                sum += e
                i += 8
            }
            var total = sum.sum()
            if i < depth {
                let n = depth - i
                let e = vectorExp((loadPartial(x + i, n) - vm) * vb)
                storePartial(e, y + i, n)
                for k in 0..<n { total += e[k] }
            }
            let inv = 1 / total
            for k in 0..<depth { y[k] *= inv }
        }
    }
}

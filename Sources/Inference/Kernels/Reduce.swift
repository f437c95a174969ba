// MEAN, SUM, REDUCE_MAX and REDUCE_MIN over a set of axes, with keep_dims.

import VisionErrors

/// Reduction of an input over some axes, collapsed to at most `collapsedRank` (extent, reduced?) dimensions.
struct ReducePlan: Equatable {
    /// The output's shape (reduced axes kept as 1 with keep_dims, else removed).
    let outputShape: [Int]
    /// Collapsed extents, left-padded with 1 to `collapsedRank`.
    let extents: Dims
    /// Input strides of the collapsed dimensions.
    let inputStrides: Dims
    /// Output strides (0 on reduced dimensions).
    let outputStrides: Dims
    /// How many values the output holds.
    let outputCount: Int
    /// How many input values fold into each output value.
    let reducedCount: Int

    init(input: [Int], axes rawAxes: [Int], keepDims: Bool) throws(VisionTasksError) {
        var reduced = [Bool](repeating: false, count: input.count)
        for a in rawAxes {
            guard let n = normalizedAxis(a, rank: input.count) else {
                throw VisionTasksError.invalidModel("axis \(a) out of range for rank \(input.count)")
            }
            reduced[n] = true
        }
        outputShape = input.indices.compactMap { reduced[$0] ? (keepDims ? 1 : nil) : input[$0] }
        reducedCount = input.indices.filter { reduced[$0] }.reduce(1) { $0 * input[$1] }
        outputCount = input.indices.filter { !reduced[$0] }.reduce(1) { $0 * input[$1] }
        // Collapse neighbours with the same role.
        var dims: [(n: Int, r: Bool)] = []
        for i in input.indices where input[i] != 1 {
            if let last = dims.last, last.r == reduced[i] {
                dims[dims.count - 1].n *= input[i]
            } else {
                dims.append((input[i], reduced[i]))
            }
        }
        guard dims.count <= collapsedRank else {
            throw VisionTasksError.unsupportedModel("reduction needs more than \(collapsedRank) dimensions")
        }
        let pad = collapsedRank - dims.count
        let ext = [Int](repeating: 1, count: pad) + dims.map(\.n)
        let flags = [Bool](repeating: false, count: pad) + dims.map(\.r)
        extents = Inference.dims(ext)
        inputStrides = Inference.dims(contiguousStrides(ext))
        var os = [Int](repeating: 0, count: collapsedRank)
        var s = 1
        for i in stride(from: collapsedRank - 1, through: 0, by: -1) where !flags[i] {
            os[i] = s
            s *= ext[i]
        }
        outputStrides = Inference.dims(os)
    }
}

/// A prepared reduction.
final class ReduceKernel: Kernel {
    let plan: ReducePlan
    let op: ReduceOperator.Kind
    let input: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>

    init(plan: ReducePlan, op: ReduceOperator.Kind, input: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>) {
        self.plan = plan
        self.op = op
        self.input = input
        self.out = out
    }

    func run() {
        switch op {
        case .sum, .mean: reduce(initial: 0) { $0 + $1 }
        case .max: reduce(initial: -.infinity) { lanewiseMax($0, $1) }
        case .min: reduce(initial: .infinity) { lanewiseMin($0, $1) }
        }
        if op == .mean {
            let scale = 1 / Float(plan.reducedCount)
            for i in 0..<plan.outputCount { out[i] *= scale }
        }
    }

    @inline(__always)
    private func reduce(initial: Float, _ f: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>) {
        out.update(repeating: initial, count: plan.outputCount)
        let e = plan.extents, si = plan.inputStrides, so = plan.outputStrides
        let n = e[5]
        let innerKept = so[5] == 1
        forEachOuterIndex(e, si, so) { inputOffset, outputOffset in
            let src = input + inputOffset, dst = out + outputOffset
            if innerKept {
                var j = 0
                while j + 8 <= n {
                    store8(f(load8(dst + j), load8(src + j)), dst + j)
                    j += 8
                }
                while j < n {
                    dst[j] = f(SIMD8(repeating: dst[j]), SIMD8(repeating: src[j]))[0]
                    j += 1
                }
            } else {
                let r = foldRow(src, n, initial: initial, f)
                dst[0] = f(SIMD8(repeating: dst[0]), SIMD8(repeating: r))[0]
            }
        }
    }
}

/// `n` contiguous values folded into one with `f` as the reductions fold a row: eight lanes along it, the tail
/// in a vector of `initial`, then the lanes pairwise. The fused layer norm folds its rows with it too, so its
/// means are the MEAN kernel's bit for bit.
@inline(__always)
func foldRow(
    _ src: UnsafePointer<Float>, _ n: Int, initial: Float, _ f: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>
) -> Float {
    var acc = SIMD8<Float>(repeating: initial)
    var j = 0
    while j + 8 <= n {
        acc = f(acc, load8(src + j))
        j += 8
    }
    var tail = SIMD8<Float>(repeating: initial)
    for k in 0..<(n - j) { tail[k] = src[j + k] }
    acc = f(acc, tail)
    let h = f(
        SIMD8(lowHalf: acc.lowHalf, highHalf: acc.lowHalf),
        SIMD8(lowHalf: acc.highHalf, highHalf: acc.highHalf))
    var r = h[0]
    for k in 1..<4 { r = f(SIMD8(repeating: r), SIMD8(repeating: h[k]))[0] }
    return r
}

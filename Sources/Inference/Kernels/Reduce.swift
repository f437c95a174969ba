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
        // The inner dimension kept (a global pool over NHWC's H and W): each output row's running values stay in
        // registers over the reduced rows (`reduceKeptInner`).
        let innerKept = plan.outputStrides[5] == 1 && (plan.outputStrides[4] == 0 || plan.extents[4] == 1)
        switch op {
        case .sum, .mean: innerKept ? reduceKeptInner(SumFold.self) : reduce(initial: 0) { $0 + $1 }
        case .max: innerKept ? reduceKeptInner(MaxFold.self) : reduce(initial: -.infinity) { lanewiseMax($0, $1) }
        case .min: innerKept ? reduceKeptInner(MinFold.self) : reduce(initial: .infinity) { lanewiseMin($0, $1) }
        }
        if op == .mean {
            let scale = 1 / Float(plan.reducedCount)
            for i in 0..<plan.outputCount { out[i] *= scale }
        }
    }

    /// The reduction when the innermost dimension is kept (`n` values per row, output stride 1) and dimension 4 is
    /// reduced (or of extent 1), as it is once the plan collapses neighbours of the same role (`run` checks). For each index of dimensions
    /// 0-3 the output row is loaded into registers up to 32 values at a time, every reduced row of dimension 4 folded
    /// into them, and stored once. Each output value folds the same inputs in the same order as `reduce` does
    /// (dimensions 0-4 in row-major order), so the results are its bit for bit; `reduce` kept its running values in
    /// the output, a load and a store per row, and called Kernel.swift's helpers per vector where nothing inlines
    /// across files (builds without whole-module optimisation).
    private func reduceKeptInner<F: ReduceFold>(_: F.Type) {
        out.update(repeating: F.initial, count: plan.outputCount)
        let e = plan.extents, si = plan.inputStrides, so = plan.outputStrides
        for i0 in 0..<e[0] {
            for i1 in 0..<e[1] {
                for i2 in 0..<e[2] {
                    for i3 in 0..<e[3] {
                        foldRows(
                            F.self,
                            input + (i0 * si[0] + i1 * si[1] + i2 * si[2] + i3 * si[3]),
                            out + (i0 * so[0] + i1 * so[1] + i2 * so[2] + i3 * so[3]),
                            n: e[5], rows: e[4], rowStride: si[4])
                    }
                }
            }
        }
    }

    @inline(__always)
    private func reduce(initial: Float, _ f: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>) {
        out.update(repeating: initial, count: plan.outputCount)
        let e = plan.extents, si = plan.inputStrides, so = plan.outputStrides
        let n = e[5]
        forEachOuterIndex(e, si, so) { inputOffset, outputOffset in
            let r = foldRow(input + inputOffset, n, initial: initial, f)
            out[outputOffset] = f(SIMD8(repeating: out[outputOffset]), SIMD8(repeating: r))[0]
        }
    }
}

/// A reduction's lane-wise fold and the value it starts from (as `ReduceKernel.run` folds with `reduce`).
private protocol ReduceFold {
    static var initial: Float { get }
    static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float>
}

private enum SumFold: ReduceFold {
    static var initial: Float { 0 }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a + b }
}

/// `lanewiseMax` written out here: a helper in another file is a call per vector without whole-module optimisation.
private enum MaxFold: ReduceFold {
    static var initial: Float { -.infinity }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: a .< b)
    }
}

/// `lanewiseMin` written out here (see `MaxFold`).
private enum MinFold: ReduceFold {
    static var initial: Float { .infinity }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: b .< a)
    }
}

@inline(__always)
private func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
private func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
}

/// Folds `rows` rows of `n` values (`rowStride` apart from `src`) into the `n` values at `dst`, row after row:
/// four, two or one vectors of the row at a time held in registers over all the rows, then the last `n % 8`
/// values in the low lanes of one.
@inline(__always)
private func foldRows<F: ReduceFold>(
    _: F.Type, _ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Float>, n: Int, rows: Int, rowStride: Int
) {
    var j = 0
    while j + 32 <= n {
        var a0 = load(dst + j), a1 = load(dst + j + 8), a2 = load(dst + j + 16), a3 = load(dst + j + 24)
        var p = src + j
        for _ in 0..<rows {
            a0 = F.apply(a0, load(p))
            a1 = F.apply(a1, load(p + 8))
            a2 = F.apply(a2, load(p + 16))
            a3 = F.apply(a3, load(p + 24))
            p += rowStride
        }
        store(a0, dst + j)
        store(a1, dst + j + 8)
        store(a2, dst + j + 16)
        store(a3, dst + j + 24)
        j += 32
    }
    if j + 16 <= n {
        var a0 = load(dst + j), a1 = load(dst + j + 8)
        var p = src + j
        for _ in 0..<rows {
            a0 = F.apply(a0, load(p))
            a1 = F.apply(a1, load(p + 8))
            p += rowStride
        }
        store(a0, dst + j)
        store(a1, dst + j + 8)
        j += 16
    }
    if j + 8 <= n {
        var a0 = load(dst + j)
        var p = src + j
        for _ in 0..<rows {
            a0 = F.apply(a0, load(p))
            p += rowStride
        }
        store(a0, dst + j)
        j += 8
    }
    let t = n - j
    if t > 0 {
        var a = SIMD8<Float>(repeating: F.initial)
        for k in 0..<t { a[k] = dst[j + k] }
        var p = src + j
        for _ in 0..<rows {
            var v = SIMD8<Float>(repeating: F.initial)
            for k in 0..<t { v[k] = p[k] }
            a = F.apply(a, v)
            p += rowStride
        }
        for k in 0..<t { dst[j + k] = a[k] }
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

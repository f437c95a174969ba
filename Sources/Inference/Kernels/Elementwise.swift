// Elementwise operators: two-input ops with numpy-style broadcasting and a fused activation
// clamp, and one-input ops. Vectorised over SIMD8<Float>; the row tail runs the same lanes code.

// MARK: - Binary functions

/// A function of two floats, in vector form (the kernels use it on 8 lanes at a time).
protocol BinaryFunction {
    static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float>
}

enum AddFunction: BinaryFunction {
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a + b }
}
enum SubFunction: BinaryFunction {
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a - b }
}
enum MulFunction: BinaryFunction {
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a * b }
}
enum DivFunction: BinaryFunction {
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a / b }
}
enum SquaredDifferenceFunction: BinaryFunction {
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        let d = a - b
        return d * d
    }
}
enum MaximumFunction: BinaryFunction {
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { lanewiseMax(a, b) }
}
/// PRELU: x where x ≥ 0, alpha·x elsewhere (b is alpha).
enum PReLUFunction: BinaryFunction {
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: a * b, where: a .< 0)
    }
}

// MARK: - Broadcasting

/// Two input shapes broadcast numpy-style, collapsed to at most `collapsedRank` dimensions of
/// (output extent, stride in a, stride in b); a stride is 0 where that input is broadcast.
struct BroadcastPlan: Equatable {
    /// The broadcast shape of the output.
    let outputShape: [Int]
    /// Collapsed extents, left-padded with 1 to `collapsedRank`.
    let extents: Dims
    /// The first input's stride in each collapsed dimension (0 where it is broadcast).
    let stridesA: Dims
    /// The second input's stride in each collapsed dimension (0 where it is broadcast).
    let stridesB: Dims

    /// The shape `a` and `b` broadcast to, numpy-style; nil when they are not broadcast-compatible.
    static func outputShape(_ a: [Int], _ b: [Int]) -> [Int]? {
        let r = max(a.count, b.count)
        let pa = [Int](repeating: 1, count: r - a.count) + a
        let pb = [Int](repeating: 1, count: r - b.count) + b
        var out = [Int]()
        for i in 0..<r {
            guard pa[i] == pb[i] || pa[i] == 1 || pb[i] == 1 else { return nil }
            out.append(pa[i] == 1 ? pb[i] : pa[i])
        }
        return out
    }

    /// Nil when the shapes are not broadcast-compatible or need more than `collapsedRank` dimensions. The caller
    /// checks the output's size first (`computedCount`): the collapse multiplies extents and strides.
    init?(_ a: [Int], _ b: [Int]) {
        guard let out = Self.outputShape(a, b) else { return nil }
        let r = out.count
        let pa = [Int](repeating: 1, count: r - a.count) + a
        let pb = [Int](repeating: 1, count: r - b.count) + b
        outputShape = out
        let ca = contiguousStrides(pa), cb = contiguousStrides(pb)
        var dims: [(n: Int, sa: Int, sb: Int)] = []
        for i in 0..<r where out[i] != 1 {
            let d = (n: out[i], sa: pa[i] == 1 ? 0 : ca[i], sb: pb[i] == 1 ? 0 : cb[i])
            if let last = dims.last, last.sa == d.sa * d.n, last.sb == d.sb * d.n {
                dims[dims.count - 1] = (n: last.n * d.n, sa: d.sa, sb: d.sb)
            } else {
                dims.append(d)
            }
        }
        guard dims.count <= collapsedRank else { return nil }
        let pad = collapsedRank - dims.count
        extents = Inference.dims([Int](repeating: 1, count: pad) + dims.map(\.n))
        stridesA = Inference.dims([Int](repeating: 0, count: pad) + dims.map(\.sa))
        stridesB = Inference.dims([Int](repeating: 0, count: pad) + dims.map(\.sb))
    }

    /// The row length when the output is rows of fewer than 8 values, one input contiguous and the
    /// other the same row repeated (periodicBinaryKernel's case); nil otherwise.
    var shortPeriod: Int? {
        let n = extents[collapsedRank - 1], outer = collapsedRank - 2
        guard n > 1, n < 8, (0..<outer).allSatisfy({ extents[$0] == 1 }), extents[outer] > 1,
            stridesA[collapsedRank - 1] == 1, stridesB[collapsedRank - 1] == 1
        else { return nil }
        let (a, b) = (stridesA[outer], stridesB[outer])
        return (a == n && b == 0) || (a == 0 && b == n) ? n : nil
    }
}

// MARK: - Binary kernels

/// Applies `F` over one contiguous row of `n` outputs; a and b advance by 1 or stay (scalar).
@inline(__always)
func binaryRow<F: BinaryFunction>(
    _: F.Type, _ a: UnsafePointer<Float>, _ aStep: Int, _ b: UnsafePointer<Float>, _ bStep: Int,
    _ out: UnsafeMutablePointer<Float>, _ n: Int, _ lo: Float, _ hi: Float, _ clamp: Bool
) {
    let vlo = SIMD8<Float>(repeating: lo), vhi = SIMD8<Float>(repeating: hi)
    var i = 0
    switch (aStep, bStep) {
    case (1, 1):
        while i + 8 <= n {
            var y = F.apply(load8(a + i), load8(b + i))
            if clamp { y = lanewiseMin(lanewiseMax(y, vlo), vhi) }
            store8(y, out + i)
            i += 8
        }
    case (1, 0):
        let vb = SIMD8<Float>(repeating: b[0])
        while i + 8 <= n {
            var y = F.apply(load8(a + i), vb)
            if clamp { y = lanewiseMin(lanewiseMax(y, vlo), vhi) }
            store8(y, out + i)
            i += 8
        }
    default:
        let va = SIMD8<Float>(repeating: a[0])
        while i + 8 <= n {
            var y = F.apply(va, load8(b + i))
            if clamp { y = lanewiseMin(lanewiseMax(y, vlo), vhi) }
            store8(y, out + i)
            i += 8
        }
    }
    if i < n {
        let m = n - i
        let va = aStep == 0 ? SIMD8(repeating: a[0]) : loadPartial(a + i, m)
        let vb = bStep == 0 ? SIMD8(repeating: b[0]) : loadPartial(b + i, m)
        var y = F.apply(va, vb)
        if clamp { y = lanewiseMin(lanewiseMax(y, vlo), vhi) }
        storePartial(y, out + i, m)
    }
}

/// A prepared two-input elementwise operator: a closure specialised for `F` (a generic class's
/// `run` would call `F` through its witness table, lane by lane), its rows split over `threads` in parts of
/// at least `binaryMinimumPerPart` outputs.
func binaryKernel<F: BinaryFunction>(
    _: F.Type, plan: BroadcastPlan, a: UnsafePointer<Float>, b: UnsafePointer<Float>,
    out: UnsafeMutablePointer<Float>, activation: Activation, threads: KernelThreads
) -> Kernel {
    let (lo, hi) = activation.bounds
    let clamp = activation != .none
    let e = plan.extents, sa = plan.stridesA, sb = plan.stridesB
    if let period = plan.shortPeriod {
        return periodicBinaryKernel(
            F.self, rows: e[4], period: period, aIsPeriodic: sa[4] == 0, a: a, b: b, out: out,
            lo: lo, hi: hi, clamp: clamp)
    }
    let n = e[5], rows = e[0] * e[1] * e[2] * e[3] * e[4]
    let job = RowsJob { begin, end in
        // The outer indices of row `begin` and the inputs' offsets there, then advanced row by row as an odometer.
        var index = Dims(repeating: 0), rest = begin, offA = 0, offB = 0
        for d in stride(from: collapsedRank - 2, through: 0, by: -1) {
            (rest, index[d]) = rest.quotientAndRemainder(dividingBy: e[d])
            offA += index[d] * sa[d]
            offB += index[d] * sb[d]
        }
        var o = out + begin * n
        for _ in begin..<end {
            binaryRow(F.self, a + offA, sa[5], b + offB, sb[5], o, n, lo, hi, clamp)
            o += n
            var d = collapsedRank - 2
            index[d] += 1
            (offA, offB) = (offA + sa[d], offB + sb[d])
            while d > 0 && index[d] == e[d] {
                (offA, offB) = (offA - sa[d] * e[d], offB - sb[d] * e[d])
                index[d] = 0
                d -= 1
                index[d] += 1
                (offA, offB) = (offA + sa[d], offB + sb[d])
            }
        }
    }
    return BoundKernel {
        threads.split(rows, minimumPerPart: Swift.max(1, binaryMinimumPerPart / Swift.max(1, n)), job)
    }
}

/// The fewest outputs a part of a split two-input operator computes (as ADD's same-shape kernel).
let binaryMinimumPerPart = 65536

/// A kernel's work over a range of rows, as a closure made where its types are known: a generic job handed
/// to a worker would reach its functions through witness tables (the pool calls parts type-erased).
private struct RowsJob: RangeJob {
    let body: (Int, Int) -> Void

    func run(thread: Int, begin: Int, end: Int) { body(begin, end) }
}

/// `binaryKernel` for rows shorter than a vector (shortPeriod): one operand contiguous, the other
/// one row repeated, as [1, 21, 3] - [1, 1, 3]. The output is walked 8 values at a time across
/// rows, the repeated row read from a copy laid end to end (`period` + 8 values, taken at the
/// phase where each group of 8 starts), instead of one partial vector per row.
func periodicBinaryKernel<F: BinaryFunction>(
    _: F.Type, rows: Int, period: Int, aIsPeriodic: Bool,
    a: UnsafePointer<Float>, b: UnsafePointer<Float>,
    out: UnsafeMutablePointer<Float>, lo: Float, hi: Float,
    clamp: Bool
) -> Kernel {
    let count = rows * period
    let (full, repeated) = aIsPeriodic ? (b, a) : (a, b)
    return BoundKernel {
        let vlo = SIMD8<Float>(repeating: lo), vhi = SIMD8<Float>(repeating: hi)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: period + 8) { tile in
            guard let tile = tile.baseAddress else { return }
            for t in 0..<(period + 8) { tile[t] = repeated[t % period] }
            var i = 0
            while i < count {
                let m = min(8, count - i)
                let x = m == 8 ? load8(full + i) : loadPartial(full + i, m)
                let r = load8(tile + i % period)
                var y = aIsPeriodic ? F.apply(r, x) : F.apply(x, r)
                if clamp { y = lanewiseMin(lanewiseMax(y, vlo), vhi) }
                if m == 8 { store8(y, out + i) } else { storePartial(y, out + i, m) }
                i += 8
            }
        }
    }
}

/// Makes the kernel for `op`, specialised for its function.
func makeBinaryKernel(
    _ op: BinaryOperator.Kind, plan: BroadcastPlan, a: UnsafePointer<Float>, b: UnsafePointer<Float>,
    out: UnsafeMutablePointer<Float>, activation: Activation, threads: KernelThreads
) -> Kernel {
    func make<F: BinaryFunction>(_ f: F.Type) -> Kernel {
        binaryKernel(f, plan: plan, a: a, b: b, out: out, activation: activation, threads: threads)
    }
    switch op {
    case .add: return make(AddFunction.self)
    case .sub: return make(SubFunction.self)
    case .mul: return make(MulFunction.self)
    case .div: return make(DivFunction.self)
    case .squaredDifference: return make(SquaredDifferenceFunction.self)
    case .maximum: return make(MaximumFunction.self)
    case .prelu: return make(PReLUFunction.self)
    }
}

// MARK: - Unary functions and kernels

/// A function of one float, in vector form.
protocol UnaryFunction {
    static func apply(_ x: SIMD8<Float>) -> SIMD8<Float>
}

enum NegFunction: UnaryFunction {
    @inline(__always) static func apply(_ x: SIMD8<Float>) -> SIMD8<Float> { -x }
}
enum SqrtFunction: UnaryFunction {
    @inline(__always) static func apply(_ x: SIMD8<Float>) -> SIMD8<Float> { x.squareRoot() }
}
enum RsqrtFunction: UnaryFunction {
    @inline(__always) static func apply(_ x: SIMD8<Float>) -> SIMD8<Float> { 1 / x.squareRoot() }
}
enum ReluFunction: UnaryFunction {
    @inline(__always) static func apply(_ x: SIMD8<Float>) -> SIMD8<Float> { lanewiseMax(x, .zero) }
}
enum LogisticFunction: UnaryFunction {
    @inline(__always) static func apply(_ x: SIMD8<Float>) -> SIMD8<Float> { vectorLogistic(x) }
}
/// HARD_SWISH: x · min(max(x + 3, 0), 6) / 6, in TFLite's order (the product, then the division).
enum HardSwishFunction: UnaryFunction {
    @inline(__always) static func apply(_ x: SIMD8<Float>) -> SIMD8<Float> {
        x * lanewiseMin(lanewiseMax(x + 3, .zero), SIMD8(repeating: 6)) / 6
    }
}

/// A prepared one-input elementwise operator over `count` contiguous values (a closure specialised for `F`),
/// split over `threads` in parts of at least `unaryMinimumPerPart` values.
func unaryKernel<F: UnaryFunction>(
    _: F.Type, input: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>,
    count: Int, threads: KernelThreads
) -> Kernel {
    let job = RowsJob { begin, end in unaryRun(F.self, input + begin, out + begin, end - begin) }
    return BoundKernel { threads.split(count, granule: 16, minimumPerPart: unaryMinimumPerPart, job) }
}

/// The fewest values a part of a split one-input operator computes: as many as ADD's, whose pass costs the same.
let unaryMinimumPerPart = 32768

/// `F` over `n` contiguous values, 8 at a time, the tail in one partial vector. `y` may be `x`.
@inline(__always)
func unaryRun<F: UnaryFunction>(_: F.Type, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int) {
    var i = 0
    while i + 8 <= n {
        store8(F.apply(load8(x + i)), y + i)
        i += 8
    }
    if i < n { storePartial(F.apply(loadPartial(x + i, n - i)), y + i, n - i) }
}

/// Makes the kernel for `op`, specialised for its function.
func makeUnaryKernel(
    _ op: UnaryOperator.Kind, input: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>,
    count: Int, threads: KernelThreads
) -> Kernel {
    func make<F: UnaryFunction>(_ f: F.Type) -> Kernel {
        unaryKernel(f, input: input, out: out, count: count, threads: threads)
    }
    switch op {
    case .neg: return make(NegFunction.self)
    case .sqrt: return make(SqrtFunction.self)
    case .rsqrt: return make(RsqrtFunction.self)
    case .relu: return make(ReluFunction.self)
    case .logistic: return make(LogisticFunction.self)
    case .hardSwish: return make(HardSwishFunction.self)
    }
}

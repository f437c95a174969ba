// The contract between the planner and the operators: a prepared kernel reads and writes
// buffers fixed at load time, so running it allocates nothing.

import VisionErrors

/// A prepared operator: shapes resolved, weights packed, input and output pointers bound.
protocol Kernel: AnyObject {
    /// Computes the operator's outputs from its inputs (no allocation).
    func run()
}

extension Array {
    /// Calls `body` on each element in order. Unlike `for x in array`, this allocates nothing even in
    /// unoptimised builds (there the array iterator's generic element read mallocs a coroutine frame).
    func forEachWithoutAllocating(_ body: (Element) -> Void) {
        withUnsafeBufferPointer { elements in
            var i = 0
            while i < elements.count {
                body(elements[i])
                i += 1
            }
        }
    }
}

/// Up to eight extents or strides held inline (no heap array, so kernels touch no reference counts).
typealias Dims = SIMD8<Int>

/// `values` (at most 8) as `Dims`, unused lanes 0.
func dims(_ values: [Int]) -> Dims {
    var d = Dims()
    for (i, v) in values.prefix(Dims.scalarCount).enumerated() { d[i] = v }
    return d
}

/// How many dimensions the broadcast, reduction and strided-copy plans collapse their shapes to
/// (padded with extent 1): `forEachOuterIndex` walks five, the kernel's own loop the sixth.
let collapsedRank = 6

/// Calls `body` with the offsets, through strides `a` and `b`, of every index of the first five of
/// the `collapsedRank` dimensions `extents` (the sixth, innermost, is the caller's loop).
@inline(__always)
func forEachOuterIndex(_ extents: Dims, _ a: Dims, _ b: Dims, _ body: (Int, Int) -> Void) {
    for i0 in 0..<extents[0] {
        for i1 in 0..<extents[1] {
            for i2 in 0..<extents[2] {
                for i3 in 0..<extents[3] {
                    for i4 in 0..<extents[4] {
                        body(
                            i0 * a[0] + i1 * a[1] + i2 * a[2] + i3 * a[3] + i4 * a[4],
                            i0 * b[0] + i1 * b[1] + i2 * b[2] + i3 * b[3] + i4 * b[4])
                    }
                }
            }
        }
    }
}

/// The number of elements of `shape`, a shape an operator computes from its arguments: refused
/// (`unsupportedModel`, naming `what`) above `GraphLoader.maxComputedFloats`, before anything multiplies its sizes.
func computedCount(_ shape: [Int], _ what: @autoclosure () -> String) throws(VisionTasksError) -> Int {
    var count = 1
    for size in shape {
        let (product, overflow) = count.multipliedReportingOverflow(by: size)
        // Each size too: after a 0 the product stays 0 whatever follows.
        guard (0...GraphLoader.maxComputedFloats).contains(size), !overflow, product <= GraphLoader.maxComputedFloats
        else {
            throw VisionTasksError.unsupportedModel(
                "\(what()) \(shape) has more than \(GraphLoader.maxComputedFloats) elements, the most the engine computes"
            )
        }
        count = product
    }
    return count
}

/// Row-major strides of a shape.
func contiguousStrides(_ shape: [Int]) -> [Int] {
    var strides = [Int](repeating: 1, count: shape.count)
    var s = 1
    for i in stride(from: shape.count - 1, through: 0, by: -1) {
        strides[i] = s
        s *= shape[i]
    }
    return strides
}

/// Resolves a possibly negative axis against a rank; nil when out of range (always for a scalar, rank 0).
func normalizedAxis(_ axis: Int, rank: Int) -> Int? {
    let a = axis < 0 ? axis + rank : axis
    return (0..<rank).contains(a) ? a : nil
}

/// Loads up to 8 floats (zero-padded) from `p`.
@inline(__always)
func loadPartial(_ p: UnsafePointer<Float>, _ n: Int) -> SIMD8<Float> {
    var v = SIMD8<Float>(repeating: 0)
    for i in 0..<n { v[i] = p[i] }
    return v
}

/// Stores the first `n` lanes of `v` to `p`.
@inline(__always)
func storePartial(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>, _ n: Int) {
    for i in 0..<n { p[i] = v[i] }
}

@inline(__always)
func load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func store8(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
}

/// Lane-wise maximum (a blend, which vectorises; the standard library's generic `pointwiseMax` does not).
@inline(__always)
func lanewiseMax(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: a .< b)
}

/// Lane-wise minimum (see `lanewiseMax`).
@inline(__always)
func lanewiseMin(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: b .< a)
}

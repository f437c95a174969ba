// Data movement shared by the layout operators (TRANSPOSE, STRIDED_SLICE, PAD, CONCATENATION,
// GATHER, UNPACK, RESHAPE): a block of up to six dimensions copied between two strided layouts.

import CKernels
import Foundation

/// One strided block copy: `extents` elements, read at `source + Σ iₖ·sourceStrides[k]` and written
/// at `destination + Σ iₖ·destinationStrides[k]`. Offsets and strides count floats.
struct StridedCopy: Equatable {
    /// The block's extent in each collapsed dimension, left-padded with 1 to `collapsedRank`.
    let extents: Dims
    /// Where a step along each dimension moves in the source.
    let sourceStrides: Dims
    /// Where a step along each dimension moves in the destination.
    let destinationStrides: Dims
    /// The block's first element in the source.
    let sourceOffset: Int
    /// The block's first element in the destination.
    let destinationOffset: Int

    /// Collapses adjacent dimensions that are contiguous in both layouts and pads to `collapsedRank`.
    /// Nil when more than `collapsedRank` dimensions remain.
    init?(
        extents: [Int], sourceStrides: [Int], destinationStrides: [Int], sourceOffset: Int = 0,
        destinationOffset: Int = 0
    ) {
        var dims: [(n: Int, s: Int, d: Int)] = []
        for i in extents.indices where extents[i] != 1 {
            let x = (n: extents[i], s: sourceStrides[i], d: destinationStrides[i])
            if let last = dims.last, last.s == x.s * x.n, last.d == x.d * x.n {
                dims[dims.count - 1] = (n: last.n * x.n, s: x.s, d: x.d)
            } else {
                dims.append(x)
            }
        }
        if extents.contains(0) { dims = [(n: 0, s: 1, d: 1)] }
        guard dims.count <= collapsedRank else { return nil }
        let pad = collapsedRank - dims.count
        self.extents = Inference.dims([Int](repeating: 1, count: pad) + dims.map(\.n))
        self.sourceStrides = Inference.dims([Int](repeating: 0, count: pad) + dims.map(\.s))
        self.destinationStrides = Inference.dims([Int](repeating: 0, count: pad) + dims.map(\.d))
        self.sourceOffset = sourceOffset
        self.destinationOffset = destinationOffset
    }

    /// Performs the copy.
    @inline(__always)
    func run(from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>) {
        let e = extents, s = sourceStrides, d = destinationStrides
        let n = e[5]
        let contiguous = s[5] == 1 && d[5] == 1
        let src0 = source + sourceOffset, dst0 = destination + destinationOffset
        if isTranspose {
            runTranspose(from: src0, to: dst0)
            return
        }
        forEachOuterIndex(e, s, d) { sourceStep, destinationStep in
            let src = src0 + sourceStep, dst = dst0 + destinationStep
            if contiguous {
                dst.update(from: src, count: n)
            } else {
                let ss = s[5], ds = d[5]
                for j in 0..<n { dst[j * ds] = src[j * ss] }
            }
        }
    }
}

extension StridedCopy {
    /// Whether the innermost two dimensions swap: contiguous along the last in the destination and along the one
    /// before it in the source, each at least a vector wide (a transpose, run by 8×8 blocks).
    var isTranspose: Bool {
        let e = extents, s = sourceStrides, d = destinationStrides
        return d[5] == 1 && s[4] == 1 && s[5] > 1 && d[4] > 1 && e[4] >= 4 && e[5] >= 4
    }

    /// The copy as one block transpose per index of the outer four dimensions.
    private func runTranspose(from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>) {
        let e = extents, s = sourceStrides, d = destinationStrides
        let isa = KernelISA.best.code
        var outer = e
        outer[4] = 1 // the fifth dimension is the block's columns: vt_transpose walks them
        forEachOuterIndex(outer, s, d) { sourceStep, destinationStep in
            vt_transpose(source + sourceStep, s[5], destination + destinationStep, d[4], e[5], e[4], isa)
        }
    }
}

/// A prepared operator made of block copies from one input, after zero-filling the output when
/// some of it is not written (PAD).
final class CopyKernel: Kernel {
    let input: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>
    let copies: [StridedCopy]
    let zeroFillCount: Int

    init(input: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, copies: [StridedCopy], zeroFillCount: Int = 0) {
        self.input = input
        self.out = out
        self.copies = copies
        self.zeroFillCount = zeroFillCount
    }

    func run() {
        if zeroFillCount > 0 { out.update(repeating: 0, count: zeroFillCount) }
        copies.forEachWithoutAllocating { $0.run(from: input, to: out) }
    }
}

/// A prepared operator that copies several inputs into one output (CONCATENATION) or one input into
/// several outputs (UNPACK): one (source, destination, copy) triple per part.
final class MultiCopyKernel: Kernel {
    let parts: [(source: UnsafePointer<Float>, destination: UnsafeMutablePointer<Float>, copy: StridedCopy)]
    let activation: Activation
    let clampTarget: (UnsafeMutablePointer<Float>, Int)?

    init(
        parts: [(source: UnsafePointer<Float>, destination: UnsafeMutablePointer<Float>, copy: StridedCopy)],
        activation: Activation = .none, clampTarget: (UnsafeMutablePointer<Float>, Int)? = nil
    ) {
        self.parts = parts
        self.activation = activation
        self.clampTarget = clampTarget
    }

    func run() {
        parts.forEachWithoutAllocating { $0.copy.run(from: $0.source, to: $0.destination) }
        if activation != .none, let (out, count) = clampTarget {
            let (lo, hi) = activation.bounds
            for i in 0..<count { out[i] = min(max(out[i], lo), hi) }
        }
    }
}

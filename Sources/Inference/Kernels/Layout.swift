// Shape rules and copy plans of the layout operators. Each planner takes the input shape and
// the operator's constant arguments and returns the output shape(s) and the block copies.

import VisionErrors

/// Wraps a copy whose rank could not be collapsed to `collapsedRank`.
func stridedCopy(
    extents: [Int], sourceStrides: [Int], destinationStrides: [Int], sourceOffset: Int = 0,
    destinationOffset: Int = 0
) throws(VisionTasksError) -> StridedCopy {
    guard
        let c = StridedCopy(
            extents: extents, sourceStrides: sourceStrides, destinationStrides: destinationStrides,
            sourceOffset: sourceOffset, destinationOffset: destinationOffset)
    else { throw VisionTasksError.unsupportedModel("more than \(collapsedRank) non-trivial dimensions") }
    return c
}

enum LayoutPlanner {
    /// RESHAPE: the new shape (one -1 inferred); the element count must not change.
    static func reshape(_ input: [Int], newShape: [Int]) throws(VisionTasksError) -> [Int] {
        let count = input.reduce(1, *)
        var shape = newShape
        let unknown = shape.indices.filter { shape[$0] == -1 }
        try require(unknown.count <= 1, "reshape target \(newShape) has more than one -1")
        try require(shape.allSatisfy { $0 >= -1 }, "reshape target \(newShape) has a negative size")
        let known = try computedCount(shape.map { $0 == -1 ? 1 : $0 }, "reshape target")
        if let u = unknown.first {
            try require(known > 0 && count % known == 0, "cannot reshape \(input) to \(newShape)")
            shape[u] = count / known
        }
        try require(shape.reduce(1, *) == count, "cannot reshape \(input) to \(newShape)")
        return shape
    }

    /// TRANSPOSE: output dim i is input dim perm[i].
    static func transpose(_ input: [Int], perm: [Int]) throws(VisionTasksError) -> ([Int], StridedCopy) {
        try require(
            perm.count == input.count && Set(perm) == Set(0..<input.count),
            "permutation \(perm) does not fit a tensor of rank \(input.count)")
        let strides = contiguousStrides(input)
        let out = perm.map { input[$0] }
        let copy = try stridedCopy(
            extents: out, sourceStrides: perm.map { strides[$0] },
            destinationStrides: contiguousStrides(out))
        return (out, copy)
    }

    /// PAD: paddings is [rank × 2] (before, after) per dimension; padded cells are 0.
    static func pad(_ input: [Int], paddings: [Int]) throws(VisionTasksError) -> ([Int], StridedCopy) {
        try require(paddings.count == 2 * input.count, "paddings have \(paddings.count) values for rank \(input.count)")
        try require(paddings.allSatisfy { $0 >= 0 }, "negative padding \(paddings)")
        guard paddings.allSatisfy({ $0 <= GraphLoader.maxComputedFloats }) else {
            throw .unsupportedModel(
                "padding \(paddings) has more than \(GraphLoader.maxComputedFloats) elements, the most the engine computes"
            )
        }
        let out = input.indices.map { input[$0] + paddings[2 * $0] + paddings[2 * $0 + 1] }
        _ = try computedCount(out, "padded shape")
        let outStrides = contiguousStrides(out)
        let offset = input.indices.reduce(0) { $0 + paddings[2 * $1] * outStrides[$1] }
        let copy = try stridedCopy(
            extents: input, sourceStrides: contiguousStrides(input),
            destinationStrides: outStrides, destinationOffset: offset)
        return (out, copy)
    }

    /// CONCATENATION along `axis`: one copy per input into the output.
    static func concatenation(_ inputs: [[Int]], axis: Int) throws(VisionTasksError) -> ([Int], [StridedCopy]) {
        guard let first = inputs.first else { throw VisionTasksError.invalidModel("no inputs") }
        guard let a = normalizedAxis(axis, rank: first.count) else {
            throw VisionTasksError.invalidModel("axis \(axis) out of range for rank \(first.count)")
        }
        for s in inputs {
            try require(
                s.count == first.count && s.indices.allSatisfy { $0 == a || s[$0] == first[$0] },
                "input shapes \(inputs) do not match outside axis \(a)")
        }
        var out = first
        out[a] = inputs.reduce(0) { $0 + $1[a] }
        let outer = first[..<a].reduce(1, *)
        let inner = first[(a + 1)...].reduce(1, *)
        var copies: [StridedCopy] = []
        var offset = 0
        for s in inputs {
            let block = s[a] * inner
            copies.append(
                try stridedCopy(
                    extents: [outer, block], sourceStrides: [block, 1],
                    destinationStrides: [out[a] * inner, 1], destinationOffset: offset))
            offset += block
        }
        return (out, copies)
    }

    /// UNPACK along `axis` into `num` outputs, each without that dimension.
    static func unpack(_ input: [Int], num: Int, axis: Int) throws(VisionTasksError) -> ([Int], [StridedCopy]) {
        guard let a = normalizedAxis(axis, rank: input.count) else {
            throw VisionTasksError.invalidModel("axis \(axis) out of range for rank \(input.count)")
        }
        try require(input[a] == num, "unpack of \(num) along axis \(a) of shape \(input)")
        var out = input
        out.remove(at: a)
        let outer = input[..<a].reduce(1, *)
        let inner = input[(a + 1)...].reduce(1, *)
        var copies: [StridedCopy] = []
        for k in 0..<num {
            copies.append(
                try stridedCopy(
                    extents: [outer, inner], sourceStrides: [num * inner, 1],
                    destinationStrides: [inner, 1], sourceOffset: k * inner))
        }
        return (out, copies)
    }

    /// GATHER of constant `indices` (any shape) along `axis` (batch_dims 0).
    static func gather(_ input: [Int], indices: [Int], indicesShape: [Int], axis: Int, batchDims: Int)
        throws(VisionTasksError) -> ([Int], [StridedCopy])
    {
        try require(batchDims == 0, "batch_dims \(batchDims)")
        guard let a = normalizedAxis(axis, rank: input.count) else {
            throw VisionTasksError.invalidModel("axis \(axis) out of range for rank \(input.count)")
        }
        let out = Array(input[..<a]) + indicesShape + Array(input[(a + 1)...])
        _ = try computedCount(out, "gathered shape")
        let outer = input[..<a].reduce(1, *)
        let inner = input[(a + 1)...].reduce(1, *)
        var copies: [StridedCopy] = []
        for (j, index) in indices.enumerated() {
            try require(index >= 0 && index < input[a], "index \(index) out of range 0..<\(input[a])")
            copies.append(
                try stridedCopy(
                    extents: [outer, inner], sourceStrides: [input[a] * inner, 1],
                    destinationStrides: [indices.count * inner, 1],
                    sourceOffset: index * inner, destinationOffset: j * inner))
        }
        return (out, copies)
    }

    /// STRIDED_SLICE with TFLite's begin/end/ellipsis/new-axis/shrink-axis masks and `offset`.
    static func stridedSlice(_ input: [Int], begin: [Int], end: [Int], strides: [Int], options o: SliceMasks)
        throws(VisionTasksError) -> ([Int], StridedCopy)
    {
        let m = begin.count
        try require(end.count == m && strides.count == m, "begin, end and strides differ in length")
        try require(strides.allSatisfy { $0 != 0 }, "a stride is 0")
        let bit = { (mask: Int, i: Int) in mask & (1 << i) != 0 }
        // Expand the sparse spec to one (start, stride, count) per input dimension.
        var starts: [Int] = [], steps: [Int] = [], counts: [Int] = []
        var outShape: [Int] = []
        let sparseConsumingDims = (0..<m).filter { !bit(o.newAxisMask, $0) || bit(o.ellipsisMask, $0) }.count
        var dim = 0
        var sawEllipsis = false
        for i in 0..<m {
            if bit(o.ellipsisMask, i) {
                try require(!sawEllipsis, "more than one ellipsis")
                sawEllipsis = true
                let cover = input.count - (sparseConsumingDims - 1)
                try require(cover >= 0, "slice spec longer than rank \(input.count)")
                for _ in 0..<cover {
                    starts.append(0)
                    steps.append(1)
                    counts.append(input[dim])
                    outShape.append(input[dim])
                    dim += 1
                }
                continue
            }
            if bit(o.newAxisMask, i) {
                outShape.append(1)
                continue
            }
            try require(dim < input.count, "slice spec longer than rank \(input.count)")
            let n = input[dim], s = strides[i]
            var start: Int
            if bit(o.beginMask, i) {
                start = s > 0 ? 0 : n - 1
            } else {
                start = begin[i] < 0 ? begin[i] + n : begin[i]
                start = s > 0 ? min(max(start, 0), n) : min(max(start, -1), n - 1)
            }
            var stop: Int
            if bit(o.shrinkAxisMask, i) {
                try require(start >= 0 && start < n, "shrunk index \(begin[i]) out of range 0..<\(n)")
                stop = start + 1
            } else if bit(o.endMask, i) {
                stop = s > 0 ? n : -1
            } else {
                stop = o.offset ? begin[i] + end[i] : end[i]
                if stop < 0 { stop += n }
                stop = s > 0 ? min(max(stop, 0), n) : min(max(stop, -1), n - 1)
            }
            let count = s > 0 ? max(0, (stop - start + s - 1) / s) : max(0, (start - stop - s - 1) / -s)
            starts.append(start)
            steps.append(bit(o.shrinkAxisMask, i) ? 1 : s)
            counts.append(count)
            if !bit(o.shrinkAxisMask, i) { outShape.append(count) }
            dim += 1
        }
        while dim < input.count {
            starts.append(0)
            steps.append(1)
            counts.append(input[dim])
            outShape.append(input[dim])
            dim += 1
        }
        let inStrides = contiguousStrides(input)
        let offset = counts.contains(0) ? 0 : input.indices.reduce(0) { $0 + starts[$1] * inStrides[$1] }
        let copy = try stridedCopy(
            extents: counts, sourceStrides: input.indices.map { inStrides[$0] * steps[$0] },
            destinationStrides: contiguousStrides(counts), sourceOffset: offset)
        return (outShape, copy)
    }
}

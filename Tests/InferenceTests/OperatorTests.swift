import Foundation
import TFLite
import Testing
import VisionErrors

@testable import Inference

/// Builds small graphs by hand to test one operator at a time through the real planner.
struct GraphBuilder {
    var graph = Graph(tensors: [], nodes: [], inputs: [], outputs: [])

    /// A run-time float input.
    mutating func input(_ shape: [Int]) -> Int {
        graph.tensors.append(GraphTensor(name: "in\(graph.tensors.count)", shape: shape, type: .float32))
        graph.inputs.append(graph.tensors.count - 1)
        return graph.tensors.count - 1
    }

    /// A constant int32 argument (shape, axes, permutation...).
    mutating func ints(_ values: [Int], shape: [Int]? = nil) -> Int {
        graph.tensors.append(
            GraphTensor(
                name: "c\(graph.tensors.count)", shape: shape ?? [values.count], type: .int32,
                constant: .int32(values.map { Int32($0) })))
        return graph.tensors.count - 1
    }

    /// A constant tensor.
    mutating func constant(
        _ data: ConstantData, shape: [Int], type: ElementType = .float32,
        quantization: Quantization? = nil
    ) -> Int {
        graph.tensors.append(
            GraphTensor(
                name: "k\(graph.tensors.count)", shape: shape, type: type, constant: data,
                quantization: quantization))
        return graph.tensors.count - 1
    }

    /// Appends a node whose outputs are declared with `shapes`; returns the output tensors.
    @discardableResult
    mutating func node(_ op: any GraphOperation, _ inputs: [Int], _ shapes: [[Int]], output: Bool = true) -> [Int] {
        var outs: [Int] = []
        for s in shapes {
            graph.tensors.append(GraphTensor(name: "t\(graph.tensors.count)", shape: s, type: .float32))
            outs.append(graph.tensors.count - 1)
        }
        graph.nodes.append(
            GraphNode(operation: op, opName: "\(op)", index: graph.nodes.count, inputs: inputs, outputs: outs))
        if output { graph.outputs += outs }
        return outs
    }

    /// Runs the graph on `inputs` and returns every graph output.
    func run(_ inputs: [[Float]], threads: Int = 1) throws -> [[Float]] {
        let interpreter = try Interpreter(graph: graph, numThreads: threads)
        for (i, v) in inputs.enumerated() { try interpreter.setInput(i, v) }
        interpreter.invoke()
        return (0..<interpreter.outputs.count).map { interpreter.output($0) }
    }
}

/// One operator on one or two inputs, returning its single output.
func runOp(_ op: any GraphOperation, _ a: ([Int], [Float]), _ b: ([Int], [Float])? = nil, out: [Int]) throws -> [Float]
{
    var g = GraphBuilder()
    var ins = [g.input(a.0)]
    if let b { ins.append(g.input(b.0)) }
    g.node(op, ins, [out])
    return try g.run([a.1] + (b.map { [$0.1] } ?? []))[0]
}

/// Exact-arithmetic operator cases (tolerance 0 unless stated).
@Suite struct OperatorTests {
    @Test func binaryBroadcasting() throws {
        // [2,3] + [3]
        #expect(
            try runOp(BinaryOperator(.add, .none), ([2, 3], [1, 2, 3, 4, 5, 6]), ([3], [10, 20, 30]), out: [2, 3])
                == [11, 22, 33, 14, 25, 36])
        // [2,1,3] - [1,4,1] -> [2,4,3]
        let a: [Float] = [1, 2, 3, 4, 5, 6], b: [Float] = [0, 10, 20, 30]
        let r = try runOp(BinaryOperator(.sub, .none), ([2, 1, 3], a), ([1, 4, 1], b), out: [2, 4, 3])
        var expected: [Float] = []
        for i in 0..<2 { for j in 0..<4 { for k in 0..<3 { expected.append(a[i * 3 + k] - b[j]) } } }
        #expect(r == expected)
        // scalar on the left, 19 elements (vector body and tail)
        let x = (0..<19).map { Float($0) - 9 }
        #expect(try runOp(BinaryOperator(.mul, .none), ([], [2]), ([19], x), out: [19]) == x.map { 2 * $0 })
        #expect(try runOp(BinaryOperator(.div, .none), ([19], x), ([], [4]), out: [19]) == x.map { $0 / 4 })
        #expect(
            try runOp(BinaryOperator(.squaredDifference, .none), ([19], x), ([1], [1]), out: [19])
                == x.map { ($0 - 1) * ($0 - 1) })
        #expect(
            try runOp(BinaryOperator(.maximum, .none), ([19], x), ([1], [0.5]), out: [19]) == x.map { max($0, 0.5) })
    }

    /// Rows shorter than a vector with the other input one repeated row (the gesture embedder's
    /// [1, 21, 3] - [1, 1, 3]), on either side, with a clamp, ending in a partial vector.
    @Test func shortRepeatedRows() throws {
        let cases: [(BinaryOperator.Kind, [Int], [Int], Bool)] = [
            (.sub, [1, 21, 3], [1, 1, 3], false), (.div, [1, 1, 3], [1, 7, 3], true), (.mul, [5, 7], [7], false),
            (.sub, [2], [9, 2], true), (.maximum, [11, 5], [1, 5], false),
        ]
        for (kind, shapeA, shapeB, clampToOne) in cases {
            let countA = shapeA.reduce(1, *), countB = shapeB.reduce(1, *)
            let a = (0..<countA).map { Float($0 % 13) * 0.37 - 2 }, b = (0..<countB).map { Float($0 % 11) * 0.29 + 0.5 }
            let rows = max(countA, countB) / shapeA.last!, period = shapeA.last!
            let out = countA > countB ? shapeA : shapeB
            let got = try runOp(
                BinaryOperator(kind, clampToOne ? .reluN1To1 : .none), (shapeA, a), (shapeB, b), out: out)
            var expected: [Float] = []
            for r in 0..<rows {
                for j in 0..<period {
                    let x = countA > countB ? a[r * period + j] : a[j], y = countA > countB ? b[j] : b[r * period + j]
                    var v: Float
                    switch kind {
                    case .sub: v = x - y
                    case .div: v = x / y
                    case .mul: v = x * y
                    default: v = max(x, y)
                    }
                    expected.append(clampToOne ? min(max(v, -1), 1) : v)
                }
            }
            #expect(got == expected, "\(kind) \(shapeA) \(shapeB)")
        }
    }

    @Test func fusedActivations() throws {
        let x: [Float] = [-8, -1, -0.5, 0, 0.5, 3, 7, 9, -3]
        let zero = [Float](repeating: 0, count: 9)
        #expect(
            try runOp(BinaryOperator(.add, .relu6), ([9], x), ([9], zero), out: [9]) == x.map { min(max($0, 0), 6) })
        #expect(
            try runOp(BinaryOperator(.add, .reluN1To1), ([9], x), ([1], [0]), out: [9]) == x.map { min(max($0, -1), 1) }
        )
        #expect(try runOp(BinaryOperator(.mul, .relu), ([9], x), ([1], [1]), out: [9]) == x.map { max($0, 0) })
    }

    @Test func prelu() throws {
        let x: [Float] = [-1, 2, -3, 4, -5, 6]
        // Per-channel alpha [1,1,2] on [1,1,3,2] (the C kernel path) and a broadcast alpha [3,1] (general path).
        #expect(
            try runOp(BinaryOperator(.prelu, .none), ([1, 1, 3, 2], x), ([1, 1, 2], [0.5, 0.25]), out: [1, 1, 3, 2])
                == [-0.5, 2, -1.5, 4, -2.5, 6])
        #expect(
            try runOp(BinaryOperator(.prelu, .none), ([3, 2], x), ([3, 1], [1, 2, 3]), out: [3, 2])
                == [-1, 2, -6, 4, -15, 6])
    }

    /// Tolerance: 2e-7 absolute (LOGISTIC, whose outputs are ≤ 1) and 2 ulp relative for SQRT/RSQRT.
    @Test func unary() throws {
        let x = (0..<21).map { Float($0) * 0.75 - 7 }
        #expect(try runOp(UnaryOperator(.neg), ([21], x), out: [21]) == x.map { -$0 })
        #expect(try runOp(UnaryOperator(.relu), ([21], x), out: [21]) == x.map { max($0, 0) })
        let positive = x.map { abs($0) + 0.1 }
        for (o, v) in zip(try runOp(UnaryOperator(.sqrt), ([21], positive), out: [21]), positive) {
            #expect(abs(o - v.squareRoot()) <= 2 * v.squareRoot().ulp)
        }
        for (o, v) in zip(try runOp(UnaryOperator(.rsqrt), ([21], positive), out: [21]), positive) {
            #expect(abs(o - 1 / v.squareRoot()) <= 2 * (1 / v.squareRoot()).ulp)
        }
        let wide: [Float] = [
            -100, -88, -30, -10, -2, -0.5, 0, 1e-3, 0.5, 2, 10, 17, 30, 88, 100, .infinity, -.infinity,
        ]
        for (o, v) in zip(try runOp(UnaryOperator(.logistic), ([wide.count], wide), out: [wide.count]), wide) {
            let exact = 1 / (1 + Foundation.exp(-Double(v)))
            #expect(abs(Double(o) - exact) <= 2e-7, "logistic(\(v)) = \(o), expected \(exact)")
        }
        let swish = try runOp(UnaryOperator(.hardSwish), ([21], x), out: [21])
        #expect(swish == x.map { $0 * min(max($0 + 3, 0), 6) / 6 })
    }

    /// AVERAGE_POOL_2D with SAME padding (windows cut by the border average their taps inside) and
    /// a fused RELU6, globally, at 1 and 2 threads, on channel counts that end the kernel's 16-channel passes
    /// in a partial first or second vector or on a whole one; tolerance 0 (integer sums, the same division).
    @Test(arguments: [11, 16, 35]) func averagePooling(channels c: Int) throws {
        let (h, w) = (5, 7)
        let x = (0..<(2 * h * w * c)).map { Float(($0 * 7) % 23) - 9 }
        func pool(
            _ filter: Int, _ stride: Int, _ padding: WindowPadding, _ activation: Activation, out: [Int], threads: Int
        )
            throws -> [Float]
        {
            var g = GraphBuilder()
            let i = g.input([2, h, w, c])
            g.node(
                Pool2DOperator(
                    .average,
                    options: PoolOptions(
                        padding: padding, strideH: stride, strideW: stride, filterH: filter, filterW: filter,
                        activation: activation)), [i], [out])
            return try g.run([x], threads: threads)[0]
        }
        for threads in [1, 2] {
            let same = try pool(3, 2, .same, .relu6, out: [2, 3, 4, c], threads: threads)
            for b in 0..<2 {
                for oy in 0..<3 {
                    for ox in 0..<4 {
                        for k in 0..<c {
                            // SAME: total padding 2 rows (1 on top) and 2 columns (1 on the left).
                            var sum: Float = 0
                            var n = 0
                            for y in (2 * oy - 1)...(2 * oy + 1) where (0..<h).contains(y) {
                                for x0 in (2 * ox - 1)...(2 * ox + 1) where (0..<w).contains(x0) {
                                    sum += x[((b * h + y) * w + x0) * c + k]
                                    n += 1
                                }
                            }
                            #expect(same[((b * 3 + oy) * 4 + ox) * c + k] == min(max(sum / Float(n), 0), 6))
                        }
                    }
                }
            }
            let global = try pool(max(h, w), max(h, w), .same, .none, out: [2, 1, 1, c], threads: threads)
            for b in 0..<2 {
                for k in 0..<c {
                    var sum: Float = 0
                    for p in 0..<(h * w) { sum += x[(b * h * w + p) * c + k] }
                    #expect(global[b * c + k] == sum / Float(h * w))
                }
            }
        }
    }

    /// Convolution2DTransposeBias against MediaPipe's scatter loop written out in Double, for SAME
    /// (odd and even cuts) and VALID, channel counts below, at and above a vector, and the selfie
    /// segmenters' one-channel 2×2 stride 2 window (its own AVX2 path; an odd width for its last pixel);
    /// tolerance 1e-5 absolute; 2 threads give 1 thread's bits.
    @Test func transposeConvolutionWithBias() throws {
        let cases: [(h: Int, w: Int, ci: Int, co: Int, k: Int, stride: Int, padding: WindowPadding)] = [
            (4, 5, 3, 2, 3, 2, .same), (3, 3, 8, 1, 4, 2, .same), (5, 4, 11, 3, 5, 2, .same),
            (3, 2, 17, 2, 3, 1, .same), (3, 4, 9, 2, 5, 3, .valid), (2, 2, 16, 1, 2, 2, .valid),
            (3, 5, 24, 1, 2, 2, .valid),
        ]
        for t in cases {
            let x = (0..<(t.h * t.w * t.ci)).map { Float(($0 * 13) % 17) * 0.125 - 1 }
            let f = (0..<(t.co * t.k * t.k * t.ci)).map { Float(($0 * 5) % 11) * 0.25 - 1.25 }
            let bias = (0..<t.co).map { Float($0) * 0.5 - 0.25 }
            func axis(_ size: Int) -> (out: Int, pad: Int) {
                let lost = t.padding == .same ? max(0, t.k - (size - 1) % t.stride - 1) : 0
                return (t.stride * (size - 1) + t.k - lost, lost / 2)
            }
            let (oh, ow) = (axis(t.h), axis(t.w))
            var expected = [Double](repeating: 0, count: oh.out * ow.out * t.co)
            for p in 0..<(oh.out * ow.out) { for o in 0..<t.co { expected[p * t.co + o] = Double(bias[o]) } }
            for iy in 0..<t.h {
                for ix in 0..<t.w {
                    for ky in 0..<t.k {
                        for kx in 0..<t.k {
                            let oy = iy * t.stride - oh.pad + ky, ox = ix * t.stride - ow.pad + kx
                            guard (0..<oh.out).contains(oy), (0..<ow.out).contains(ox) else { continue }
                            for o in 0..<t.co {
                                for c in 0..<t.ci {
                                    expected[(oy * ow.out + ox) * t.co + o] +=
                                        Double(x[(iy * t.w + ix) * t.ci + c])
                                        * Double(f[((o * t.k + ky) * t.k + kx) * t.ci + c])
                                }
                            }
                        }
                    }
                }
            }
            var results: [[Float]] = []
            for threads in [1, 2] {
                var g = GraphBuilder()
                let i = g.input([1, t.h, t.w, t.ci])
                let fk = g.constant(.float32(f), shape: [t.co, t.k, t.k, t.ci])
                let bk = g.constant(.float32(bias), shape: [t.co])
                g.node(
                    TransposeConvBiasOperator(padding: t.padding, strideH: t.stride, strideW: t.stride), [i, fk, bk],
                    [[1, oh.out, ow.out, t.co]])
                results.append(try g.run([x], threads: threads)[0])
            }
            #expect(results[0] == results[1], "\(t): 2 threads differ from 1")
            let err = zip(results[0], expected).map { abs(Double($0) - $1) }.max() ?? .infinity
            #expect(results[0].count == expected.count && err <= 1e-5, "\(t): error \(err)")
        }
    }

    /// Tolerance 1e-6 absolute.
    @Test func softmax() throws {
        let x: [Float] = [1, 2, 3, 4, 5, 6, 7, 8, 9, -1, 0, 1, 2, 3, 4, 5, 6, 100]
        let r = try runOp(SoftmaxOperator(beta: 0.5), ([2, 9], x), out: [2, 9])
        for row in 0..<2 {
            let v = x[(row * 9)..<(row * 9 + 9)].map { Double($0) * 0.5 }
            let m = v.max()!
            let e = v.map { Foundation.exp($0 - m) }
            let s = e.reduce(0, +)
            for k in 0..<9 { #expect(abs(Double(r[row * 9 + k]) - e[k] / s) <= 1e-6) }
        }
    }

    @Test func reshapeConcatenationPad() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3])
        let y = g.input([2, 1])
        g.node(ReshapeOperator(newShape: nil), [x, g.ints([3, -1])], [[3, 2]])
        g.node(ConcatenationOperator(axis: -1, .none), [x, y], [[2, 4]])
        g.node(PadOperator(), [x, g.ints([1, 0, 0, 2], shape: [2, 2])], [[3, 5]])
        let out = try g.run([[1, 2, 3, 4, 5, 6], [7, 8]])
        #expect(out[0] == [1, 2, 3, 4, 5, 6])
        #expect(out[1] == [1, 2, 3, 7, 4, 5, 6, 8])
        #expect(out[2] == [0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 4, 5, 6, 0, 0])
        #expect(throws: VisionTasksError.self) {
            var bad = GraphBuilder()
            let i = bad.input([2, 3])
            bad.node(ReshapeOperator(newShape: nil), [i, bad.ints([4, -1])], [[4, 2]])
            _ = try bad.run([[1, 2, 3, 4, 5, 6]])
        }
    }

    @Test func transpose() throws {
        let x = (0..<24).map(Float.init) // [2, 3, 4]
        var g = GraphBuilder()
        let i = g.input([2, 3, 4])
        g.node(TransposeOperator(), [i, g.ints([2, 0, 1])], [[4, 2, 3]])
        let out = try g.run([x])[0]
        var expected: [Float] = []
        for c in 0..<4 { for a in 0..<2 { for b in 0..<3 { expected.append(x[a * 12 + b * 4 + c]) } } }
        #expect(out == expected)
    }

    @Test func depthToSpace() throws {
        // [1, 2, 3, 8] with block 2 → [1, 4, 6, 2]: out[y·2 + by, x·2 + bx, c] = in[y, x, (by·2 + bx)·2 + c].
        let x = (0..<48).map(Float.init)
        let out = try runOp(DepthToSpaceOperator(blockSize: 2), ([1, 2, 3, 8], x), out: [1, 4, 6, 2])
        var expected: [Float] = []
        for oy in 0..<4 {
            for ox in 0..<6 {
                for c in 0..<2 { expected.append(x[((oy / 2) * 3 + ox / 2) * 8 + ((oy % 2) * 2 + ox % 2) * 2 + c]) }
            }
        }
        #expect(out == expected)
        #expect(throws: VisionTasksError.self) {
            try runOp(DepthToSpaceOperator(blockSize: 3), ([1, 2, 3, 8], x), out: [1, 6, 9, 1])
        }
    }

    @Test func stridedSliceMasks() throws {
        let x = (0..<24).map(Float.init) // [2, 3, 4]
        func slice(_ b: [Int], _ e: [Int], _ s: [Int], _ m: SliceMasks, out: [Int]) throws -> [Float] {
            var g = GraphBuilder()
            let i = g.input([2, 3, 4])
            g.node(StridedSliceOperator(m), [i, g.ints(b), g.ints(e), g.ints(s)], [out])
            return try g.run([x])[0]
        }
        // x[1, 0:3:2, ::-1] with shrink on axis 0
        #expect(
            try slice(
                [1, 0, 0], [2, 3, 0], [1, 2, -1], SliceMasks(beginMask: 4, endMask: 4, shrinkAxisMask: 1), out: [2, 4])
                == [15, 14, 13, 12, 23, 22, 21, 20])
        // begin mask and negative end: x[:, 1:-1, :2]
        #expect(
            try slice([5, 1, 0], [0, -1, 2], [1, 1, 1], SliceMasks(beginMask: 1, endMask: 1), out: [2, 1, 2])
                == [4, 5, 16, 17])
        // ellipsis then new axis: x[..., newaxis, 3]  (shrink the last)
        #expect(
            try slice(
                [0, 0, 3], [0, 0, 4], [1, 1, 1],
                SliceMasks(ellipsisMask: 1, newAxisMask: 2, shrinkAxisMask: 4), out: [2, 3, 1])
                == [3, 7, 11, 15, 19, 23])
        // offset: end counts from begin, x[0:1, 1:1+2, 1:1+2]
        #expect(
            try slice([0, 1, 1], [1, 2, 2], [1, 1, 1], SliceMasks(offset: true), out: [1, 2, 2]) == [5, 6, 9, 10])
        // out-of-range ends clamp
        #expect(try slice([-10, 2, 3], [10, 10, 10], [1, 1, 1], SliceMasks(), out: [2, 1, 1]) == [11, 23])
    }

    @Test func gatherUnpack() throws {
        let x = (0..<12).map(Float.init) // [2, 3, 2]
        var g = GraphBuilder()
        let i = g.input([2, 3, 2])
        g.node(GatherOperator(axis: -2, batchDims: 0), [i, g.ints([2, 0, 2, 1])], [[2, 4, 2]])
        g.node(UnpackOperator(num: 2, axis: -1), [i], [[2, 3], [2, 3]])
        let out = try g.run([x])
        #expect(out[0] == [4, 5, 0, 1, 4, 5, 2, 3, 10, 11, 6, 7, 10, 11, 8, 9])
        #expect(out[1] == [0, 2, 4, 6, 8, 10])
        #expect(out[2] == [1, 3, 5, 7, 9, 11])
        #expect(throws: VisionTasksError.self) {
            var bad = GraphBuilder()
            let j = bad.input([2, 3, 2])
            bad.node(GatherOperator(axis: 1, batchDims: 0), [j, bad.ints([3])], [[2, 1, 2]])
            _ = try bad.run([x])
        }
    }

    /// Tolerance 1e-6 absolute for MEAN; exact for the others.
    @Test func reductions() throws {
        let x = (0..<24).map { Float(($0 * 7) % 11) - 5 } // [2, 3, 4]
        func reduce(_ op: ReduceOperator.Kind, _ axes: [Int], keep: Bool, out: [Int]) throws -> [Float] {
            var g = GraphBuilder()
            let i = g.input([2, 3, 4])
            g.node(ReduceOperator(kind: op, keepDims: keep), [i, g.ints(axes)], [out])
            return try g.run([x])[0]
        }
        func at(_ a: Int, _ b: Int, _ c: Int) -> Float { x[a * 12 + b * 4 + c] }
        let sum1 = (0..<2).flatMap { a in (0..<4).map { c in (0..<3).reduce(Float(0)) { $0 + at(a, $1, c) } } }
        #expect(try reduce(.sum, [1], keep: true, out: [2, 1, 4]) == sum1)
        let mean02 = (0..<3).map { b in (0..<2).flatMap { a in (0..<4).map { at(a, b, $0) } }.reduce(0, +) / 8 }
        for (o, e) in zip(try reduce(.mean, [0, -1], keep: false, out: [3]), mean02) { #expect(abs(o - e) <= 1e-6) }
        let max2 = (0..<6).map { r in (0..<4).map { x[r * 4 + $0] }.max()! }
        #expect(try reduce(.max, [-1], keep: false, out: [2, 3]) == max2)
        let minAll = [x.min()!]
        #expect(try reduce(.min, [0, 1, 2], keep: true, out: [1, 1, 1]) == minAll)
    }

    /// Reductions that keep the innermost axis (a global pool over H and W; reduced axes apart; rows of 32, 16, 8
    /// and a tail of values) equal the values folded one by one in row-major order, bit for bit.
    @Test func reductionsKeepingInnerAxis() throws {
        let cases: [(shape: [Int], axes: [Int])] = [
            ([1, 9, 7, 61], [1, 2]), ([2, 5, 3, 45], [1, 2]), ([3, 4, 5, 27], [0, 2]), ([4, 6, 3], [0]),
            ([1, 12, 11, 16], [1, 2]), ([2, 3, 5], [1]),
        ]
        for (shape, axes) in cases {
            let count = shape.reduce(1, *)
            let x = (0..<count).map { Float(($0 * 7919) % 1009) / 97 - 5 }
            let strides = contiguousStrides(shape)
            let kept = shape.indices.filter { !axes.contains($0) }
            let outShape = shape.indices.map { axes.contains($0) ? 1 : shape[$0] }
            let outStrides = contiguousStrides(outShape)
            for op in [ReduceOperator.Kind.sum, .mean, .max, .min] {
                var expected = [Float](
                    repeating: op == .max ? -.infinity : op == .min ? .infinity : 0,
                    count: outShape.reduce(1, *))
                for i in 0..<count {
                    let o = shape.indices.reduce(0) { acc, d in
                        acc + (kept.contains(d) ? (i / strides[d]) % shape[d] * outStrides[d] : 0)
                    }
                    switch op {
                    case .sum, .mean: expected[o] += x[i]
                    case .max: expected[o] = expected[o] < x[i] ? x[i] : expected[o]
                    case .min: expected[o] = x[i] < expected[o] ? x[i] : expected[o]
                    }
                }
                if op == .mean {
                    let scale = 1 / Float(count / expected.count)
                    expected = expected.map { $0 * scale }
                }
                var g = GraphBuilder()
                let i = g.input(shape)
                g.node(ReduceOperator(kind: op, keepDims: true), [i, g.ints(axes)], [outShape])
                #expect(try g.run([x])[0] == expected, "\(op) \(shape) over \(axes)")
            }
        }
    }

    /// TFLite's three coordinate rules on a 1×1×2 row resized to 4 columns (tolerance 1e-6).
    @Test func resizeBilinear() throws {
        func resize(_ alignCorners: Bool, _ halfPixel: Bool) throws -> [Float] {
            var g = GraphBuilder()
            let i = g.input([1, 1, 2, 1])
            g.node(
                ResizeBilinearOperator(alignCorners: alignCorners, halfPixelCenters: halfPixel), [i, g.ints([1, 4])],
                [[1, 1, 4, 1]])
            return try g.run([[0, 1]])[0]
        }
        func close(_ a: [Float], _ b: [Float]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 1e-6 } }
        #expect(close(try resize(false, false), [0, 0.5, 1, 1]))
        #expect(close(try resize(true, false), [0, 1.0 / 3, 2.0 / 3, 1] as [Float]))
        #expect(close(try resize(false, true), [0, 0.25, 0.75, 1]))
    }

    /// A batch of two 5×7×11 pictures enlarged to 37×24 (every rule): the rows split over 2 and 3
    /// threads give the one-thread result bit for bit, which equals TFLite's formula element by element.
    @Test func resizeBilinearSplitsRowsOverThreads() throws {
        let (n, h, w, c, oh, ow) = (2, 5, 7, 11, 37, 24)
        let x = (0..<(n * h * w * c)).map { Float(($0 * 7919) % 1013) / 101 - 5 }
        for (alignCorners, halfPixel) in [(false, false), (true, false), (false, true)] {
            func resize(threads: Int) throws -> [Float] {
                var g = GraphBuilder()
                let i = g.input([n, h, w, c])
                g.node(
                    ResizeBilinearOperator(alignCorners: alignCorners, halfPixelCenters: halfPixel),
                    [i, g.ints([oh, ow])],
                    [[n, oh, ow, c]])
                return try g.run([x], threads: threads)[0]
            }
            let one = try resize(threads: 1)
            #expect(try resize(threads: 2) == one && resize(threads: 3) == one)
            let rows = bilinearTaps(
                inputSize: h, outputSize: oh, alignCorners: alignCorners, halfPixelCenters: halfPixel)
            let columns = bilinearTaps(
                inputSize: w, outputSize: ow, alignCorners: alignCorners, halfPixelCenters: halfPixel)
            var worst: Float = 0
            for b in 0..<n {
                for (oy, ry) in rows.enumerated() {
                    for (ox, cx) in columns.enumerated() {
                        for k in 0..<c {
                            func at(_ y: Int, _ x0: Int) -> Float { x[((b * h + y) * w + x0) * c + k] }
                            let expected =
                                at(ry.lower, cx.lower) * (1 - ry.weight) * (1 - cx.weight) + at(ry.lower, cx.upper)
                                * (1 - ry.weight) * cx.weight
                                + at(ry.upper, cx.lower) * ry.weight * (1 - cx.weight) + at(ry.upper, cx.upper)
                                * ry.weight * cx.weight
                            worst = max(worst, abs(one[((b * oh + oy) * ow + ox) * c + k] - expected))
                        }
                    }
                }
            }
            #expect(worst <= 1e-5, "align_corners \(alignCorners), half_pixel \(halfPixel): \(worst)")
        }
    }

    @Test func dequantizeFoldsToConstants() throws {
        var g = GraphBuilder()
        let x = g.input([4])
        // fp16 1.0, -2.5, 65504 (max), 2^-24 (smallest subnormal)
        let half = g.constant(.float16([0x3C00, 0xC100, 0x7BFF, 0x0001]), shape: [4], type: .float16)
        let q = g.constant(
            .int8([-128, 0, 5, 127]), shape: [4], type: .int8,
            quantization: Quantization(scales: [0.5], zeroPoints: [2], axis: 0))
        let h = g.node(DequantizeOperator(), [half], [[4]], output: false)[0]
        let d = g.node(DequantizeOperator(), [q], [[4]], output: false)[0]
        g.node(BinaryOperator(.add, .none), [x, h], [[4]])
        g.node(BinaryOperator(.add, .none), [x, d], [[4]])
        let interpreter = try Interpreter(graph: g.graph, numThreads: 1)
        #expect(interpreter.plan.kernels.count == 2) // both DEQUANTIZEs folded at load
        try interpreter.setInput(0, [0, 0, 0, 0])
        interpreter.invoke()
        #expect(interpreter.output(0) == [1, -2.5, 65504, 0x1p-24])
        #expect(interpreter.output(1) == [-65, -1, 1.5, 62.5])
        // A scale that is not a finite number (a corrupt file) refuses the model, naming it.
        for scale in [Float.nan, .infinity] {
            #expect {
                try dequantize(
                    [Int8(1), 2], shape: [2], quantization: Quantization(scales: [1, scale], zeroPoints: [], axis: 0))
            } throws: {
                "\($0)"
                    == "Invalid model: quantization scale 1 is \(scale), not a finite number: its weights are corrupt"
            }
        }
    }

    /// A 3×3 SAME convolution and a 2×2 max pool on a tiny image against direct sums (tolerance 1e-5).
    @Test func convolutionAndPooling() throws {
        let x = (0..<32).map { Float(($0 * 5) % 9) - 4 } // [1, 4, 4, 2]
        let w = (0..<54).map { Float(($0 * 3) % 7) - 3 } // [3, 3, 3, 2]
        let bias: [Float] = [0.5, -1, 2]
        var g = GraphBuilder()
        let i = g.input([1, 4, 4, 2])
        let wk = g.constant(.float32(w), shape: [3, 3, 3, 2]), bk = g.constant(.float32(bias), shape: [3])
        g.node(
            Conv2DOperator(options: ConvolutionOptions(padding: .same, strideH: 1, strideW: 1, activation: .none)),
            [i, wk, bk], [[1, 4, 4, 3]])
        g.node(
            Pool2DOperator(
                .max,
                options: PoolOptions(padding: .valid, strideH: 2, strideW: 2, filterH: 2, filterW: 2, activation: .none)
            ), [i], [[1, 2, 2, 2]])
        let out = try g.run([x])
        for oy in 0..<4 {
            for ox in 0..<4 {
                for o in 0..<3 {
                    var s = bias[o]
                    for ky in 0..<3 {
                        for kx in 0..<3 {
                            for c in 0..<2 {
                                let iy = oy + ky - 1, ix = ox + kx - 1
                                if (0..<4).contains(iy) && (0..<4).contains(ix) {
                                    s += x[(iy * 4 + ix) * 2 + c] * w[((o * 3 + ky) * 3 + kx) * 2 + c]
                                }
                            }
                        }
                    }
                    #expect(abs(out[0][(oy * 4 + ox) * 3 + o] - s) <= 1e-5)
                }
            }
        }
        for oy in 0..<2 {
            for ox in 0..<2 {
                for c in 0..<2 {
                    let window: [(Int, Int)] = [(0, 0), (0, 1), (1, 0), (1, 1)]
                    let m = window.map { (dy: Int, dx: Int) -> Float in x[((2 * oy + dy) * 4 + 2 * ox + dx) * 2 + c] }
                        .max()
                    #expect(out[1][(oy * 2 + ox) * 2 + c] == m)
                }
            }
        }
    }

    /// CONV_2D → ADD(residual, RELU_N1_TO_1) → PRELU runs as one fused kernel, with the unfused result
    /// (the same chain with a second reader of each intermediate, so nothing can fuse); tolerance 1e-5.
    @Test func convolutionChainsFuse() throws {
        let x = (0..<32).map { Float(($0 * 5) % 9) - 4 } // [1, 4, 4, 2]
        let residual = (0..<48).map { Float(($0 * 7) % 5) - 3 } // [1, 4, 4, 3]
        func build(blockFusion: Bool) -> GraphBuilder {
            var g = GraphBuilder()
            let i = g.input([1, 4, 4, 2]), r = g.input([1, 4, 4, 3])
            let w = g.constant(.float32((0..<6).map { Float($0) - 2.5 }), shape: [3, 1, 1, 2])
            let b = g.constant(.float32([0.5, -1, 2]), shape: [3])
            let alpha = g.constant(.float32([0.1, 0.2, 0.3]), shape: [1, 1, 3])
            let c = g.node(
                Conv2DOperator(options: ConvolutionOptions(padding: .valid, strideH: 1, strideW: 1, activation: .none)),
                [i, w, b], [[1, 4, 4, 3]], output: !blockFusion)[0]
            let s = g.node(BinaryOperator(.add, .reluN1To1), [r, c], [[1, 4, 4, 3]], output: !blockFusion)[0]
            g.node(BinaryOperator(.prelu, .none), [s, alpha], [[1, 4, 4, 3]])
            return g
        }
        let fused = build(blockFusion: true), plain = build(blockFusion: false)
        #expect(try Interpreter(graph: fused.graph, numThreads: 1).plan.kernels.count == 1)
        #expect(try Interpreter(graph: plain.graph, numThreads: 1).plan.kernels.count == 3)
        let a = try fused.run([x, residual])[0], b = try plain.run([x, residual])[2]
        #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 1e-5 })
    }

    /// A PAD adding zero channels on the residual path (BlazeFace's skip connections) fuses into the
    /// CONV_2D → ADD kernel, which then reads the unpadded tensor; the result equals the unfused chain
    /// (the PAD output read a second time, so nothing fuses). Checked at 1 and 2 threads; exact.
    @Test func channelPadFusesIntoResidual() throws {
        let x: [Float] = (0..<120).map { (i: Int) -> Float in Float((i * 5) % 9) - 4 } // [1, 6, 5, 4]
        let skip: [Float] = (0..<540).map { (i: Int) -> Float in Float((i * 7) % 11) - 5 } // [1, 6, 5, 18] padded to 40
        let filter: [Float] = (0..<160).map { (i: Int) -> Float in Float(i % 13) / 4 - 1.5 }
        func build(blockFusion: Bool) -> GraphBuilder {
            var g = GraphBuilder()
            let i = g.input([1, 6, 5, 4]), r = g.input([1, 6, 5, 18])
            let w = g.constant(.float32(filter), shape: [40, 1, 1, 4])
            let b = g.constant(.float32((0..<40).map { (i: Int) -> Float in Float(i) / 10 }), shape: [40])
            let paddings = g.ints([0, 0, 0, 0, 0, 0, 0, 22], shape: [4, 2])
            let p = g.node(PadOperator(), [r, paddings], [[1, 6, 5, 40]], output: !blockFusion)[0]
            let c = g.node(
                Conv2DOperator(options: ConvolutionOptions(padding: .valid, strideH: 1, strideW: 1, activation: .none)),
                [i, w, b], [[1, 6, 5, 40]], output: !blockFusion)[0]
            g.node(BinaryOperator(.add, .relu), [c, p], [[1, 6, 5, 40]])
            return g
        }
        let fused = build(blockFusion: true), plain = build(blockFusion: false)
        #expect(try Interpreter(graph: fused.graph, numThreads: 1).plan.kernels.count == 1)
        #expect(try Interpreter(graph: plain.graph, numThreads: 1).plan.kernels.count == 3)
        for threads in [1, 2] {
            let a = try fused.run([x, skip], threads: threads)[0], b = try plain.run([x, skip], threads: threads)[2]
            #expect(a.count == 6 * 5 * 40 && a == b)
        }
        // A PAD anywhere but at the end of the channels is not a residual with fewer channels: it stays.
        var g = GraphBuilder()
        let i = g.input([1, 6, 5, 4]), r = g.input([1, 6, 5, 18])
        let w = g.constant(.float32(filter), shape: [40, 1, 1, 4])
        let paddings = g.ints([0, 0, 0, 0, 0, 0, 1, 21], shape: [4, 2])
        let p = g.node(PadOperator(), [r, paddings], [[1, 6, 5, 40]], output: false)[0]
        let c = g.node(
            Conv2DOperator(options: ConvolutionOptions(padding: .valid, strideH: 1, strideW: 1, activation: .none)),
            [i, w], [[1, 6, 5, 40]], output: false)[0]
        g.node(BinaryOperator(.add, .none), [c, p], [[1, 6, 5, 40]])
        #expect(try Interpreter(graph: g.graph, numThreads: 1).plan.kernels.count == 2)
    }

    @Test func shapeMismatchIsAnError() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3])
        g.node(BinaryOperator(.add, .none), [x, g.input([4])], [[2, 3]])
        #expect(throws: VisionTasksError.self) { _ = try g.run([[1, 2, 3, 4, 5, 6], [1, 2, 3, 4]]) }
    }
}

/// Models using what the engine lacks are refused at load with a message naming it.
@Suite struct UnsupportedModelTests {
    static func load(_ name: String) throws -> Data {
        try Data(contentsOf: Fixtures.engine("synthetic/\(name).tflite"))
    }

    @Test func unsupportedOperator() throws {
        #expect(throws: VisionTasksError.unsupportedModel("operator TANH (index 0) in subgraph 0 is not supported")) {
            try Interpreter(modelData: try Self.load("tanh"))
        }
    }

    /// The first operator the engine lacks is refused, the others it lacks named with it (only the first was named:
    /// MediaPipe's face_landmark_with_attention.tflite lacks three custom operators).
    @Test func everyMissingOperatorIsNamed() throws {
        #expect(
            throws: VisionTasksError.unsupportedModel(
                "operator TANH (index 0) in subgraph 0 is not supported; the engine lacks 1 more: "
                    + "CUSTOM 'TransformLandmarks' (index 1)")
        ) {
            try Interpreter(modelData: try Self.load("tanh_then_custom"))
        }
    }

    @Test func unsupportedTensorType() throws {
        do {
            _ = try Interpreter(modelData: try Self.load("logistic_float64_output"))
            Issue.record("a float64 tensor was accepted")
        } catch let VisionTasksError.unsupportedModel(message) {
            #expect(message.contains("float64"), "\(message)")
        }
    }

    /// The same tiny model with a supported operator runs (tolerance 2e-7, LOGISTIC).
    @Test func supportedTinyModelRuns() throws {
        let interpreter = try Interpreter(modelData: try Self.load("logistic"))
        try interpreter.setInput(0, [0, 1, -2, 50])
        interpreter.invoke()
        let expected: [Float] = [0.5, 0.7310586, 0.11920292, 1]
        #expect(zip(interpreter.output(0), expected).allSatisfy { abs($0 - $1) <= 2e-7 })
    }

    /// The operator table claims each TFLite builtin code once, and holds exactly the operators
    /// Sources/Inference/README.md lists as supported.
    @Test func operatorTableClaimsEachCodeOnce() {
        let claims = OperatorTable.operations.flatMap { $0.loaders.keys }
        #expect(claims.count == Set(claims).count, "a builtin code is claimed by two operations")
        let documented: Set<String> = [
            "ADD", "SUB", "MUL", "DIV", "NEG", "SQRT", "RSQRT", "SQUARED_DIFFERENCE", "MAXIMUM", "CONV_2D",
            "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "PRELU", "RELU", "LOGISTIC", "SOFTMAX", "MAX_POOL_2D", "PAD",
            "RESHAPE", "CONCATENATION", "RESIZE_BILINEAR", "TRANSPOSE", "STRIDED_SLICE", "GATHER", "UNPACK", "MEAN",
            "SUM", "REDUCE_MAX", "REDUCE_MIN", "DEPTH_TO_SPACE", "DEQUANTIZE", "DENSIFY", "HARD_SWISH",
            "AVERAGE_POOL_2D", "CUSTOM",
        ]
        #expect(Set(OperatorTable.loaders.keys.map(\.name)) == documented)
        #expect(Set(OperatorTable.customLoaders.keys) == ["Convolution2DTransposeBias"])
    }
}

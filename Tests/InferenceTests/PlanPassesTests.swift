import FixtureSupport
import Foundation
import TFLite
import Testing
import VisionErrors

@testable import Inference

/// The planner's passes one at a time on small hand-built graphs (GraphBuilder, OperatorTests.swift):
/// validate, fold, fuse, plan memory, bind. Exact (values are sums of small integers).
@Suite struct PlanPassesTests {
    @Test func validateRefusesAConstantGraphInput() {
        var g = GraphBuilder()
        let k = g.constant(.float32([1, 2]), shape: [2])
        g.graph.inputs.append(k)
        g.node(UnaryOperator(.relu), [k], [[2]])
        #expect(throws: VisionTasksError.invalidModel("graph input k0 is a constant tensor")) {
            try PlanPasses.validate(g.graph)
        }
    }

    @Test func foldComputesConstantNodesAndKeepsTheRest() throws {
        var g = GraphBuilder()
        let x = g.input([2])
        let a = g.constant(.float32([1, 2]), shape: [2]), b = g.constant(.float32([10, 20]), shape: [2])
        let sum = g.node(BinaryOperator(.add, .none), [a, b], [[2]], output: false)[0]
        g.node(BinaryOperator(.mul, .none), [x, sum], [[2]])
        var graph = g.graph
        try PlanPasses.fold(&graph)
        #expect(graph.nodes.map(\.index) == [1])
        #expect(graph.tensors[sum].constant == .float32([11, 22]))
    }

    @Test func foldRefusesAnOutputDeclaredWithAnotherShape() {
        var g = GraphBuilder()
        let x = g.input([2])
        g.node(UnaryOperator(.relu), [x], [[3]])
        var graph = g.graph
        #expect {
            try PlanPasses.fold(&graph)
        } throws: { error in
            guard case VisionTasksError.invalidModel(let message) = error else { return false }
            return message.hasSuffix("(index 0) in subgraph 0: output t1 is declared [3] but computes to [2]")
        }
    }

    @Test func fuseMergesAReluIntoItsProducer() throws {
        var g = GraphBuilder()
        let x = g.input([4]), y = g.input([4])
        let s = g.node(BinaryOperator(.add, .none), [x, y], [[4]], output: false)[0]
        g.node(UnaryOperator(.relu), [s], [[4]])
        var graph = g.graph
        try PlanPasses.fold(&graph)
        let nodes = try PlanPasses.fuse(&graph)
        #expect(nodes.map { $0.node.operation as? BinaryOperator } == [BinaryOperator(.add, .relu)])
    }

    /// A tensor that reuses an earlier one's space is centred on it, so the halves split kernels deal to the
    /// two threads fall where each thread wrote before; buffers alive at the same step never share a float.
    @Test func memoryPlanCentresReusedSpaceAndKeepsLiveBuffersApart() {
        // A (64 floats) dies before B (32) and C (16) are written: B is centred on A (placed from the start, its
        // second half would be A's first); C lives beside B and fits only before it, where no centre is.
        let plan = MemoryPlan([
            BufferRequest(count: 64, firstStep: 0, lastStep: 1), BufferRequest(count: 32, firstStep: 2, lastStep: 3),
            BufferRequest(count: 16, firstStep: 2, lastStep: 3),
        ])
        #expect(plan.offsets == [0, 16, 0] && plan.arenaCount == 64, "\(plan)")
        var rng = TestRandom(seed: 7)
        for _ in 0..<200 {
            let requests = (0..<rng.int(1...24)).map { _ in
                let first = rng.int(-1...20)
                return BufferRequest(count: rng.int(1...5000), firstStep: first, lastStep: first + rng.int(0...6))
            }
            let plan = MemoryPlan(requests)
            for (i, a) in requests.enumerated() {
                let start = plan.offsets[i]
                #expect(start % MemoryPlan.alignment == 0 && start + a.count <= plan.arenaCount)
                for (j, b) in requests.enumerated()
                where j > i && a.firstStep <= b.lastStep && b.firstStep <= a.lastStep {
                    let other = plan.offsets[j]
                    #expect(start + a.count <= other || other + b.count <= start, "\(a) and \(b) share space")
                }
            }
        }
    }

    /// Separate buffers (the plan where lines cross between cores dearly): each request its own aligned space in
    /// request order, whatever the lifetimes; beyond `separateLimit` in all, space is reused as usual.
    @Test func memoryPlanOfSeparateBuffers() {
        let requests = [
            BufferRequest(count: 64, firstStep: 0, lastStep: 1), BufferRequest(count: 20, firstStep: 2, lastStep: 3),
            BufferRequest(count: 16, firstStep: 4, lastStep: 5),
        ]
        #expect(MemoryPlan(requests).arenaCount == 64)
        let separate = MemoryPlan(requests, separate: true)
        #expect(separate.offsets == [0, 64, 96] && separate.arenaCount == 112 && separate.separate, "\(separate)")
        let huge = (0..<3).map { BufferRequest(count: MemoryPlan.separateLimit / 2, firstStep: $0, lastStep: $0) }
        #expect(MemoryPlan(huge, separate: true) == MemoryPlan(huge) && !MemoryPlan(huge, separate: true).separate)
        #expect(MemoryPlan(huge).arenaCount == MemoryPlan.separateLimit / 2)
    }

    @Test func planMemoryAndBindShareAReshapesBuffer() throws {
        var g = GraphBuilder()
        let x = g.input([1, 4])
        let a = g.node(UnaryOperator(.neg), [x], [[1, 4]], output: false)[0]
        let b = g.node(ReshapeOperator(newShape: [4]), [a], [[4]], output: false)[0]
        let c = g.node(UnaryOperator(.neg), [b], [[4]])[0]
        var graph = g.graph
        try PlanPasses.fold(&graph)
        let nodes = try PlanPasses.fuse(&graph)
        let layout = PlanPasses.planMemory(graph, nodes)
        #expect(layout.offset(of: b) == layout.offset(of: a))
        #expect(Set([x, a, c].map { layout.offset(of: $0) }).count == 3)
        let arena = AlignedFloats(count: layout.memory.arenaCount)
        let kernels = try PlanPasses.bind(
            graph, nodes, layout: layout, arena: arena.pointer, constants: BufferStore(),
            threads: .single)
        #expect(kernels.count == 2)
        (arena.pointer + layout.offset(of: x)).update(from: [1, -2, 3, -4], count: 4)
        for bound in kernels { bound.kernel.run() }
        #expect(kernels.map(\.label.index) == [0, 2] && kernels.map(\.label.outputShape) == [[1, 4], [4]])
        #expect(Array(UnsafeBufferPointer(start: arena.pointer + layout.offset(of: c), count: 4)) == [1, -2, 3, -4])
    }

    /// An elementwise operator's output takes over its input's buffer when nothing reads that input afterwards,
    /// along a chain (NEG, RELU, MUL, NEG all in one buffer); never a graph input's or a graph output's, nor a
    /// buffer a later node still reads; the values are those of separate buffers.
    @Test func planMemoryLetsAnElementwiseOutputTakeOverItsInputsBuffer() throws {
        var g = GraphBuilder()
        let x = g.input([1, 20])
        let a = g.node(UnaryOperator(.neg), [x], [[1, 20]], output: false)[0]
        let b = g.node(UnaryOperator(.relu), [a], [[1, 20]], output: false)[0]
        let c = g.node(BinaryOperator(.mul, .none), [b, x], [[1, 20]], output: false)[0]
        let f = g.node(UnaryOperator(.neg), [c], [[1, 20]], output: false)[0]
        let h = g.node(UnaryOperator(.neg), [f], [[1, 20]], output: false)[0]
        let out = g.node(BinaryOperator(.mul, .none), [h, f], [[1, 20]])[0]
        var graph = g.graph
        try PlanPasses.fold(&graph)
        let layout = PlanPasses.planMemory(graph, try PlanPasses.fuse(&graph))
        #expect([b, c, f].allSatisfy { layout.offset(of: $0) == layout.offset(of: a) })
        #expect(Set([x, a, h, out].map { layout.offset(of: $0) }).count == 4)
        let input = (0..<20).map { Float($0) - 9.5 }
        let product = input.map { max(-$0, 0) * $0 }
        #expect(try g.run([input])[0] == product.map { $0 * -$0 })
    }

    /// Prune: asked for one output of two branches, the interpreter runs only that branch's nodes;
    /// the output it gives equals the unpruned one and the other stays zero. An index out of range is
    /// an error naming it; the profile lists one entry per kernel run.
    @Test func pruneRunsOnlyTheBranchesOfTheOutputsRead() throws {
        var g = GraphBuilder()
        let x = g.input([4])
        let shared = g.node(UnaryOperator(.neg), [x], [[4]], output: false)[0]
        g.node(UnaryOperator(.relu), [shared], [[4]])
        let hidden = g.node(UnaryOperator(.neg), [shared], [[4]], output: false)[0]
        g.node(UnaryOperator(.relu), [hidden], [[4]])
        var graph = g.graph
        try PlanPasses.fold(&graph)
        PlanPasses.prune(&graph, keeping: [0])
        #expect(graph.nodes.map(\.index) == [0, 1])
        let input: [Float] = [1, -2, 3, -4]
        let all = try Interpreter(graph: g.graph, numThreads: 1),
            first = try Interpreter(graph: g.graph, numThreads: 1, readOutputs: [0])
        for interpreter in [all, first] {
            try interpreter.setInput(0, input)
            interpreter.invoke()
        }
        #expect(first.output(0) == all.output(0) && all.output(0) == [0, 2, 0, 4])
        #expect(all.output(1) == [1, 0, 3, 0] && first.output(1) == [0, 0, 0, 0])
        #expect(all.profile(runs: 2).map(\.index) == [0, 1, 2, 3])
        #expect(first.profile(runs: 2).map(\.index) == [0, 1])
        #expect(
            throws: VisionTasksError.invalidOption(name: "readOutputs", reason: "the model has 2 outputs, got index 2")
        ) {
            _ = try Interpreter(graph: g.graph, numThreads: 1, readOutputs: [2])
        }
    }

    /// A zero PAD of rows and columns read by a VALID depthwise or plain convolution is folded into it
    /// (one node, explicit paddings): the same numbers as the convolution with SAME padding, which pads
    /// the same rows and columns. A PAD of the channels stays a PAD.
    @Test func fuseFoldsASpatialPadIntoTheConvolutionReadingIt() throws {
        let pixels: [Float] = (0..<50).map { Float(($0 * 7) % 11) - 5 },
            filter: [Float] = (0..<18).map { Float($0 % 5) - 2 }
        func model(padded: Bool, depthwise: Bool) throws -> (nodes: Int, output: [Float]) {
            var g = GraphBuilder()
            var x = g.input([1, 5, 5, 2])
            if padded {
                x =
                    g.node(
                        PadOperator(), [x, g.ints([0, 0, 1, 1, 1, 1, 0, 0], shape: [4, 2])], [[1, 7, 7, 2]],
                        output: false)[0]
            }
            let options = ConvolutionOptions(
                padding: padded ? .valid : .same, strideH: 1, strideW: 1, activation: .none)
            let op: any GraphOperation =
                depthwise ? DepthwiseConv2DOperator(options: options) : Conv2DOperator(options: options)
            let w = g.constant(
                .float32(depthwise ? filter : Array(filter.prefix(18))),
                shape: depthwise ? [1, 3, 3, 2] : [1, 3, 3, 2])
            g.node(op, [x, w, -1], [[1, 5, 5, depthwise ? 2 : 1]])
            var graph = g.graph
            try PlanPasses.fold(&graph)
            return (try PlanPasses.fuse(&graph).count, try g.run([pixels])[0])
        }
        for depthwise in [true, false] {
            let fused = try model(padded: true, depthwise: depthwise),
                same = try model(padded: false, depthwise: depthwise)
            #expect(fused.nodes == 1 && fused.output == same.output, "depthwise \(depthwise)")
        }
        var g = GraphBuilder()
        let x = g.input([1, 2, 2, 2])
        let padded = g.node(
            PadOperator(), [x, g.ints([0, 0, 0, 0, 0, 0, 0, 2], shape: [4, 2])], [[1, 2, 2, 4]], output: false)[0]
        g.node(
            DepthwiseConv2DOperator(
                options: ConvolutionOptions(padding: .valid, strideH: 1, strideW: 1, activation: .none)),
            [padded, g.constant(.float32([Float](repeating: 1, count: 4)), shape: [1, 1, 1, 4]), -1], [[1, 2, 2, 4]])
        var graph = g.graph
        try PlanPasses.fold(&graph)
        #expect(try PlanPasses.fuse(&graph).count == 2)
    }

    /// An enlarging RESIZE_BILINEAR read only by a 1×1 CONV_2D runs after it (ConvolutionBeforeResize.swift), the
    /// convolution's RELU6 moved onto the resize: the same numbers as resize, then convolution, then clamp, computed
    /// here by hand (exact: integers by quarter weights). Not when the resized tensor has another reader, shrinks, or
    /// feeds a wider kernel.
    @Test func fuseConvolvesBeforeAnEnlargingResize() throws {
        let (h, w, c, o) = (3, 4, 5, 3), (outH, outW) = (6, 8)
        let pixels: [Float] = (0..<(h * w * c)).map { Float(($0 * 7) % 11) - 5 }
        let filter: [Float] = (0..<(o * c)).map { Float(($0 * 3) % 5) - 2 }, bias: [Float] = [1, -2, 3]
        func graph(otherReader: Bool = false, shrink: Bool = false, kernel: Int = 1) -> GraphBuilder {
            var g = GraphBuilder()
            let x = g.input([1, h, w, c])
            let size = shrink ? (2, 2) : (outH, outW)
            let resized = g.node(
                ResizeBilinearOperator(alignCorners: false, halfPixelCenters: true),
                [x, g.ints([size.0, size.1])], [[1, size.0, size.1, c]], output: otherReader)[0]
            let taps = Array(repeating: filter, count: kernel * kernel).flatMap { $0 }
            g.node(
                Conv2DOperator(
                    options: ConvolutionOptions(padding: .same, strideH: 1, strideW: 1, activation: .relu6)),
                [
                    resized, g.constant(.float32(taps), shape: [o, kernel, kernel, c]),
                    g.constant(.float32(bias), shape: [o]),
                ],
                [[1, size.0, size.1, o]])
            return g
        }
        var swapped = graph().graph
        try PlanPasses.fold(&swapped)
        let nodes = try PlanPasses.fuse(&swapped)
        let resize = nodes.last?.node.operation as? ResizeBilinearOperator
        #expect(nodes.count == 2 && nodes[0].node.operation is Conv2DOperator && resize?.activation == .relu6)
        #expect(nodes.first?.prepared.outputShapes == [[1, h, w, o]])
        // By hand: resize (TFLite's taps), then the convolution, then RELU6.
        let rows = bilinearTaps(inputSize: h, outputSize: outH, alignCorners: false, halfPixelCenters: true)
        let columns = bilinearTaps(inputSize: w, outputSize: outW, alignCorners: false, halfPixelCenters: true)
        var expected: [Float] = []
        for ry in rows {
            for rx in columns {
                func at(_ y: Int, _ x: Int, _ k: Int) -> Float { pixels[(y * w + x) * c + k] }
                let resized = (0..<c).map { k in
                    at(ry.lower, rx.lower, k) * (1 - ry.weight) * (1 - rx.weight)
                        + at(ry.upper, rx.lower, k) * ry.weight * (1 - rx.weight)
                        + at(ry.lower, rx.upper, k) * (1 - ry.weight) * rx.weight
                        + at(ry.upper, rx.upper, k) * ry.weight * rx.weight
                }
                for j in 0..<o {
                    let sum = (0..<c).reduce(bias[j]) { $0 + resized[$1] * filter[j * c + $1] }
                    expected.append(Swift.min(6, Swift.max(0, sum)))
                }
            }
        }
        let output = try graph().run([pixels])[0]
        #expect(output == expected)
        #expect(expected.contains(0) && expected.contains(6) && expected.contains { $0 > 0 && $0 < 6 })
        for (name, other) in [
            ("another reader", graph(otherReader: true)), ("a shrinking resize", graph(shrink: true)),
            ("a 3x3 kernel", graph(kernel: 3)),
        ] {
            var kept = other.graph
            try PlanPasses.fold(&kept)
            let keptNodes = try PlanPasses.fuse(&kept)
            #expect(keptNodes.first?.node.operation is ResizeBilinearOperator, "\(name) must keep the order")
        }
    }

    @Test func fuseStacksFullyConnectedNodesSharingWeights() throws {
        // a = FC(x1) and c = FC(x2) share W and are independent: stacked, at c's place. b = FC(a) shares W
        // but reads a, and e = FC(x2) with a RELU differs in options: both stay alone. d reads a and sat
        // between a and c, so it must now run after the stacked node.
        var g = GraphBuilder()
        let x1 = g.input([1, 2]), x2 = g.input([2, 2])
        let w = g.constant(.float32([1, 2, 3, 4]), shape: [2, 2]), bias = g.constant(.float32([10, 20]), shape: [2])
        let a = g.node(FullyConnectedOperator(activation: .none, keepNumDims: false), [x1, w, bias], [[1, 2]])[0]
        let b = g.node(FullyConnectedOperator(activation: .none, keepNumDims: false), [a, w, bias], [[1, 2]])[0]
        let d = g.node(UnaryOperator(.neg), [a], [[1, 2]])[0]
        let c = g.node(FullyConnectedOperator(activation: .none, keepNumDims: false), [x2, w, bias], [[2, 2]])[0]
        let e = g.node(FullyConnectedOperator(activation: .relu, keepNumDims: false), [x2, w], [[2, 2]])[0]
        #expect([a, b, d, c, e] == g.graph.outputs)
        var graph = g.graph
        try PlanPasses.fold(&graph)
        let nodes = try PlanPasses.fuse(&graph)
        #expect(nodes.map(\.node.index) == [3, 1, 2, 4])
        let stacked = nodes[0].node
        #expect(
            stacked.operation as? StackedFullyConnectedOperator
                == StackedFullyConnectedOperator(layer: FullyConnectedOperator(activation: .none, keepNumDims: false)))
        #expect(stacked.inputs == [x1, w, bias, x2] && stacked.outputs == [a, c])
        // y = x·Wᵀ + bias, W rows (1, 2) and (3, 4).
        let out = try g.run([[1, -1], [2, 0, -1, -3]])
        #expect(out[0] == [9, 19])
        #expect(out[1] == [57, 123])
        #expect(out[2] == [-9, -19])
        #expect(out[3] == [12, 26, 3, 5])
        #expect(out[4] == [2, 6, 0, 0])
    }

    @Test func fuseLeavesStacksThatWouldMakeACycle() throws {
        // a1 = FC_W(x1), a2 = FC_V(a1), b2 = FC_V(x2), b1 = FC_W(b2): {a1, b1} and {a2, b2} are each
        // independent, but stacked together each stack would wait for the other. Nothing is stacked.
        var g = GraphBuilder()
        let x1 = g.input([1, 2]), x2 = g.input([1, 2])
        let w = g.constant(.float32([1, 2, 3, 4]), shape: [2, 2]),
            v = g.constant(.float32([0, 1, 1, 0]), shape: [2, 2])
        let fc = FullyConnectedOperator(activation: .none, keepNumDims: false)
        let a1 = g.node(fc, [x1, w], [[1, 2]], output: false)[0]
        g.node(fc, [a1, v], [[1, 2]])
        let b2 = g.node(fc, [x2, v], [[1, 2]], output: false)[0]
        g.node(fc, [b2, w], [[1, 2]])
        var graph = g.graph
        try PlanPasses.fold(&graph)
        let nodes = try PlanPasses.fuse(&graph)
        #expect(nodes.map(\.node.index) == [0, 1, 2, 3])
        #expect(nodes.allSatisfy { $0.node.operation is FullyConnectedOperator })
        // a1 = (1·1 + 2·1, 3 + 4) = (3, 7) → a2 = (7, 3); b2 = (1, 1)·V = (1, 1) → b1 = (3, 7).
        #expect(try g.run([[1, 1], [1, 1]]) == [[7, 3], [3, 7]])
    }

    @Test func stackingSearchStopsWithinItsBudget() throws {
        // 1,000 FULLY_CONNECTED nodes in a chain on one weight tensor (an unrolled recurrence): each
        // depends on all before it, so none stack, and proving it would take half a million node
        // visits, past the budget. The search stops there; the chain computes as it is.
        var g = GraphBuilder()
        let x = g.input([1, 2])
        let w = g.constant(.float32([0, 1, 1, 0]), shape: [2, 2])
        var y = x
        for _ in 0..<1000 {
            y =
                g.node(
                    FullyConnectedOperator(activation: .none, keepNumDims: false), [y, w], [[1, 2]], output: false)[0]
        }
        g.graph.outputs = [y]
        #expect(1000 * 999 / 2 > Graph.searchBudget)
        var graph = g.graph
        try PlanPasses.fold(&graph)
        let started = CPUTime.threadSeconds()
        let nodes = try PlanPasses.fuse(&graph)
        #expect(CPUTime.threadSeconds() - started < 5)
        #expect(nodes.count == 1000 && nodes.allSatisfy { $0.node.operation is FullyConnectedOperator })
        #expect(try g.run([[1, 2]]) == [[1, 2]])
    }

    @Test func stackedFullyConnectedRefusesMismatchedRows() {
        // Members whose inputs do not divide into rows of the weights' depth: the error names the input.
        var g = GraphBuilder()
        let x1 = g.input([1, 2]), x2 = g.input([1, 3])
        let w = g.constant(.float32([1, 2, 3, 4]), shape: [2, 2])
        g.node(
            StackedFullyConnectedOperator(layer: FullyConnectedOperator(activation: .none, keepNumDims: false)),
            [x1, w, -1, x2], [[1, 2], [1, 2]])
        var graph = g.graph
        #expect {
            try PlanPasses.fold(&graph)
        } throws: { error in
            guard case VisionTasksError.invalidModel(let message) = error else { return false }
            return message.contains("input [1, 3] does not divide into rows of 2")
        }
    }

    /// The ten operators a converter writes for a layer norm over the last axis (as in face_blendshapes), on
    /// `rows`×`channels` values; `keep` also makes `a = rsqrt(v + ε)·γ` a graph output, which must stop the fusion.
    private func layerNormGraph(rows: Int, channels: Int, keep: Bool) -> GraphBuilder {
        var rng = TestRandom(seed: 23)
        var g = GraphBuilder()
        let shape = [1, 1, rows, channels], column = [1, 1, rows, 1]
        let x = g.input(shape)
        let axis = g.ints([3])
        let gamma = g.constant(.float32(rng.floats(channels, 0.5, 1.5)), shape: [channels])
        let epsilon = g.constant(.float32([1e-6]), shape: [])
        let mean = ReduceOperator(kind: .mean, keepDims: true)
        let m = g.node(mean, [x, axis], [column], output: false)[0]
        let negated = g.node(UnaryOperator(.neg), [m], [column], output: false)[0]
        let squares = g.node(BinaryOperator(.squaredDifference, .none), [x, m], [shape], output: false)[0]
        let v = g.node(mean, [squares, axis], [column], output: false)[0]
        let shifted = g.node(BinaryOperator(.add, .none), [v, epsilon], [column], output: false)[0]
        let r = g.node(UnaryOperator(.rsqrt), [shifted], [column], output: false)[0]
        let a = g.node(BinaryOperator(.mul, .none), [r, gamma], [shape], output: keep)[0]
        let scaled = g.node(BinaryOperator(.mul, .none), [x, a], [shape], output: false)[0]
        let moved = g.node(BinaryOperator(.mul, .none), [negated, a], [shape], output: false)[0]
        let y = g.node(BinaryOperator(.add, .none), [scaled, moved], [shape], output: false)[0]
        g.graph.outputs.append(y)
        return g
    }

    /// Fused into one node, the layer norm gives the ten operators' values bit for bit, at one, two and three
    /// threads, with rows and channels that are not multiples of the vector width.
    @Test func fuseReplacesALayerNormsTenOperatorsAndKeepsTheirValues() throws {
        for (rows, channels) in [(97, 64), (13, 70), (3, 5)] {
            var fused = layerNormGraph(rows: rows, channels: channels, keep: false).graph
            try PlanPasses.fold(&fused)
            let fusedNodes = try PlanPasses.fuse(&fused)
            #expect(fusedNodes.count == 1 && fusedNodes[0].node.operation is LayerNormOperator)
            var kept = layerNormGraph(rows: rows, channels: channels, keep: true).graph
            try PlanPasses.fold(&kept)
            #expect(try PlanPasses.fuse(&kept).count == 10, "an intermediate read outside must stop the fusion")
            var rng = TestRandom(seed: UInt64(rows * channels))
            let x = rng.floats(rows * channels, -3, 5)
            let reference = try layerNormGraph(rows: rows, channels: channels, keep: true).run([x])[1]
            for threads in 1...3 {
                let out = try layerNormGraph(rows: rows, channels: channels, keep: false).run([x], threads: threads)
                let same = out == [reference]
                #expect(same, "\(rows)×\(channels) at \(threads) threads: not the ten operators' values")
            }
        }
    }

    /// A model of more than `GraphLoader.maxTensors` tensors is refused by name before it is planned (the plan's
    /// time grows with the square of the tensors alive together); one just within the cap loads and runs.
    /// The models: classifier heads of `layers` scale-and-shift layers of width 1 (four tensors and two
    /// operators each, besides the input), written by ClassifierModelWriter.
    /// Shapes a hostile model makes past what the engine computes (`GraphLoader.maxComputedFloats`) are refused
    /// naming the limit, before anything multiplies them or allocates for them: a RESHAPE target of three
    /// 2^31-1 sizes and a PAD of 2^31-1 on every side (their sizes' products overflowed: a trap), a broadcast of
    /// [2^20, 1] and [1, 2^20] (2^40 values) and a declared input of 2^38 floats (both allocated terabytes).
    @Test func shapesPastTheEngineLimitAreRefused() throws {
        let huge = 2_147_483_647, wide = 1 << 20
        var reshape = GraphBuilder()
        let r = reshape.input([1])
        reshape.node(ReshapeOperator(newShape: nil), [r, reshape.ints([huge, huge, huge])], [[huge, huge, huge]])
        var pad = GraphBuilder()
        let p = pad.input([1, 1])
        pad.node(PadOperator(), [p, pad.ints([huge, huge, huge, huge], shape: [2, 2])], [[huge, huge]])
        var broadcast = GraphBuilder()
        let a = broadcast.input([wide, 1]), b = broadcast.input([1, wide])
        broadcast.node(BinaryOperator(.add, .none), [a, b], [[wide, wide]])
        var input = GraphBuilder()
        let x = input.input([65536, 65536, 64])
        input.node(UnaryOperator(.relu), [x], [[65536, 65536, 64]])
        for (what, g) in [("reshape target", reshape), ("padding", pad), ("broadcast", broadcast), ("run-time", input)]
        {
            #expect {
                _ = try Interpreter(graph: g.graph, numThreads: 1)
            } throws: { error in
                guard case VisionTasksError.unsupportedModel(let message) = error else { return false }
                return message.contains(what) && message.contains("268435456")
            }
        }
    }

    @Test func aModelOfTooManyTensorsIsRefused() throws {
        func model(layers: Int) throws -> Data {
            try ClassifierModelWriter.write(
                inputCount: 1, layers: Array(repeating: .scaleShift(scale: [1], shift: [0.5]), count: layers),
                labels: ["a"], scoreThreshold: nil, description: .customGestureClassifier)
        }
        let fits = (GraphLoader.maxTensors - 1) / 4
        let interpreter = try Interpreter(modelData: try model(layers: fits))
        try interpreter.setInput(0, [1])
        interpreter.invoke()
        #expect(interpreter.output(0) == [1 + 0.5 * Float(fits)])
        let tooMany = 1 + 4 * (fits + 1)
        #expect(tooMany > GraphLoader.maxTensors)
        #expect(
            throws: VisionTasksError.unsupportedModel(
                "subgraph 0 has \(tooMany) tensors; the engine runs at most \(GraphLoader.maxTensors)")
        ) {
            try Interpreter(modelData: try model(layers: fits + 1))
        }
    }
}

import Foundation
import TFLite
import Testing

@testable import Inference

/// Two and three threads give one thread's results bit for bit: every model the tasks run, on
/// seeded random inputs, and kernels sized just below and just above where their split begins.
@Suite struct ThreadsBitExactTests {
    /// Every model under models/ (bundle entries by path, as `Fixtures.model` takes them).
    static let models: [[String]] = [
        ["face_landmarker.task", "face_detector.tflite"],
        ["face_landmarker.task", "face_landmarks_detector.tflite"],
        ["face_landmarker.task", "face_blendshapes.tflite"],
        ["hand_landmarker.task", "hand_detector.tflite"],
        ["hand_landmarker.task", "hand_landmarks_detector.tflite"],
        ["operations.task", "hand_gesture_recognizer.task", "gesture_embedder.tflite"],
        ["pose_landmarker_full.task", "pose_detector.tflite"],
        ["pose_landmarker_full.task", "pose_landmarks_detector.tflite"],
        ["face_detection_full_range_sparse.tflite"],
        ["blaze_face_short_range.tflite"],
        ["selfie_segmenter.tflite"],
        ["selfie_segmentation_landscape.tflite"],
    ]

    /// Each output's bits after one `invoke()` at `threads` threads on inputs seeded with 46, with
    /// the kernels' minimum work per part scaled by `grain` and buffers separate or reused as `separateBuffers`
    /// says (nil: as measured on this host).
    func outputBits(_ data: Data, threads: Int, grain: Double? = nil, separateBuffers: Bool? = nil) throws
        -> [[UInt32]]
    {
        let graph = try GraphLoader.load(try TFLiteModel(data: data))
        let interpreter = try Interpreter(
            graph: graph, numThreads: threads, grain: grain, separateBuffers: separateBuffers)
        var rng = TestRandom(seed: 46)
        for (i, input) in interpreter.inputs.enumerated() {
            try interpreter.setInput(i, rng.floats(input.elementCount))
        }
        interpreter.invoke()
        return interpreter.outputs.indices.map { interpreter.output($0).map(\.bitPattern) }
    }

    @Test(arguments: models) func modelMatchesOneThread(path: [String]) throws {
        let data = try Fixtures.model(path)
        let one = try outputBits(data, threads: 1)
        #expect(!one.isEmpty && one.allSatisfy { !$0.isEmpty })
        // The smallest grain splits the most kernels, the largest the fewest; nil is this host's. Buffers
        // reused and separate (as on a host whose cores pass lines dearly), whichever this host chose.
        for (threads, grain, separate) in [
            (2, nil, nil), (2, HandoffCost.grainRange.lowerBound, false), (3, HandoffCost.grainRange.lowerBound, true),
            (2, HandoffCost.grainRange.upperBound, false), (2, HandoffCost.grainRange.lowerBound, true),
        ] {
            #expect(
                try outputBits(data, threads: threads, grain: grain, separateBuffers: separate) == one,
                "\(path) at \(threads) threads, grain \(grain.map { "\($0)" } ?? "measured"), separate \(separate.map { "\($0)" } ?? "measured")"
            )
        }
    }

    @Test func splitBeginsAtTheScaledMinimum() {
        for grain in [0.5, 1, 2.5, 16] {
            for threads in [2, 3] {
                let t = KernelThreads(threads, grain: grain)
                let m = t.minimum(1000)
                #expect(m == Int((1000 * grain).rounded(.up)))
                #expect(t.parts(2 * m - 1, minimumPerPart: 1000) == 1, "grain \(grain)")
                #expect(t.parts(2 * m, minimumPerPart: 1000) == 2, "grain \(grain)")
                #expect(
                    t.parts(3 * m, minimumPerPart: 1000) == min(3, threads * KernelThreads.partsPerThread),
                    "grain \(grain)")
            }
            // Work without a minimum splits at any grain; one thread never splits.
            #expect(KernelThreads(2, grain: grain).parts(2) == 2)
            #expect(KernelThreads(1, grain: grain).parts(100_000, minimumPerPart: 0) == 1)
            #expect(KernelThreads(2, grain: grain).minimum(1) == Int(grain.rounded(.up)))
        }
    }

    /// A 1×1 CONV_2D on a map with fewer pixels than channels is cut by output channels only: every
    /// ISA, channel counts on and off the 32-column steps (200 ends in an 8-wide panel, 1,008 in a
    /// lone 16-wide one, 72 in both), at two and three threads.
    @Test func channelTilesMatchOneThread() throws {
        var rng = TestRandom(seed: 48)
        for (side, inputs, outputs) in [(7, 192, 1152), (7, 1152, 200), (8, 144, 1008), (6, 120, 72)] {
            let g = Conv2DGeometry(
                inputHeight: side, inputWidth: side, inputChannels: inputs, outputChannels: outputs,
                kernelHeight: 1, kernelWidth: 1, padding: .valid)
            let input = rng.floats(g.inputCount)
            let weights = try PackedConv2DWeights(
                geometry: g, filter: rng.floats(outputs * inputs), bias: rng.floats(outputs))
            func run(_ threads: KernelThreads, _ isa: KernelISA) -> [UInt32] {
                var output = [Float](repeating: .nan, count: g.outputCount)
                var scratch = [Float](repeating: 0, count: Swift.max(1, weights.scratchCount(threads: threads)))
                input.withUnsafeBufferPointer { i in
                    output.withUnsafeMutableBufferPointer { o in
                        scratch.withUnsafeMutableBufferPointer { s in
                            conv2D(
                                input: i.baseAddress!, output: o.baseAddress!, weights: weights, activation: .relu6,
                                scratch: s.baseAddress, threads: threads, isa: isa)
                        }
                    }
                }
                return output.map(\.bitPattern)
            }
            for threads in [2, 3] {
                let tiling = Conv2DTiling(pixels: side * side, columns: outputs, reduction: inputs, threads: threads)
                #expect(tiling.pixelTiles == 1 && tiling.columnTiles > 1, "\(side)×\(side)×\(outputs)")
                for isa in KernelISA.available {
                    #expect(
                        run(KernelThreads(threads, grain: 1), isa) == run(.single, isa),
                        "\(side)×\(side)×\(outputs), \(threads) threads, \(isa)")
                }
            }
        }
    }

    /// DEPTHWISE_CONV_2D rows of 8 pixels × 16 channels (a tuned minimum of 8 rows a part) and ADD
    /// (32,768 elements a part), just below and at two and three scaled minimums.
    @Test func kernelsAtTheThresholdMatchOneThread() throws {
        var rng = TestRandom(seed: 47)
        for grain in [1.0, 2.5] {
            for threads in [2, 3] {
                let t = KernelThreads(threads, grain: grain)
                let rowsMinimum = t.minimum(8)
                for rows in [2 * rowsMinimum - 1, 2 * rowsMinimum, 3 * rowsMinimum] {
                    let g = Conv2DGeometry(
                        inputHeight: rows, inputWidth: 8, inputChannels: 16, outputChannels: 16,
                        kernelHeight: 3, kernelWidth: 3, padding: .same)
                    let input = rng.floats(g.inputCount)
                    let weights = try PackedDepthwiseWeights(
                        geometry: g, filter: rng.floats(9 * 16), bias: rng.floats(16))
                    func run(_ threads: KernelThreads) -> [UInt32] {
                        var output = [Float](repeating: .nan, count: g.outputCount)
                        input.withUnsafeBufferPointer { i in
                            output.withUnsafeMutableBufferPointer { o in
                                depthwiseConv2D(
                                    input: i.baseAddress!, output: o.baseAddress!, weights: weights, threads: threads)
                            }
                        }
                        return output.map(\.bitPattern)
                    }
                    #expect(
                        t.parts(rows, minimumPerPart: 8)
                            == min(threads * KernelThreads.partsPerThread, rows / rowsMinimum), "\(rows) rows")
                    #expect(run(t) == run(.single), "depthwise, \(rows) rows, grain \(grain), \(threads) threads")
                }
                let addMinimum = t.minimum(32768)
                for count in [2 * addMinimum - 1, 2 * addMinimum, 3 * addMinimum] {
                    let a = rng.floats(count), b = rng.floats(count)
                    func run(_ threads: KernelThreads) -> [UInt32] {
                        twoInputOutput(a, b, count: count) { a, b, o in
                            add(a, b, output: o, count: count, threads: threads)
                        }.map(\.bitPattern)
                    }
                    #expect(
                        t.parts(count, granule: 16, minimumPerPart: 32768)
                            == min(threads * KernelThreads.partsPerThread, count / addMinimum),
                        "\(count) elements")
                    #expect(run(t) == run(.single), "add, \(count) elements, grain \(grain), \(threads) threads")
                }
            }
        }
    }

    /// The elementwise operators split over threads: a one-input function over contiguous values, and a two-input
    /// one with broadcasting over rows, whose parts start at any row (the odometer over the outer dimensions
    /// begins mid-way), at a grain so small that every part is a few rows; the two-input results also equal the
    /// element-by-element values (exact arithmetic: one multiply, or one subtraction, then the clamp).
    @Test func elementwiseSplitsMatchOneThreadAndTheElementValues() throws {
        var rng = TestRandom(seed: 53)
        let splitting = [KernelThreads(2, grain: 0.01), KernelThreads(3, grain: 0.01)]
        for count in [1, 7, 1000, 4099] {
            let x = rng.floats(count, -8, 8)
            for kind in [UnaryOperator.Kind.hardSwish, .logistic, .neg] {
                func run(_ threads: KernelThreads) -> [UInt32] {
                    var y = [Float](repeating: .nan, count: count)
                    x.withUnsafeBufferPointer { x in
                        y.withUnsafeMutableBufferPointer { y in
                            makeUnaryKernel(
                                kind, input: x.baseAddress!, out: y.baseAddress!, count: count, threads: threads
                            )
                            .run()
                        }
                    }
                    return y.map(\.bitPattern)
                }
                let one = run(.single)
                for t in splitting { #expect(run(t) == one, "\(kind), \(count) values, \(t.count) threads") }
            }
        }
        // [rows, pixels, channels] by [1, 1, channels] (a squeeze-and-excite scale), and two inputs broadcast on
        // different axes ([2, 1, 9, 1, 33] - [2, 5, 1, 7, 33]).
        let cases: [(BinaryOperator.Kind, [Int], [Int], Activation)] = [
            (.mul, [3, 47, 24], [1, 1, 24], .relu6), (.sub, [2, 1, 9, 1, 33], [2, 5, 1, 7, 33], .none),
        ]
        for (kind, shapeA, shapeB, activation) in cases {
            let plan = try #require(BroadcastPlan(shapeA, shapeB))
            let a = rng.floats(shapeA.reduce(1, *), -4, 4), b = rng.floats(shapeB.reduce(1, *), -4, 4)
            let count = plan.outputShape.reduce(1, *)
            func run(_ threads: KernelThreads) -> [Float] {
                twoInputOutput(a, b, count: count) { a, b, y in
                    makeBinaryKernel(kind, plan: plan, a: a, b: b, out: y, activation: activation, threads: threads)
                        .run()
                }
            }
            // Each output's value from its own indices, numpy's broadcasting rule.
            let out = plan.outputShape
            func offset(_ shape: [Int], _ index: [Int]) -> Int {
                let padded = [Int](repeating: 1, count: out.count - shape.count) + shape
                var o = 0
                for d in out.indices { o = o * padded[d] + (padded[d] == 1 ? 0 : index[d]) }
                return o
            }
            let (lo, hi) = activation.bounds
            var expected = [Float](), index = [Int](repeating: 0, count: out.count)
            for _ in 0..<count {
                let x = a[offset(shapeA, index)], y = b[offset(shapeB, index)]
                let v = kind == .mul ? x * y : x - y
                expected.append(activation == .none ? v : min(max(v, lo), hi))
                var d = out.count - 1
                index[d] += 1
                while d > 0 && index[d] == out[d] {
                    index[d] = 0
                    d -= 1
                    index[d] += 1
                }
            }
            let one = run(.single)
            #expect(one == expected, "\(kind) \(shapeA) \(shapeB)")
            for t in splitting {
                #expect(
                    run(t).map(\.bitPattern) == one.map(\.bitPattern), "\(kind) \(shapeA) \(shapeB), \(t.count) threads"
                )
            }
        }
    }
}

/// The `count` values `body` writes from `a` and `b` (the output starts as NaN, so a value left unwritten shows).
private func twoInputOutput(
    _ a: [Float], _ b: [Float], count: Int,
    _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafeMutablePointer<Float>) -> Void
) -> [Float] {
    var output = [Float](repeating: .nan, count: count)
    a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
            output.withUnsafeMutableBufferPointer { o in body(a.baseAddress!, b.baseAddress!, o.baseAddress!) }
        }
    }
    return output
}

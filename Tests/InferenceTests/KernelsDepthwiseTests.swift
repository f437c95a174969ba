import Testing

@testable import Inference

@Suite struct KernelsDepthwiseTests {
    /// Compares the kernel with the reference on every ISA (tolerance 1e-5 relative).
    func check(_ g: Conv2DGeometry, seed: UInt64, bias: Bool = true, threads: Int = 1) throws {
        var rng = TestRandom(seed: seed)
        let input = rng.floats(g.inputCount)
        let filter = rng.floats(g.kernelHeight * g.kernelWidth * g.outputChannels)
        let b = bias ? rng.floats(g.outputChannels) : nil
        let weights = try PackedDepthwiseWeights(geometry: g, filter: filter, bias: b)
        for (i, isa) in testedISAs.enumerated() {
            let activation = testedActivations[(Int(seed) + i) % testedActivations.count]
            let expected = naiveDepthwise(g, input: input, filter: filter, bias: b, activation: activation)
            var output = [Float](repeating: .nan, count: g.outputCount + 9)
            input.withUnsafeBufferPointer { inp in
                output.withUnsafeMutableBufferPointer { out in
                    depthwiseConv2D(
                        input: inp.baseAddress!, output: out.baseAddress!, weights: weights,
                        activation: activation, threads: KernelThreads(threads, grain: 1), isa: isa)
                }
            }
            let err = maxRelativeError(Array(output[0..<g.outputCount]), expected)
            #expect(err <= 1e-5, "\(isa) \(g) \(activation): error \(err)")
            #expect(output[g.outputCount...].allSatisfy { $0.isNaN }, "\(isa): wrote past the output")
        }
    }

    /// A NaN reaching the fused clamp stays NaN on every ISA, in each output pixel whose window holds it, in its
    /// channel only (the AVX2 and AVX-512 rows took the clamp's bound; see `KernelsConv2DTests`).
    @Test func aNaNIsCarriedThroughTheClamp() throws {
        let g = Conv2DGeometry(
            inputHeight: 6, inputWidth: 6, inputChannels: 40, outputChannels: 40, kernelHeight: 3, kernelWidth: 3,
            padding: .same)
        var rng = TestRandom(seed: 8)
        var input = rng.floats(g.inputCount)
        input[(2 * 6 + 2) * 40 + 17] = .nan // row 2, column 2, channel 17
        let weights = try PackedDepthwiseWeights(
            geometry: g, filter: rng.floats(9 * 40), bias: rng.floats(40))
        let expected = (1...3).flatMap { row in (1...3).map { column in (row * 6 + column) * 40 + 17 } }
        for isa in testedISAs {
            for activation in [ClampRange.relu, .relu6, .reluN1To1] {
                var output = [Float](repeating: 0, count: g.outputCount)
                input.withUnsafeBufferPointer { inp in
                    output.withUnsafeMutableBufferPointer { out in
                        depthwiseConv2D(
                            input: inp.baseAddress!, output: out.baseAddress!, weights: weights,
                            activation: activation, threads: KernelThreads(1, grain: 1), isa: isa)
                    }
                }
                let nan = output.indices.filter { output[$0].isNaN }
                #expect(nan == expected, "\(isa) \(activation): NaN at \(nan)")
            }
        }
    }

    @Test func multiplierOneShapes() throws {
        var rng = TestRandom(seed: 5)
        for i in 0..<16 {
            let k = [3, 5, 3, 1, 2][i % 5]
            let stride = 1 + (i / 2) % 2
            let dilation = i % 7 == 6 ? 2 : 1
            let c = [1, 3, 8, 13, 16, 32, 37, 64, 71][i % 9]
            let g = Conv2DGeometry(
                batch: i == 9 ? 2 : 1, inputHeight: rng.int(k...14), inputWidth: rng.int(k...15),
                inputChannels: c, outputChannels: c, kernelHeight: k, kernelWidth: k,
                strideHeight: stride, strideWidth: stride,
                dilationHeight: dilation, dilationWidth: dilation,
                padding: i % 4 == 3 ? .valid : .same)
            guard g.outputHeight > 0, g.outputWidth > 0 else { continue }
            try check(g, seed: UInt64(200 + i), bias: i % 5 != 2, threads: 1 + i % 2)
        }
    }

    @Test func rowsOfEightPixelsShareTheirInputs() throws {
        // Strides 1 and 2, 3×3 and 5×5: groups of interior pixels load each kernel row once; maps wide
        // enough for several groups and a remainder, channels in 16-wide blocks, a masked last
        // block (25) and the 8-wide AVX2 ones (24, 40), with and without padding, on two threads.
        for (i, (k, c)) in [(3, 16), (5, 32), (3, 25), (5, 48), (3, 24), (5, 40), (5, 16)].enumerated() {
            for stride in [1, 2] {
                let g = Conv2DGeometry(
                    inputHeight: 12 + i, inputWidth: (37 + 3 * i) * stride, inputChannels: c,
                    outputChannels: c, kernelHeight: k, kernelWidth: k, strideHeight: stride,
                    strideWidth: stride, padding: i % 3 == 2 ? .valid : .same)
                try check(g, seed: UInt64(600 + 10 * stride + i), bias: i != 4, threads: 1 + i % 2)
            }
        }
    }

    @Test func manyChannelsRunInSlices() throws {
        // Rows whose weights would not fit in L1 run slice by slice (5×5: 128 channels, 3×3: 256):
        // small maps where most pixels are at a border, full and masked last slices, AVX-512 (297,
        // 300, 185) and AVX2 (200, 264) blocks, strides 1 and 2, on two threads.
        let shapes = [(5, 297, 7), (5, 200, 9), (3, 300, 6), (3, 264, 14), (5, 129, 14), (5, 185, 8)]
        for (i, (k, c, side)) in shapes.enumerated() {
            let stride = i == 3 || i == 4 ? 2 : 1
            let g = Conv2DGeometry(
                inputHeight: side, inputWidth: side + i, inputChannels: c, outputChannels: c,
                kernelHeight: k, kernelWidth: k, strideHeight: stride, strideWidth: stride,
                padding: .same)
            try check(g, seed: UInt64(700 + i), bias: i != 1, threads: 1 + i % 2)
        }
    }

    @Test func depthMultiplierAboveOne() throws {
        let g = Conv2DGeometry(
            inputHeight: 9, inputWidth: 8, inputChannels: 5, outputChannels: 15,
            kernelHeight: 3, kernelWidth: 3, strideHeight: 2, strideWidth: 2, padding: .same)
        try check(g, seed: 31)
        let h = Conv2DGeometry(
            inputHeight: 6, inputWidth: 6, inputChannels: 1, outputChannels: 4,
            kernelHeight: 5, kernelWidth: 5, padding: .same)
        try check(h, seed: 32)
    }

    @Test func asymmetricExplicitPadding() throws {
        let g = Conv2DGeometry(
            inputHeight: 10, inputWidth: 11, inputChannels: 20, outputHeight: 5, outputWidth: 6,
            outputChannels: 20, kernelHeight: 3, kernelWidth: 3, strideHeight: 2, strideWidth: 2,
            padTop: 0, padLeft: 1)
        try check(g, seed: 33)
    }

    @Test func rejectsBadMultiplier() {
        let g = Conv2DGeometry(
            inputHeight: 4, inputWidth: 4, inputChannels: 3, outputChannels: 4,
            kernelHeight: 3, kernelWidth: 3, padding: .same)
        #expect(throws: (any Error).self) {
            try PackedDepthwiseWeights(geometry: g, filter: [Float](repeating: 0, count: 36), bias: nil)
        }
    }
}

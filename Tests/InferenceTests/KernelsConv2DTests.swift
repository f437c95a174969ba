import Testing

@testable import Inference

@Suite struct KernelsConv2DTests {
    /// Runs the kernel on `threads` and compares with the naive reference (tolerance 1e-5 relative).
    /// With `fused`, also checks the epilogue: prelu(clamp(conv + residual)) against the reference,
    /// the residual having `residualChannels` channels when given (zero past them, a fused PAD), or
    /// prelu(clamp(conv)) when `residual` is false.
    func check(
        _ g: Conv2DGeometry, seed: UInt64, bias: Bool = true, threads: Int = 1, fused: Bool = false,
        residual withResidual: Bool = true, residualChannels: Int? = nil
    ) throws {
        var rng = TestRandom(seed: seed)
        let input = rng.floats(g.inputCount)
        let filter = rng.floats(g.outputChannels * g.kernelHeight * g.kernelWidth * g.inputChannels)
        let b = bias ? rng.floats(g.outputChannels) : nil
        let rc = residualChannels ?? g.outputChannels
        let residual = rng.floats(g.outputCount / g.outputChannels * rc, -2, 2)
        let alpha = rng.floats(g.outputChannels, 0, 1)
        let weights = try PackedConv2DWeights(geometry: g, filter: filter, bias: b)
        let t = KernelThreads(threads, grain: 1)
        if threads > 1 {
            let tiling = Conv2DTiling(
                pixels: g.batch * g.outputHeight * g.outputWidth, columns: g.outputChannels,
                reduction: g.kernelHeight * g.kernelWidth * g.inputChannels, taps: g.kernelHeight * g.kernelWidth,
                threads: threads)
            #expect(tiling.tiles > 1, "\(g) is too small to be split: the threaded path would not run")
        }
        for (i, isa) in testedISAs.enumerated() {
            // Fused, a clamp that leaves negatives, so that the PReLU acts on every ISA (RELU6 before it hid it on one).
            let fusedActivation: ClampRange = [.none, .reluN1To1][(Int(seed) + i) % 2]
            let activation = fused ? fusedActivation : testedActivations[(Int(seed) + i) % testedActivations.count]
            var expected = naiveConv2D(g, input: input, filter: filter, bias: b, activation: .none)
            for j in expected.indices {
                if fused {
                    let (pixel, channel) = j.quotientAndRemainder(dividingBy: g.outputChannels)
                    let added = withResidual && channel < rc ? residual[pixel * rc + channel] : 0
                    let v = clampRef(expected[j] + added, activation)
                    expected[j] = v < 0 ? alpha[j % g.outputChannels] * v : v
                } else {
                    expected[j] = clampRef(expected[j], activation)
                }
            }
            var scratch = [Float](repeating: .nan, count: max(1, weights.scratchCount(threads: t)))
            var output = [Float](repeating: .nan, count: g.outputCount + 7)
            input.withUnsafeBufferPointer { inp in
                scratch.withUnsafeMutableBufferPointer { s in
                    output.withUnsafeMutableBufferPointer { out in
                        residual.withUnsafeBufferPointer { res in
                            alpha.withUnsafeBufferPointer { al in
                                conv2D(
                                    input: inp.baseAddress!, output: out.baseAddress!, weights: weights,
                                    activation: activation, residual: fused && withResidual ? res.baseAddress : nil,
                                    residualChannels: residualChannels,
                                    preluAlpha: fused ? al.baseAddress : nil, scratch: s.baseAddress,
                                    threads: t, isa: isa)
                            }
                        }
                    }
                }
            }
            let err = maxRelativeError(Array(output[0..<g.outputCount]), expected)
            #expect(err <= 1e-5, "\(isa) \(g) \(activation): error \(err)")
            #expect(output[g.outputCount...].allSatisfy { $0.isNaN }, "\(isa): wrote past the output")
        }
    }

    /// A NaN reaching a fused clamp stays NaN, as in LiteRT and in the kernels' scalar tails: the AVX2 and AVX-512
    /// epilogues took the bound instead (max(x, lo) returns lo for a NaN x), so an input of 3e38, whose sums overflow,
    /// gave plausible scores where LiteRT gives NaN. The other pixels are untouched.
    @Test func aNaNIsCarriedThroughTheClamp() throws {
        let g = Conv2DGeometry(
            inputHeight: 4, inputWidth: 4, inputChannels: 8, outputChannels: 40, kernelHeight: 1, kernelWidth: 1,
            padding: .valid)
        var rng = TestRandom(seed: 5)
        var input = rng.floats(g.inputCount)
        input[5 * 8 + 3] = .nan
        let weights = try PackedConv2DWeights(
            geometry: g, filter: rng.floats(g.outputChannels * g.inputChannels), bias: rng.floats(g.outputChannels))
        let t = KernelThreads(1, grain: 1)
        for isa in testedISAs {
            for activation in [ClampRange.relu, .relu6, .reluN1To1] {
                var scratch = [Float](repeating: 0, count: max(1, weights.scratchCount(threads: t)))
                var output = [Float](repeating: 0, count: g.outputCount)
                input.withUnsafeBufferPointer { inp in
                    scratch.withUnsafeMutableBufferPointer { s in
                        output.withUnsafeMutableBufferPointer { out in
                            conv2D(
                                input: inp.baseAddress!, output: out.baseAddress!, weights: weights,
                                activation: activation, residual: nil, residualChannels: nil, preluAlpha: nil,
                                scratch: s.baseAddress, threads: t, isa: isa)
                        }
                    }
                }
                let nan = output.indices.filter { output[$0].isNaN }
                #expect(nan == Array(5 * 40..<6 * 40), "\(isa) \(activation): NaN at \(nan.count) values")
            }
        }
    }

    @Test func pointwiseGEMMShapes() throws {
        // 1×1 stride 1: H*W not a multiple of 6/4, channels not multiples of 8/16.
        for (i, (hw, c, o)) in [(7, 5, 3), (9, 16, 16), (13, 17, 33), (64, 64, 64), (31, 128, 24), (1, 1, 1)]
            .enumerated()
        {
            let g = Conv2DGeometry(
                inputHeight: hw, inputWidth: hw - (hw > 1 ? 1 : 0), inputChannels: c,
                outputChannels: o, kernelHeight: 1, kernelWidth: 1, padding: .valid)
            try check(g, seed: UInt64(i), bias: i % 2 == 0)
            try check(g, seed: UInt64(40 + i), fused: true, residual: false)
        }
    }

    /// One output channel (pose_landmarks_detector's mask head, 3x3x8 -> 1) takes its own kernel on x86: windows in
    /// place and gathered at the borders (no strip), rows four at a time and the rest alone, every epilogue.
    @Test func singleOutputChannel() throws {
        func one(_ hw: (Int, Int), _ c: Int, kernel k: Int, stride s: Int = 1) -> Conv2DGeometry {
            Conv2DGeometry(
                inputHeight: hw.0, inputWidth: hw.1, inputChannels: c, outputChannels: 1, kernelHeight: k,
                kernelWidth: k, strideHeight: s, strideWidth: s, padding: k > 1 ? .same : .valid)
        }
        let cases = [
            (one((48, 47), 8, kernel: 3), 2), (one((9, 7), 5, kernel: 3, stride: 2), 1),
            (one((3, 3), 13, kernel: 1), 1),
            (one((2, 3), 300, kernel: 1), 1),
        ]
        for (i, (g, threads)) in cases.enumerated() {
            try check(g, seed: UInt64(600 + i), threads: threads)
            try check(g, seed: UInt64(620 + i), threads: threads, fused: true)
            try check(g, seed: UInt64(640 + i), fused: true, residual: false)
        }
    }

    /// One or two output pixels (a FULLY_CONNECTED row, or face_landmarks_detector's 2x2x128 -> 1434 on a 2x2 map)
    /// take a kernel of four or two panels at once on x86, windows read in place or not, every epilogue; the columns
    /// past its last whole group the panel kernel as before.
    @Test func oneOrTwoOutputPixels() throws {
        func map(_ w: Int, _ c: Int, _ o: Int, kernel k: Int) -> Conv2DGeometry {
            Conv2DGeometry(
                inputHeight: k, inputWidth: w + k - 1, inputChannels: c, outputChannels: o, kernelHeight: k,
                kernelWidth: k, padding: .valid)
        }
        for (i, g) in [
            map(1, 32, 100, kernel: 2), map(2, 9, 77, kernel: 2), map(1, 40, 64, kernel: 1),
            map(2, 33, 160, kernel: 1),
        ].enumerated() {
            try check(g, seed: UInt64(660 + i))
            try check(g, seed: UInt64(680 + i), fused: true)
            try check(g, seed: UInt64(700 + i), fused: true, residual: false)
        }
    }

    @Test func pointwiseStrided() throws {
        let g = Conv2DGeometry(
            inputHeight: 11, inputWidth: 10, inputChannels: 12, outputChannels: 20,
            kernelHeight: 1, kernelWidth: 1, strideHeight: 2, strideWidth: 3, padding: .same)
        try check(g, seed: 11)
        let h = Conv2DGeometry(
            inputHeight: 8, inputWidth: 8, inputChannels: 9, outputChannels: 7,
            kernelHeight: 1, kernelWidth: 1, strideHeight: 2, strideWidth: 2, padding: .valid)
        try check(h, seed: 12)
    }

    @Test func generalKernels() throws {
        var rng = TestRandom(seed: 99)
        for i in 0..<14 {
            let k = [1, 2, 3, 5][i % 4]
            let stride = 1 + i % 2
            let dilation = i % 5 == 4 ? 2 : 1
            let g = Conv2DGeometry(
                batch: i % 7 == 3 ? 2 : 1,
                inputHeight: rng.int(k...13), inputWidth: rng.int(k...12),
                inputChannels: rng.int(1...19), outputChannels: rng.int(1...37),
                kernelHeight: k, kernelWidth: i % 3 == 0 ? 1 + (k % 3) : k,
                strideHeight: stride, strideWidth: i % 6 == 5 ? 1 : stride,
                dilationHeight: dilation, dilationWidth: dilation,
                padding: i % 3 == 2 ? .valid : .same)
            guard g.outputHeight > 0, g.outputWidth > 0 else { continue }
            try check(g, seed: UInt64(100 + i), bias: i % 4 != 1)
        }
    }

    @Test func explicitPaddingAndFirstLayerShape() throws {
        // The face model's stem: 3 input channels, 3×3 stride 2; and asymmetric explicit padding.
        let stem = Conv2DGeometry(
            inputHeight: 32, inputWidth: 30, inputChannels: 3, outputChannels: 16,
            kernelHeight: 3, kernelWidth: 3, strideHeight: 2, strideWidth: 2, padding: .same)
        try check(stem, seed: 7)
        let odd = Conv2DGeometry(
            inputHeight: 6, inputWidth: 7, inputChannels: 4, outputHeight: 7, outputWidth: 5,
            outputChannels: 5, kernelHeight: 3, kernelWidth: 2, padTop: 2, padLeft: 0)
        try check(odd, seed: 8)
    }

    @Test func threadsSplitTheSameResult() throws {
        let g = Conv2DGeometry(
            inputHeight: 20, inputWidth: 19, inputChannels: 8, outputChannels: 24,
            kernelHeight: 3, kernelWidth: 3, padding: .same)
        try check(g, seed: 21, threads: 2)
        try check(g, seed: 22, threads: 3)
        let p = Conv2DGeometry(
            inputHeight: 17, inputWidth: 17, inputChannels: 32, outputChannels: 48,
            kernelHeight: 1, kernelWidth: 1, padding: .same)
        try check(p, seed: 23, threads: 2)
        // Small maps with many channels split the output channels across threads.
        let deep = Conv2DGeometry(
            inputHeight: 5, inputWidth: 6, inputChannels: 24, outputChannels: 72,
            kernelHeight: 3, kernelWidth: 3, padding: .same)
        try check(deep, seed: 24, threads: 2)
        try check(deep, seed: 25, threads: 2, fused: true)
        // Two pixel ranges × three channel ranges, the last ending on the 8-wide panel (six tiles: the
        // work is six minimums).
        let wide = Conv2DGeometry(
            inputHeight: 7, inputWidth: 8, inputChannels: 190, outputChannels: 40,
            kernelHeight: 1, kernelWidth: 1, padding: .valid)
        let wideTiling = Conv2DTiling(pixels: 56, columns: 40, reduction: 190, threads: 6)
        #expect(
            wideTiling.pixelTiles == 2 && wideTiling.columnTiles == 3 && wideTiling.ranges(5).columns.upperBound == 40)
        try check(wide, seed: 26, threads: 6)
        // 1×1 with fewer pixels than channels: channel ranges only, every tile all 49 pixels; 3×3 not.
        let deep7 = Conv2DTiling(pixels: 49, columns: 328, reduction: 190, threads: 2)
        #expect(deep7.pixelTiles == 1 && deep7.columnTiles == 2 * KernelThreads.partsPerThread)
        #expect(Conv2DTiling(pixels: 49, columns: 328, reduction: 9 * 190, taps: 9, threads: 2).pixelTiles == 2)
        // 288 columns: nine 32-column steps would deal 128 : 160 to two threads, 16-column ones 144 : 144.
        let odd = Conv2DTiling(pixels: 64, columns: 288, reduction: 864, threads: 2)
        #expect(odd.columnStep == 16 && Conv2DTiling.largestShare(columns: 288, step: 16, tiles: 8, threads: 2) == 144)
        #expect(
            Conv2DTiling.largestShare(columns: 288, step: 32, tiles: 8, threads: 2) == 160 && deep7.columnStep == 32)
        try check(
            Conv2DGeometry(
                inputHeight: 7, inputWidth: 7, inputChannels: 190, outputChannels: 328,
                kernelHeight: 1, kernelWidth: 1, padding: .valid), seed: 27, threads: 2)
    }

    @Test func tilesCoverEveryOutputOnce() {
        // (pixels, columns, reduction, threads): model layers from 96×96 maps to 3×3 ones, odd sizes.
        let cases = [
            (9216, 16, 144, 2), (144, 256, 256, 2), (9, 1152, 192, 2), (49, 328, 190, 3), (30, 72, 216, 2),
            (2304, 37, 9, 4), (100, 8, 8, 2), (1, 1, 1, 2), (20000, 130, 64, 1),
        ]
        var split = 0
        for (pixels, columns, reduction, threads) in cases {
            let tiling = Conv2DTiling(pixels: pixels, columns: columns, reduction: reduction, threads: threads)
            var covered = [Int](repeating: 0, count: pixels * columns)
            for t in 0..<tiling.tiles {
                let (p, c) = tiling.ranges(t)
                #expect(c.lowerBound % 16 == 0 && (c.upperBound % 16 == 0 || c.upperBound == columns), "\(c)")
                for i in p { for j in c { covered[i * columns + j] += 1 } }
            }
            #expect(covered.allSatisfy { $0 == 1 }, "\((pixels, columns, reduction, threads))")
            #expect(tiling.tiles <= max(1, threads * KernelThreads.partsPerThread))
            if tiling.tiles > 1 { split += 1 }
            // Work too small to pay for a hand-over stays whole.
            if pixels * columns * reduction < 2 * Conv2DTiling.minimumWork || threads == 1 {
                #expect(tiling.tiles == 1)
            }
        }
        #expect(split == 6, "cases split: \(split)")
    }

    @Test func fusedResidualAndPReLU() throws {
        // Output widths that exercise 32-column pairs, single 16-column panels and the 8-wide tail.
        for (i, (hw, c, o)) in [(9, 8, 16), (7, 16, 8), (5, 12, 37), (6, 20, 24), (11, 3, 64)].enumerated() {
            let g = Conv2DGeometry(
                inputHeight: hw, inputWidth: hw + 1, inputChannels: c, outputChannels: o,
                kernelHeight: i == 4 ? 3 : 1, kernelWidth: i == 4 ? 3 : 1, padding: .same)
            // One thread: these are too small to split (threadsSplitTheSameResult checks a split fused call).
            try check(g, seed: UInt64(300 + i), fused: true)
        }
    }

    @Test func fusedResidualWithFewerChannels() throws {
        // A fused channel PAD: residual channels ending inside a 16-column panel, on a panel edge,
        // before the 8-wide tail, and a single channel (later panels add only zeros).
        for (i, (o, rc)) in [(40, 20), (40, 16), (37, 36), (64, 1), (24, 8)].enumerated() {
            let g = Conv2DGeometry(
                inputHeight: 7, inputWidth: 6, inputChannels: 12, outputChannels: o,
                kernelHeight: i == 3 ? 3 : 1, kernelWidth: i == 3 ? 3 : 1, padding: .same)
            try check(g, seed: UInt64(400 + i), fused: true, residualChannels: rc)
        }
        // Split over threads by pixels and by channels: tiles whose columns start past the residual's.
        let deep = Conv2DGeometry(
            inputHeight: 5, inputWidth: 6, inputChannels: 24, outputChannels: 72,
            kernelHeight: 3, kernelWidth: 3, padding: .same)
        try check(deep, seed: 410, threads: 2, fused: true, residualChannels: 20)
    }

    @Test func windowsReadInPlaceOrGathered() throws {
        // Windows are read where they lie; where some cross the padding, every window of a tile is read from a
        // zero-padded strip of the input rows the tile needs, or, when that strip would pass 1 MB, the
        // crossing ones are gathered first and tiles mix runs of both (a fused residual follows each run).
        func stem(_ hw: Int, _ k: Int, _ o: Int) -> Conv2DGeometry {
            Conv2DGeometry(
                inputHeight: hw, inputWidth: hw - 2, inputChannels: 3, outputChannels: o, kernelHeight: k,
                kernelWidth: k, strideHeight: 2, strideWidth: 2, padding: .same)
        }
        let cases: [(Conv2DGeometry, threads: Int)] = [
            (stem(26, 5, 32), 2), // the hand detector's stem: padding on every side
            (stem(40, 3, 24), 2), // 24 channels: a 16-column panel and the 8-wide tail; padding right and below
            (stem(40, 3, 16), 1),
            // Kernel rows two input rows apart (still contiguous runs).
            (
                Conv2DGeometry(
                    inputHeight: 20, inputWidth: 19, inputChannels: 5, outputChannels: 20, kernelHeight: 3,
                    kernelWidth: 3, dilationHeight: 2, dilationWidth: 1, padding: .same), 2
            ),
            // Deep windows: kernel rows of 3×64 floats.
            (
                Conv2DGeometry(
                    inputHeight: 9, inputWidth: 8, inputChannels: 64, outputChannels: 16, kernelHeight: 3,
                    kernelWidth: 3, padding: .same), 2
            ),
            // A strip of four rows of 1,202 pixels by 60 channels passes 1 MB: border windows gathered.
            (
                Conv2DGeometry(
                    inputHeight: 2, inputWidth: 1200, inputChannels: 60, outputChannels: 3, kernelHeight: 3,
                    kernelWidth: 3, padding: .same), 2
            ),
            // A kernel larger than the input: no window fits.
            (
                Conv2DGeometry(
                    inputHeight: 3, inputWidth: 4, inputChannels: 2, outputChannels: 8, kernelHeight: 5,
                    kernelWidth: 5, padding: .same), 1
            ),
            // Tiles of 384 pixels over rows of 50 stop at a row's end (350), and two threads' parts start inside rows.
            (
                Conv2DGeometry(
                    inputHeight: 42, inputWidth: 50, inputChannels: 3, outputChannels: 16, kernelHeight: 3,
                    kernelWidth: 3, padding: .same), 2
            ),
            // Rows of 400 pixels: tiles inside a row.
            (
                Conv2DGeometry(
                    inputHeight: 3, inputWidth: 400, inputChannels: 4, outputChannels: 16, kernelHeight: 3,
                    kernelWidth: 3, padding: .same), 2
            ),
            // A 384-pixel tile's strip (15 rows of 298 pixels by 64 channels) would pass 1 MB, a 120-pixel one's (9
            // rows) does not.
            (
                Conv2DGeometry(
                    inputHeight: 17, inputWidth: 300, inputChannels: 64, outputChannels: 8, kernelHeight: 3,
                    kernelWidth: 1, strideHeight: 3, strideWidth: 3, padding: .same), 2
            ),
        ]
        for (i, (g, threads)) in cases.enumerated() {
            try check(g, seed: UInt64(500 + i), bias: i != 2)
            try check(g, seed: UInt64(520 + i), threads: threads, fused: true)
            try check(g, seed: UInt64(540 + i), threads: threads, fused: true, residual: false)
        }
    }

    @Test func samePaddingFollowsTFLite() {
        let g = Conv2DGeometry(
            inputHeight: 256, inputWidth: 255, inputChannels: 3, outputChannels: 8,
            kernelHeight: 3, kernelWidth: 3, strideHeight: 2, strideWidth: 2, padding: .same)
        #expect(g.outputHeight == 128 && g.outputWidth == 128 && g.padTop == 0 && g.padLeft == 1)
        let v = Conv2DGeometry(
            inputHeight: 10, inputWidth: 9, inputChannels: 1, outputChannels: 1,
            kernelHeight: 3, kernelWidth: 3, strideHeight: 2, strideWidth: 2, padding: .valid)
        #expect(v.outputHeight == 4 && v.outputWidth == 4 && v.padTop == 0)
    }

    @Test func rejectsMismatchedWeights() {
        let g = Conv2DGeometry(
            inputHeight: 4, inputWidth: 4, inputChannels: 2, outputChannels: 3,
            kernelHeight: 3, kernelWidth: 3, padding: .same)
        #expect(throws: (any Error).self) { try PackedConv2DWeights(geometry: g, filter: [1, 2, 3], bias: nil) }
        #expect(throws: (any Error).self) {
            try PackedConv2DWeights(geometry: g, filter: [Float](repeating: 0, count: 54), bias: [1])
        }
        var bad = g
        bad.strideHeight = 0
        #expect(throws: (any Error).self) {
            try PackedConv2DWeights(geometry: bad, filter: [Float](repeating: 0, count: 54), bias: nil)
        }
    }
}

import Testing

@testable import Inference

@Suite struct KernelsPoolingElementwiseTests {
    /// Reference max pooling: padded taps skipped.
    func naiveMaxPool(_ g: Conv2DGeometry, _ x: [Float], _ a: ClampRange) -> [Float] {
        var out = [Float](repeating: 0, count: g.outputCount)
        let c = g.inputChannels
        for n in 0..<g.batch {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    for ch in 0..<c {
                        var m = -Float.infinity
                        for ky in 0..<g.kernelHeight {
                            let iy = oy * g.strideHeight - g.padTop + ky
                            guard iy >= 0, iy < g.inputHeight else { continue }
                            for kx in 0..<g.kernelWidth {
                                let ix = ox * g.strideWidth - g.padLeft + kx
                                guard ix >= 0, ix < g.inputWidth else { continue }
                                let v = x[((n * g.inputHeight + iy) * g.inputWidth + ix) * c + ch]
                                m = Swift.max(m, v)
                            }
                        }
                        out[((n * g.outputHeight + oy) * g.outputWidth + ox) * c + ch] =
                            clampRef(m, a)
                    }
                }
            }
        }
        return out
    }

    @Test func poolingMatchesNaive() throws {
        // Max pooling is exact: tolerance 0.
        var rng = TestRandom(seed: 51)
        for i in 0..<10 {
            let k = [2, 3, 2, 5][i % 4]
            let c = [1, 5, 8, 16, 19, 32, 42][i % 7]
            let stride = i % 3 == 0 ? 1 : 2
            let g = Conv2DGeometry(
                batch: i == 4 ? 2 : 1, inputHeight: rng.int(k...12), inputWidth: rng.int(k...13),
                inputChannels: c, outputChannels: c, kernelHeight: k, kernelWidth: k,
                strideHeight: stride, strideWidth: stride, padding: i % 2 == 0 ? .same : .valid)
            let x = rng.floats(g.inputCount, -3, 3)
            for isa in testedISAs {
                let a = testedActivations[(i + 1) % testedActivations.count]
                var out = [Float](repeating: .nan, count: g.outputCount + 4)
                x.withUnsafeBufferPointer { xp in
                    out.withUnsafeMutableBufferPointer { op in
                        maxPool2D(
                            input: xp.baseAddress!, output: op.baseAddress!, geometry: g,
                            activation: a, threads: KernelThreads(2, grain: 1), isa: isa)
                    }
                }
                #expect(Array(out[0..<g.outputCount]) == naiveMaxPool(g, x, a), "\(isa) max \(g)")
                #expect(out[g.outputCount...].allSatisfy { $0.isNaN })
            }
        }
    }

    @Test func preluAndAddMatchNaive() {
        // Exact arithmetic (at most one add and one multiply per element, same order): tolerance 0.
        var rng = TestRandom(seed: 61)
        for (pixels, channels) in [(1, 1), (37, 3), (64, 16), (5, 29), (3, 300), (700, 7)] {
            let x = rng.floats(pixels * channels, -4, 4)
            let y = rng.floats(pixels * channels, -4, 4)
            let alpha = rng.floats(channels)
            for isa in testedISAs {
                var out = [Float](repeating: .nan, count: x.count)
                var sum = [Float](repeating: .nan, count: x.count)
                x.withUnsafeBufferPointer { xp in
                    y.withUnsafeBufferPointer { yp in
                        alpha.withUnsafeBufferPointer { ap in
                            out.withUnsafeMutableBufferPointer { op in
                                prelu(
                                    input: xp.baseAddress!, alpha: ap.baseAddress!, output: op.baseAddress!,
                                    pixels: pixels, channels: channels, threads: KernelThreads(2, grain: 1), isa: isa)
                            }
                            sum.withUnsafeMutableBufferPointer { sp in
                                add(
                                    xp.baseAddress!, yp.baseAddress!, output: sp.baseAddress!, count: x.count,
                                    activation: .relu6, isa: isa)
                            }
                        }
                    }
                }
                let preluRef = x.indices.map { x[$0] >= 0 ? x[$0] : alpha[$0 % channels] * x[$0] }
                let addRef = x.indices.map { clampRef(x[$0] + y[$0], .relu6) }
                #expect(out == preluRef, "\(isa) prelu \(pixels)×\(channels)")
                #expect(sum == addRef, "\(isa) add \(pixels)×\(channels)")
                // In place (the output is the first input), as the memory plan lets elementwise operators run.
                var inPlacePrelu = x, inPlaceSum = x
                inPlacePrelu.withUnsafeMutableBufferPointer { xp in
                    alpha.withUnsafeBufferPointer { ap in
                        prelu(
                            input: xp.baseAddress!, alpha: ap.baseAddress!, output: xp.baseAddress!,
                            pixels: pixels, channels: channels, isa: isa)
                    }
                }
                inPlaceSum.withUnsafeMutableBufferPointer { sp in
                    y.withUnsafeBufferPointer { yp in
                        add(
                            sp.baseAddress!, yp.baseAddress!, output: sp.baseAddress!, count: x.count,
                            activation: .relu6, isa: isa)
                    }
                }
                #expect(inPlacePrelu == preluRef && inPlaceSum == addRef, "\(isa) in place \(pixels)×\(channels)")
            }
        }
    }

    /// RESIZE_BILINEAR on every code path against TFLite's formula computed here, p00·w00 + p10·w10 + p01·w01 +
    /// p11·w11 (w00 = (1 − wy)(1 − wx), ...), each product rounded and added in that order: exact, tolerance 0.
    /// Channels below, at and past a vector (1, 3, 8, 13, 24), enlarging and shrinking, the three coordinate rules,
    /// every clamp, a batch of two; nothing written past the output.
    @Test func resizeBilinearMatchesFormula() {
        var rng = TestRandom(seed: 53)
        for i in 0..<15 {
            let c = [1, 3, 8, 13, 24][i % 5], batch = i % 4 == 3 ? 2 : 1
            let (inH, inW, outH, outW) = (rng.int(1...9), rng.int(1...9), rng.int(1...17), rng.int(1...17))
            let (alignCorners, halfPixel) = (i % 3 == 1, i % 3 == 2)
            let a = testedActivations[i % testedActivations.count]
            let x = rng.floats(batch * inH * inW * c, -3, 3)
            let rows = bilinearTaps(
                inputSize: inH, outputSize: outH, alignCorners: alignCorners, halfPixelCenters: halfPixel)
            let columns = bilinearTaps(
                inputSize: inW, outputSize: outW, alignCorners: alignCorners, halfPixelCenters: halfPixel)
            var expected: [Float] = []
            for n in 0..<batch {
                for ry in rows {
                    for rx in columns {
                        let (wy, wx) = (ry.weight, rx.weight)
                        for k in 0..<c {
                            func at(_ y: Int, _ x0: Int) -> Float { x[((n * inH + y) * inW + x0) * c + k] }
                            var v = at(ry.lower, rx.lower) * ((1 - wy) * (1 - wx))
                            v += at(ry.upper, rx.lower) * (wy * (1 - wx))
                            v += at(ry.lower, rx.upper) * ((1 - wy) * wx)
                            v += at(ry.upper, rx.upper) * (wy * wx)
                            expected.append(clampRef(v, a))
                        }
                    }
                }
            }
            for isa in testedISAs {
                var out = [Float](repeating: .nan, count: expected.count + 4)
                x.withUnsafeBufferPointer { xp in
                    out.withUnsafeMutableBufferPointer { op in
                        ResizeBilinearKernel(
                            input: xp.baseAddress!, out: op.baseAddress!, inputShape: [batch, inH, inW, c], outH: outH,
                            outW: outW, alignCorners: alignCorners, halfPixelCenters: halfPixel, activation: a,
                            threads: KernelThreads(2, grain: 1), isa: isa
                        ).run()
                    }
                }
                let shape = "\(batch)x\(inH)x\(inW)x\(c) -> \(outH)x\(outW)"
                #expect(Array(out[0..<expected.count]) == expected, "\(isa) \(shape) \(a)")
                #expect(out[expected.count...].allSatisfy { $0.isNaN }, "\(isa) \(shape)")
            }
        }
    }
}

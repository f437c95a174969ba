import Testing

@testable import Inference

@Suite struct KernelsFullyConnectedTests {
    @Test func matchesNaive() throws {
        // Tolerance 1e-5 relative; odd feature counts and row counts around the 6-row block.
        var rng = TestRandom(seed: 41)
        for (i, (rows, inputs, outputs)) in [
            (1, 1, 1), (1, 1404, 32), (3, 17, 33), (7, 64, 16), (13, 100, 7),
            (1, 128, 1), (2, 9, 130),
        ].enumerated() {
            let x = rng.floats(rows * inputs)
            let w = rng.floats(inputs * outputs)
            let b = i % 2 == 0 ? rng.floats(outputs) : nil
            let weights = try PackedFullyConnectedWeights(inputCount: inputs, outputCount: outputs, weights: w, bias: b)
            for isa in testedISAs {
                let activation = testedActivations[i % testedActivations.count]
                var expected = [Float](repeating: 0, count: rows * outputs)
                for r in 0..<rows {
                    for o in 0..<outputs {
                        var acc = Double(b?[o] ?? 0)
                        for k in 0..<inputs { acc += Double(x[r * inputs + k]) * Double(w[o * inputs + k]) }
                        expected[r * outputs + o] = clampRef(Float(acc), activation)
                    }
                }
                var out = [Float](repeating: .nan, count: rows * outputs + 3)
                x.withUnsafeBufferPointer { xp in
                    out.withUnsafeMutableBufferPointer { op in
                        fullyConnected(
                            input: xp.baseAddress!, output: op.baseAddress!, rows: rows, weights: weights,
                            activation: activation, threads: KernelThreads(1 + i % 2), isa: isa)
                    }
                }
                let err = maxRelativeError(Array(out[0..<(rows * outputs)]), expected)
                #expect(err <= 1e-5, "\(isa) rows \(rows) \(inputs)→\(outputs): error \(err)")
                #expect(out[(rows * outputs)...].allSatisfy { $0.isNaN })
            }
        }
    }

    @Test func rejectsWrongSizes() {
        #expect(throws: (any Error).self) {
            try PackedFullyConnectedWeights(inputCount: 3, outputCount: 2, weights: [1, 2, 3], bias: nil)
        }
        #expect(throws: (any Error).self) {
            try PackedFullyConnectedWeights(inputCount: 1, outputCount: 2, weights: [1, 2], bias: [1, 2, 3])
        }
        #expect(throws: (any Error).self) {
            try PackedFullyConnectedWeights(inputCount: 0, outputCount: 2, weights: [], bias: nil)
        }
    }
}

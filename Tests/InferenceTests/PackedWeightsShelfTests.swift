import Testing

@testable import Inference

/// Weights packed twice with equal values are held once while in use (several instances of one
/// model); different values, or weights no longer in use, are never handed out.
@Suite struct PackedWeightsShelfTests {
    static func weights(_ seed: Float) -> [Float] { (0..<4096).map { Float($0) * 0.001 + seed } }

    @Test func equalWeightsAreHeldOnce() throws {
        let a = try PackedFullyConnectedWeights(inputCount: 64, outputCount: 64, weights: Self.weights(0.5), bias: nil)
        let b = try PackedFullyConnectedWeights(inputCount: 64, outputCount: 64, weights: Self.weights(0.5), bias: nil)
        #expect(a.storage === b.storage)
        // One value apart (where the hash's sample may not look): packed apart.
        var other = Self.weights(0.5)
        other[4095] += 1
        let c = try PackedFullyConnectedWeights(inputCount: 64, outputCount: 64, weights: other, bias: nil)
        #expect(c.storage !== a.storage)
        // The same weights with a bias: apart.
        let d = try PackedFullyConnectedWeights(
            inputCount: 64, outputCount: 64, weights: Self.weights(0.5), bias: [Float](repeating: 1, count: 64))
        #expect(d.storage !== a.storage)
    }

    @Test func weightsNoLongerInUseAreNotKept() throws {
        weak var first: AlignedFloats?
        do {
            let a = try PackedFullyConnectedWeights(
                inputCount: 32, outputCount: 8, weights: Self.weights(0.25).prefix(256).map { $0 }, bias: nil)
            first = a.storage
            #expect(first != nil)
        }
        #expect(first == nil)
        let b = try PackedFullyConnectedWeights(
            inputCount: 32, outputCount: 8, weights: Self.weights(0.25).prefix(256).map { $0 }, bias: nil)
        #expect(b.storage.count > 0)
    }
}

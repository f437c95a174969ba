import Foundation
import Testing

@testable import Training

/// The head's training arithmetic: the focal loss against Model Maker's documented value, Adam's first step,
/// and every analytic gradient against finite differences.
@Suite struct ClassifierHeadTests {
    /// Model Maker's FocalLoss docstring: y_true [[0,1,0],[0,0,1]], y_pred [[0.05,0.95,0],[0.1,0.8,0.1]], gamma 2
    /// gives 0.9326 (summed over the batch, divided by its size). To its printed 4 digits.
    @Test func focalLossMatchesModelMakersExample() {
        let loss = FocalLoss(gamma: 2)
        let mean = (loss.loss(0.95, weight: 1) + loss.loss(0.1, weight: 1)) / 2
        #expect(abs(mean - 0.9326) < 5e-5)
        // gamma 0 is cross-entropy.
        #expect(abs(FocalLoss(gamma: 0).loss(0.25, weight: 1) - log(4)) < 1e-6)
    }

    /// Keras's Adam moves every parameter by the learning rate, against its gradient's sign, on the first step.
    @Test func adamsFirstStepIsTheLearningRate() {
        var adam = Adam(count: 3)
        var parameters: [Float] = [1, 1, 1]
        adam.update(&parameters, gradient: [0.5, -2, 1e-3], learningRate: 0.01)
        #expect(zip(parameters, [0.99, 1.01, 0.99] as [Float]).allSatisfy { abs($0 - $1) < 1e-4 })
    }

    /// The backward pass through softmax, dense, ReLU and batch normalisation (training mode, no dropout),
    /// with one hidden layer and class weights, equals central finite differences of the batch loss.
    @Test func gradientsMatchFiniteDifferences() {
        var random = SeededGenerator(seed: 7)
        var head = ClassifierHead(inputCount: 5, hiddenWidths: [4], classCount: 3, random: &random)
        // Non-trivial batch-norm parameters.
        for i in head.parameters.indices where i % 7 == 0 { head.parameters[i] += 0.3 * (random.unit() - 0.5) }
        let inputs = (0..<3).map { _ in (0..<5).map { _ in 2 * random.unit() - 1 } }
        let classes = [0, 2, 1], weights: [Float] = [1, 0.5, 2]
        let loss = FocalLoss(gamma: 2)
        var scratch = random
        let (gradient, _) = head.gradient(
            inputs: inputs, classes: classes, weights: weights, loss: loss, dropout: 0, random: &scratch)
        func batchLoss(_ parameters: [Float]) -> Double {
            var copy = head
            copy.parameters = parameters
            var r = random
            return Double(
                copy.gradient(inputs: inputs, classes: classes, weights: weights, loss: loss, dropout: 0, random: &r)
                    .loss)
        }
        var worst = 0.0
        for i in head.parameters.indices {
            var up = head.parameters, down = head.parameters
            up[i] += 1e-2
            down[i] -= 1e-2
            let numeric = (batchLoss(up) - batchLoss(down)) / 2e-2
            worst = max(worst, abs(numeric - Double(gradient[i])) / max(1e-2, abs(numeric)))
        }
        #expect(worst < 2e-2, "largest relative gradient error \(worst)")
        #expect(gradient.contains { abs($0) > 1e-3 })
    }

    /// The exported layers and `predict`, on a head small enough to work out by hand: 3 inputs, 2 classes, no
    /// hidden layer. γ = [2, 1, 1], β = [0.5, 0, 0], moving mean [1, 0, 0] and variance [3.999, 0.999, 0.999]
    /// (plus Keras's ε 0.001: √4 = 2, √1 = 1) fold to scale γ/√(var+ε) = [1, 1, 1] and shift β − mean·scale =
    /// [−0.5, 0, 0]. Input [3, 1, −2] → [2.5, 1, −2] → ReLU [2.5, 1, 0]. Weights [[1, −1, 5], [0, 2, 0]] and bias
    /// [0.5, −ln 3] give logits [2.5 − 1 + 0 + 0.5, 2 − ln 3] = [2, 2 − ln 3] (the 5 meets the ReLU's 0), and
    /// softmax [1/(1 + e^−ln 3), e^−ln 3/(1 + e^−ln 3)] = [1/(1 + 1/3), (1/3)/(1 + 1/3)] = [0.75, 0.25].
    @Test func foldedLayersAndPredictionMatchAHandWorkedHead() throws {
        var random = SeededGenerator(seed: 3)
        var head = ClassifierHead(inputCount: 3, hiddenWidths: [], classCount: 2, random: &random)
        try #require(head.parameters.count == 14 && head.movingStatistics.count == 6)
        // γ, β, the weights row by row, the bias; then the moving means and variances.
        head.parameters = [2, 1, 1, 0.5, 0, 0, 1, -1, 5, 0, 2, 0, 0.5, -log(3)]
        head.movingStatistics = [1, 0, 0, 3.999, 0.999, 0.999]
        func close(_ a: [Float], _ b: [Float]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-5 }
        }
        let layers = head.layers()
        try #require(layers.count == 4)
        guard case .scaleShift(let scale, let shift) = layers[0], layers[1] == .relu,
            case .dense(let weights, let bias, let outputs) = layers[2], layers[3] == .softmax
        else {
            Issue.record("unexpected layers \(layers)")
            return
        }
        #expect(close(scale, [1, 1, 1]) && close(shift, [-0.5, 0, 0]), "scale \(scale), shift \(shift)")
        #expect(weights == [1, -1, 5, 0, 2, 0] && close(bias, [0.5, -log(3)]) && outputs == 2)
        let probabilities = head.predict([3, 1, -2])
        #expect(close(probabilities, [0.75, 0.25]), "\(probabilities)")
    }

    /// The same seed draws the same numbers; another seed others.
    @Test func seededGeneratorIsReproducible() {
        var a = SeededGenerator(seed: 42), b = SeededGenerator(seed: 42), c = SeededGenerator(seed: 43)
        let x = (0..<5).map { _ in a.next() }
        #expect(x == (0..<5).map { _ in b.next() })
        #expect(x != (0..<5).map { _ in c.next() })
        #expect(a.shuffled(Array(0..<10)).sorted() == Array(0..<10))
    }
}

import FixtureSupport
import Foundation
import Inference
import TFLite
import Testing
import VisionErrors

/// Classifier heads written by TFLite's ClassifierModelWriter run in our engine: its outputs equal a direct
/// computation of the same layers, and on the committed reference model they equal LiteRT's outputs
/// (tools/checks/check_written_classifier.py). Tolerance: 1e-6 absolute on scores (fp32 sums of at most 128 products
/// of values of order 1, against fp64 or against XNNPACK's own summation order).
@Suite struct ClassifierWriterEngineTests {
    /// A head on `inputCount` values: its layers, drawn from `seed`.
    struct Head: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let inputCount: Int
        /// The width of each dense layer, in order (the last is the number of classes).
        let widths: [Int]
        /// Whether a folded batch norm and a ReLU come before each dense layer.
        let batchNorm: Bool
        /// Whether the head ends with a softmax.
        let softmax: Bool

        func layers(_ random: inout TestRandom) -> [ClassifierLayer] {
            var layers: [ClassifierLayer] = []
            var width = inputCount
            for next in widths {
                if batchNorm {
                    layers += [
                        .scaleShift(scale: random.floats(width, 0.5, 1.5), shift: random.floats(width, -0.5, 0.5)),
                        .relu,
                    ]
                }
                let bound = 1 / Float(width).squareRoot() * 3
                layers.append(
                    .dense(
                        weights: random.floats(next * width, -bound, bound), bias: random.floats(next),
                        outputCount: next))
                width = next
            }
            return softmax ? layers + [.softmax] : layers
        }
    }

    static let heads = [
        Head(
            testDescription: "Model Maker's default head (128 → 9)", inputCount: 128, widths: [9], batchNorm: true,
            softmax: true),
        Head(
            testDescription: "two hidden layers (128 → 32 → 16 → 5)", inputCount: 128, widths: [32, 16, 5],
            batchNorm: true, softmax: true),
        Head(
            testDescription: "logits of a bare dense layer (7 → 3)", inputCount: 7, widths: [3], batchNorm: false,
            softmax: false),
        Head(testDescription: "softmax alone (4)", inputCount: 4, widths: [], batchNorm: false, softmax: true),
    ]

    /// The layers computed in Double, one after the other.
    static func direct(_ layers: [ClassifierLayer], _ input: [Float]) -> [Double] {
        var x = input.map(Double.init)
        for layer in layers {
            switch layer {
            case .scaleShift(let scale, let shift):
                x = x.indices.map { x[$0] * Double(scale[$0]) + Double(shift[$0]) }
            case .relu:
                x = x.map { max($0, 0) }
            case .dense(let weights, let bias, let outputCount):
                x = (0..<outputCount).map { row in
                    x.indices.reduce(Double(bias[row])) { $0 + Double(weights[row * x.count + $1]) * x[$1] }
                }
            case .softmax:
                let top = x.max() ?? 0
                let exps = x.map { Foundation.exp($0 - top) }
                let sum = exps.reduce(0, +)
                x = exps.map { $0 / sum }
            }
        }
        return x
    }

    @Test(arguments: zip(heads.indices, heads))
    func theEngineComputesTheLayers(_ index: Int, _ head: Head) throws {
        var random = TestRandom(seed: 100 + UInt64(index))
        let layers = head.layers(&random)
        let labels = (0..<(head.widths.last ?? head.inputCount)).map { "class \($0)" }
        let model = try ClassifierModelWriter.write(
            inputCount: head.inputCount, layers: layers, labels: labels,
            scoreThreshold: nil, description: .customGestureClassifier)
        let interpreter = try Interpreter(modelData: model)
        #expect(
            interpreter.inputs.map(\.shape) == [[1, head.inputCount]]
                && interpreter.outputs.map(\.shape) == [[1, labels.count]])
        for _ in 0..<5 {
            let input = random.floats(head.inputCount, -2, 2)
            try interpreter.setInput(0, input)
            interpreter.invoke()
            let output = interpreter.output(0), expected = Self.direct(layers, input)
            let error = zip(output, expected).map { abs(Double($0) - $1) }.max() ?? .infinity
            #expect(output.count == expected.count && error <= 1e-6, "max error \(error)")
        }
    }

    /// The committed reference: inputs and LiteRT 2.3.0's outputs on the committed written model.
    struct Reference: Decodable {
        let inputs: [[Float]]
        let litertOutputs: [[Float]]
    }

    @Test func theEngineMatchesLiteRTOnTheCommittedModel() throws {
        let path = "tflite/classifier_writer/classifier.json"
        let reference = try Fixture.decode(Reference.self, path)
        let cases = try Fixture.expecting(4, Array(zip(reference.inputs, reference.litertOutputs)), in: path)
        let interpreter = try Interpreter(
            modelData: try Fixture.reference("tflite/classifier_writer/classifier.tflite"))
        for (input, litert) in cases {
            try interpreter.setInput(0, input)
            interpreter.invoke()
            let output = interpreter.output(0)
            let error = zip(output, litert).map { abs($0 - $1) }.max() ?? .infinity
            #expect(output.count == litert.count && error <= 1e-6, "max error \(error)")
        }
    }
}

extension ClassifierWriterEngineTests {
    /// A weight that is NaN (one bit flip in a model file) refuses the model, naming its tensor: the kernels' clamps
    /// and maxima made it a confident score, where LiteRT gives NaN and MediaPipe no gesture (a review's finding).
    @Test func aWeightThatIsNotANumberRefusesTheModel() throws {
        let marker: Float = 0.123_456_79
        let model = try ClassifierModelWriter.write(
            inputCount: 2,
            layers: [.dense(weights: [0.5, marker, -0.25, 1], bias: [0, 0], outputCount: 2), .softmax],
            labels: ["a", "b"], scoreThreshold: nil, description: .customGestureClassifier)
        _ = try Interpreter(modelData: model)
        let pattern = withUnsafeBytes(of: marker.bitPattern.littleEndian) { Data($0) }
        let at = try #require(model.range(of: pattern), "the weight's bytes are in the file")
        var corrupt = model
        corrupt.replaceSubrange(at, with: withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { Data($0) })
        #expect {
            _ = try Interpreter(modelData: corrupt)
        } throws: { error in
            guard case VisionTasksError.invalidModel(let message) = error else { return false }
            return message.contains("holds NaN at stored value 1")
        }
    }
}

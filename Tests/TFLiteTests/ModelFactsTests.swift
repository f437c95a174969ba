import FixtureSupport
import Foundation
import Testing

@testable import TFLite

/// The facts LiteRT 2.3.0 and the metadata schema reader report for each model
/// (Tests/Fixtures/references/tflite/model_facts.json, written by tools/references/tflite_model_facts.py).
struct ModelFacts: Decodable {
    struct TensorFact: Decodable {
        let name: String
        let shape: [Int]
        let dtype: String
    }
    struct Normalization: Decodable {
        let mean: [Float]
        let std: [Float]
    }
    struct InputMetadata: Decodable {
        let name: String?
        let normalization: Normalization?
    }
    struct OutputMetadata: Decodable {
        let name: String?
        let scoreThreshold: Float?
    }
    struct Metadata: Decodable {
        let name: String?
        let inputs: [InputMetadata]
        let outputs: [OutputMetadata]
    }
    struct Model: Decodable, CustomTestStringConvertible {
        var testDescription: String { entry.map { "\(file)/\($0)" } ?? file }
        let file: String
        let entry: String?
        let bytes: Int
        let inputs: [TensorFact]
        let outputs: [TensorFact]
        let operators: [String: Int]
        let tensors: Int
        let metadata: Metadata?
        let labels: [String: [String]]
    }
    let models: [Model]

    static func load() throws -> ModelFacts {
        let path = "tflite/model_facts.json", facts = try Fixture.decode(ModelFacts.self, path)
        _ = try Fixture.expecting(11, facts.models, in: path)
        return facts
    }
}

@Suite
struct ModelFactsTests {
    @Test(arguments: try ModelFacts.load().models)
    func modelMatchesLiteRT(_ fact: ModelFacts.Model) throws {
        let data = try TestSupport.modelData(fact.file, fact.entry)
        #expect(data.count == fact.bytes)
        let model = try TFLiteModel(data: data, name: fact.entry ?? fact.file)
        #expect(model.version == 3)
        let graph = try #require(model.subgraphs.first)
        let inputs = graph.inputs.map { graph.tensors[$0] }
        let outputs = graph.outputs.map { graph.tensors[$0] }
        #expect(inputs.map(\.name) == fact.inputs.map(\.name))
        #expect(inputs.map(\.shape) == fact.inputs.map(\.shape))
        #expect(inputs.map(\.type.description) == fact.inputs.map(\.dtype))
        #expect(outputs.map(\.name) == fact.outputs.map(\.name))
        #expect(outputs.map(\.shape) == fact.outputs.map(\.shape))
        #expect(outputs.map(\.type.description) == fact.outputs.map(\.dtype))
        #expect(graph.tensors.count == fact.tensors)
        var counts: [String: Int] = [:]
        for op in graph.operators { counts[op.opcode.name, default: 0] += 1 }
        #expect(counts == fact.operators)

        #expect(model.modelMetadata?.name == fact.metadata?.name)
        let normalizations = model.modelMetadata?.subgraphs.first?.inputTensors.map(\.normalization) ?? []
        #expect(normalizations.map { $0?.mean } == (fact.metadata?.inputs ?? []).map { $0.normalization?.mean })
        #expect(normalizations.map { $0?.std } == (fact.metadata?.inputs ?? []).map { $0.normalization?.std })
        let thresholds = model.modelMetadata?.subgraphs.first?.outputTensors.map(\.scoreThreshold) ?? []
        #expect(thresholds == (fact.metadata?.outputs ?? []).map(\.scoreThreshold))
        let outputCount = model.modelMetadata?.subgraphs.first?.outputTensors.count ?? 0
        for index in 0..<outputCount {
            #expect(try model.labels(forOutput: index) == fact.labels[String(index)], "output \(index)")
        }
    }

    @Test func constantTensorsHaveTheirBytes() throws {
        let data = try TestSupport.modelData("face_landmarker.task", "face_detector.tflite")
        let model = try TFLiteModel(data: data)
        let graph = model.subgraphs[0]
        var constants = 0
        for op in graph.operators where op.opcode == .conv2D {
            let weights = graph.tensors[op.inputs[1]]
            // BlazeFace stores fp16 weights and dequantizes them; a CONV_2D's weights are the DEQUANTIZE output.
            #expect(weights.type == .float32)
            #expect(weights.shape.count == 4)
            guard case .conv2D(let options) = op.options else {
                Issue.record("CONV_2D without Conv2DOptions")
                continue
            }
            #expect(options.strideWidth >= 1 && options.strideHeight >= 1)
            #expect(options.dilationWidth == 1)
        }
        for op in graph.operators where op.opcode == .dequantize {
            let source = graph.tensors[op.inputs[0]]
            #expect(source.type == .float16)
            let bytes = try #require(model.constantData(of: source))
            #expect(bytes.count == source.elementCount * 2)
            constants += 1
        }
        #expect(constants == 74)
    }

    @Test func gestureEmbedderOptionsDecode() throws {
        let data = try TestSupport.modelData("operations.task", "hand_gesture_recognizer.task/gesture_embedder.tflite")
        let model = try TFLiteModel(data: data)
        let ops = model.subgraphs[0].operators
        let fullyConnected = ops.filter { $0.opcode == .fullyConnected }
        #expect(fullyConnected.count == 19)
        for op in fullyConnected {
            guard case .fullyConnected = op.options else {
                Issue.record("FULLY_CONNECTED without options")
                continue
            }
        }
        for op in ops where op.opcode == .unpack {
            guard case .unpack(let num, let axis) = op.options else {
                Issue.record("UNPACK without options")
                continue
            }
            let shape = model.subgraphs[0].tensors[op.inputs[0]].shape
            #expect(num == shape[axis < 0 ? axis + shape.count : axis])
            #expect(op.outputs.count == num)
        }
        for op in ops where [.mean, .reduceMax, .reduceMin].contains(op.opcode) {
            guard case .reducer = op.options else {
                Issue.record("\(op.opcode) without reducer options")
                continue
            }
        }
        for op in ops where op.opcode == .gather {
            guard case .gather = op.options else {
                Issue.record("GATHER without gather options")
                continue
            }
        }
        for op in ops where op.opcode == .stridedSlice {
            guard case .stridedSlice = op.options else {
                Issue.record("STRIDED_SLICE without options")
                continue
            }
        }
    }
}

import FixtureSupport
import Foundation
import Testing
import VisionErrors

@testable import TFLite

/// ClassifierModelWriter: a written head reads back through TFLiteModel (graph, constants, metadata as
/// MediaPipe Model Maker writes it, labels), the same input gives the same bytes, the committed regression fixture
/// (tools/checks/check_written_classifier.py; its outside checks are LiteRT's outputs, compared in InferenceTests, and
/// RegressionFixtureDecodingTests) is reproduced, and wrong input is refused with a message naming it.
@Suite struct ClassifierModelWriterTests {
    static let labels = ["None", "fist", "palm"]

    /// A head shaped like Model Maker's with one hidden layer: (BN, ReLU, dense 6→4), (BN, ReLU, dense 4→3), softmax.
    static func layers(seed: UInt64 = 1) -> [ClassifierLayer] {
        var random = SplitMix64(state: seed)
        func values(_ count: Int) -> [Float] { (0..<count).map { _ in Float.random(in: -1...1, using: &random) } }
        return [
            .scaleShift(scale: values(6), shift: values(6)), .relu,
            .dense(weights: values(24), bias: values(4), outputCount: 4),
            .scaleShift(scale: values(4), shift: values(4)), .relu,
            .dense(weights: values(12), bias: values(3), outputCount: 3),
            .softmax,
        ]
    }

    static func write(
        _ layers: [ClassifierLayer] = layers(), inputCount: Int = 6, labels: [String] = labels,
        scoreThreshold: Float? = 0.5
    ) throws -> Data {
        try ClassifierModelWriter.write(
            inputCount: inputCount, layers: layers, labels: labels, scoreThreshold: scoreThreshold,
            description: .customGestureClassifier)
    }

    static func floats(_ data: Data?) -> [Float] {
        guard let data else { return [] }
        return data.withUnsafeBytes { raw in
            (0..<data.count / 4).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)))
            }
        }
    }

    @Test func theGraphReadsBack() throws {
        let layers = Self.layers()
        let model = try TFLiteModel(data: try Self.write(layers), name: "written")
        #expect(model.version == 3 && model.subgraphs.count == 1)
        let graph = model.subgraphs[0]
        #expect(
            graph.operators.map(\.opcode) == [
                .mul, .add, .relu, .fullyConnected, .mul, .add, .relu, .fullyConnected, .softmax,
            ])
        #expect(model.operatorCodes.map(\.builtinCode) == [.mul, .add, .relu, .fullyConnected, .softmax])
        #expect(model.operatorCodes.allSatisfy { $0.version == 1 })
        #expect(
            graph.operators.map(\.options) == [
                .mul(activation: .none), .add(activation: .none), .none,
                .fullyConnected(
                    FullyConnectedOptions(
                        activation: .none, weightsFormat: 0, keepNumDims: false, asymmetricQuantizeInputs: false)),
                .mul(activation: .none), .add(activation: .none), .none,
                .fullyConnected(
                    FullyConnectedOptions(
                        activation: .none, weightsFormat: 0, keepNumDims: false, asymmetricQuantizeInputs: false)),
                .softmax(beta: 1),
            ])
        let input = graph.tensors[try #require(graph.inputs.first)]
        let output = graph.tensors[try #require(graph.outputs.first)]
        #expect(graph.inputs.count == 1 && graph.outputs.count == 1)
        #expect(input.name == "embedding" && input.shape == [1, 6] && input.type == .float32)
        #expect(output.name == "scores" && output.shape == [1, 3] && output.type == .float32)
        // Each operator reads the previous one's output, and its constants hold the layer's numbers.
        var constants: [[Float]] = []
        var previous = graph.inputs[0]
        for op in graph.operators {
            #expect(op.inputs[0] == previous)
            constants += op.inputs.dropFirst().map { Self.floats(model.constantData(of: graph.tensors[$0])) }
            previous = op.outputs[0]
        }
        #expect(previous == graph.outputs[0])
        let expected: [[Float]] = layers.flatMap { layer -> [[Float]] in
            switch layer {
            case .scaleShift(let scale, let shift): return [scale, shift]
            case .dense(let weights, let bias, _): return [weights, bias]
            case .relu, .softmax: return []
            }
        }
        #expect(constants == expected)
        #expect(graph.tensors.first { $0.name == "layer2/weights" }?.shape == [4, 6])
        #expect(
            String(decoding: try #require(model.metadata["min_runtime_version"]), as: UTF8.self)
                .trimmingCharacters(in: ["\0"]) == "1.5.0")
    }

    @Test func constantDataIs16ByteAligned() throws {
        let model = try TFLiteModel(data: try Self.write(), name: "written")
        let constants = model.subgraphs[0].tensors.filter { model.constantData(of: $0) != nil }
        #expect(constants.count == 8)
        for tensor in constants {
            #expect(model.buffers[tensor.buffer].range.lowerBound % 16 == 0, "\(tensor.name)")
        }
    }

    /// The metadata holds what custom_gesture_classifier_meta.json (Model Maker's test expectation) lists.
    @Test func theMetadataReadsBackAsModelMakerWritesIt() throws {
        let model = try TFLiteModel(data: try Self.write(), name: "written")
        let metadata = try #require(model.modelMetadata)
        #expect(
            metadata.name == "HandGestureRecognition"
                && metadata.description == "Recognize the hand gesture in the image.")
        #expect(metadata.minParserVersion == "1.0.0")
        #expect(
            metadata.version == nil && metadata.author == nil && metadata.license == nil
                && metadata.associatedFiles.isEmpty)
        let subgraph = try #require(metadata.subgraphs.first)
        #expect(metadata.subgraphs.count == 1 && subgraph.inputTensors.count == 1 && subgraph.outputTensors.count == 1)
        let input = subgraph.inputTensors[0], output = subgraph.outputTensors[0]
        #expect(input.name == "embedding" && input.description == "Embedding feature vector from gesture embedder.")
        #expect(
            input.statsMax.isEmpty && input.statsMin.isEmpty && input.scoreThreshold == nil
                && input.associatedFiles.isEmpty)
        #expect(output.name == "scores" && output.description == "Hand gesture category scores.")
        #expect(output.scoreThreshold == 0.5 && output.statsMax == [1] && output.statsMin == [0])
        let file = try #require(output.associatedFiles.first)
        #expect(
            output.associatedFiles.count == 1 && file.name == "labels.txt" && file.type == .tensorAxisLabels
                && file.locale == nil)
        #expect(file.description == "Labels for categories that the model can recognize.")
        #expect(try model.labels(forOutput: 0) == Self.labels)
        #expect(model.associatedFiles == ["labels.txt": Data("None\nfist\npalm".utf8)])
        // Both tensors' content is FeatureProperties, and the input has an empty Stats table.
        let root = try FlatBuffer(try #require(model.metadata[ModelMetadata.entryName]), label: "metadata").root(
            "ModelMetadata", fileIdentifier: MetadataSchema.fileIdentifier)
        typealias SubGraph = MetadataSchema.SubGraphMetadata
        typealias Tensor = MetadataSchema.TensorMetadata
        let tensors = try root.tables(MetadataSchema.ModelMetadata.subgraphMetadata, "subgraph_metadata") {
            subgraph, _ in
            try subgraph.tables(SubGraph.inputTensorMetadata, "input_tensor_metadata") { table, _ in table }
                + subgraph.tables(SubGraph.outputTensorMetadata, "output_tensor_metadata") { table, _ in table }
        }.flatMap { $0 }
        for tensor in tensors {
            let content = try #require(try tensor.table(Tensor.content, "Content"))
            #expect(
                try content.scalar(MetadataSchema.Content.contentPropertiesType, UInt8(0))
                    == MetadataSchema.ContentProperties.featureProperties.rawValue
                    && content.table(MetadataSchema.Content.contentProperties, "FeatureProperties") != nil)
            #expect(try tensor.table(Tensor.stats, "Stats") != nil)
        }
    }

    @Test func withoutAThresholdThereIsNoProcessUnit() throws {
        let model = try TFLiteModel(data: try Self.write(scoreThreshold: nil), name: "written")
        let output = try #require(model.modelMetadata?.subgraphs.first?.outputTensors.first)
        #expect(output.scoreThreshold == nil)
        let zero = try TFLiteModel(data: try Self.write(scoreThreshold: 0), name: "written")
        #expect(zero.modelMetadata?.subgraphs.first?.outputTensors.first?.scoreThreshold == 0)
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        #expect(try Self.write() == Self.write())
        #expect(try Self.write() != Self.write(Self.layers(seed: 2)))
        #expect(try Self.write() != Self.write(scoreThreshold: 0.25))
    }

    /// A wrong head, label list or threshold, and the message that names what is wrong.
    struct BadInput: Sendable, CustomTestStringConvertible {
        let testDescription: String
        var inputCount = 2
        var layers: [ClassifierLayer] = [.dense(weights: [1, 2, 3, 4], bias: [0, 0], outputCount: 2), .softmax]
        var labels = ["a", "b"]
        var scoreThreshold: Float? = nil
        let message: String
    }

    /// Computed: a static array of these stays allocated to the end, which LeakSanitizer (`make sanitize`) reports.
    static var badInputs: [BadInput] {
        [
            BadInput(
                testDescription: "no input", inputCount: 0, message: "inputCount is 0; it must be from 1 to 268435456"),
            BadInput(testDescription: "no layers", layers: [], message: "there are no layers"),
            BadInput(
                testDescription: "short scale", layers: [.scaleShift(scale: [1], shift: [0, 0])],
                message: "layer 0 (scaleShift) has 1 scales and 2 shifts; its width is 2"),
            BadInput(
                testDescription: "short weights",
                layers: [.relu, .dense(weights: [1, 2, 3], bias: [0, 0], outputCount: 2)],
                message: "layer 1 (dense) has 3 weights; 2 outputs × 2 inputs need 2 × 2"),
            BadInput(
                testDescription: "short bias", layers: [.dense(weights: [1, 2, 3, 4], bias: [0], outputCount: 2)],
                message: "layer 0 (dense) has 1 biases for 2 outputs"),
            BadInput(
                testDescription: "no outputs", layers: [.dense(weights: [], bias: [], outputCount: 0)],
                message: "layer 0 (dense) has outputCount 0; it must be at least 1"),
            BadInput(
                testDescription: "NaN weight",
                layers: [.dense(weights: [1, .nan, 3, 4], bias: [0, 0], outputCount: 2)],
                message: "layer 0 weights[1] is nan; weights must be finite"),
            BadInput(
                testDescription: "infinite shift", layers: [.scaleShift(scale: [1, 1], shift: [0, -.infinity])],
                message: "layer 0 shift[1] is -inf; weights must be finite"),
            BadInput(
                testDescription: "labels ≠ width", labels: ["a", "b", "c"],
                message: "the last layer outputs 2 scores but there are 3 labels"),
            BadInput(testDescription: "no labels", layers: [.softmax], labels: [], message: "there are no labels"),
            BadInput(testDescription: "empty label", labels: ["a", " "], message: "label 1 is empty"),
            BadInput(
                testDescription: "newline", labels: ["a\nb", "c"],
                message: "label 0 \"a\\nb\" has a line break; labels.txt holds one label a line"),
            BadInput(
                testDescription: "carriage return", labels: ["a", "b\r"],
                message: "label 1 \"b\\r\" has a line break; labels.txt holds one label a line"),
            BadInput(testDescription: "duplicate label", labels: ["a", "a"], message: "labels 0 and 1 are both \"a\""),
            BadInput(
                testDescription: "NaN threshold", scoreThreshold: .nan,
                message: "scoreThreshold is nan; it must be finite"),
        ]
    }

    @Test(arguments: badInputs)
    func wrongInputIsRefused(_ bad: BadInput) {
        #expect(throws: VisionTasksError.invalidModel("classifier head: \(bad.message)")) {
            try ClassifierModelWriter.write(
                inputCount: bad.inputCount, layers: bad.layers, labels: bad.labels,
                scoreThreshold: bad.scoreThreshold, description: .customGestureClassifier)
        }
    }

    /// The reference: a head, its input cases and LiteRT's outputs, from tools/checks/check_written_classifier.py.
    struct Reference: Decodable {
        struct Layer: Decodable {
            let kind: String
            let scale: [Float]?, shift: [Float]?, weights: [Float]?, bias: [Float]?, outputCount: Int?
        }
        struct Description: Decodable {
            let name: String, description: String, inputName: String, inputDescription: String, outputName: String,
                outputDescription: String
        }
        let inputCount: Int
        let layers: [Layer]
        let labels: [String]
        let scoreThreshold: Float?
        let description: Description

        func written() throws -> Data {
            let layers = try self.layers.map { layer -> ClassifierLayer in
                switch (layer.kind, layer.scale, layer.shift, layer.weights, layer.bias, layer.outputCount) {
                case ("scaleShift", let scale?, let shift?, nil, nil, nil):
                    return .scaleShift(scale: scale, shift: shift)
                case ("relu", nil, nil, nil, nil, nil): return .relu
                case ("dense", nil, nil, let weights?, let bias?, let outputCount?):
                    return .dense(weights: weights, bias: bias, outputCount: outputCount)
                case ("softmax", nil, nil, nil, nil, nil): return .softmax
                default: throw FixtureError.undecodable("classifier_writer/classifier.json", "layer \(layer)")
                }
            }
            let d = description
            return try ClassifierModelWriter.write(
                inputCount: inputCount, layers: layers, labels: labels, scoreThreshold: scoreThreshold,
                description: ClassifierModelDescription(
                    name: d.name, description: d.description, inputName: d.inputName,
                    inputDescription: d.inputDescription, outputName: d.outputName,
                    outputDescription: d.outputDescription))
        }
    }

    /// The writer reproduces the committed model byte for byte from the committed weights. That model is a
    /// regression fixture, written by this writer: it shows only that the bytes did not change. What shows they
    /// are right is outside: LiteRT ran that model (InferenceTests compares our engine with its outputs) and
    /// LiteRT and MediaPipe decoded it (RegressionFixtureDecodingTests). With VISIONTASKS_WRITE_CLASSIFIER_REFERENCE=PATH
    /// (set by tools/checks/check_written_classifier.py when it remakes the fixture) the model is written to PATH instead.
    @Test func theRegressionFixtureIsReproduced() throws {
        let reference = try Fixture.decode(Reference.self, "tflite/classifier_writer/classifier.json")
        let written = try reference.written()
        if let path = ProcessInfo.processInfo.environment["VISIONTASKS_WRITE_CLASSIFIER_REFERENCE"], !path.isEmpty {
            try written.write(to: URL(fileURLWithPath: path))
            return
        }
        #expect(
            reference.layers.map(\.kind) == ["scaleShift", "relu", "dense", "scaleShift", "relu", "dense", "softmax"])
        let committed = try Fixture.reference("tflite/classifier_writer/classifier.tflite")
        #expect(
            written == committed,
            "the writer's bytes differ from the committed regression fixture classifier.tflite: find out why; if the change is meant, remake it with tools/checks/check_written_classifier.py reference, then tools/references/decode_written_classifiers.py"
        )
        #expect(try TFLiteModel(data: committed, name: "classifier.tflite").labels(forOutput: 0) == reference.labels)
    }
}

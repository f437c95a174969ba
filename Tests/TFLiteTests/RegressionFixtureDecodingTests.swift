import FixtureSupport
import Foundation
import Testing

@testable import TFLite

/// The classifiers our own code wrote and committed (regression fixtures: the writer's classifier.tflite and the
/// trainer's custom_gesture_classifier.tflite) read by TFLiteModel exactly as Google's decoders read them: LiteRT
/// 2.3.0's generated schema and interpreter, and MediaPipe 1.2.2's generated metadata schema
/// (decoded_by_litert.json, made by tools/references/decode_written_classifiers.py). A field id, union tag or enum
/// value that the writer and the reader got wrong together would pass the round trip but fail here.
@Suite struct RegressionFixtureDecodingTests {
    struct Decoded: Decodable {
        let models: [String: Model]
    }

    struct Model: Decodable {
        struct Code: Decodable {
            let builtinCode: Int32, deprecatedBuiltinCode: Int8, name: String, version: Int
        }
        struct Tensor: Decodable {
            let name: String, shape: [Int], type: String, buffer: Int, bufferBytes: Int, bufferCRC32: UInt32
        }
        struct Operator: Decodable {
            struct Options: Decodable {
                let fusedActivationFunction: Int8?, weightsFormat: Int?, keepNumDims: Bool?
                let asymmetricQuantizeInputs: Bool?, beta: Float?
            }
            let opcodeIndex: Int, inputs: [Int], outputs: [Int], builtinOptionsType: UInt8
            let builtinOptionsName: String
            let builtinOptions: Options?
        }
        struct Subgraph: Decodable {
            let name: String, inputs: [Int], outputs: [Int], tensors: [Tensor], operators: [Operator]
        }
        struct Entry: Decodable {
            let name: String, buffer: Int
        }
        struct Port: Decodable {
            let name: String, shape: [Int]
        }
        struct LiteRT: Decodable {
            let input: Port, output: Port, ops: [String]
        }
        let bytes: Int, crc32: UInt32, version: Int, description: String, minRuntimeVersion: String
        let operatorCodes: [Code]
        let subgraph: Subgraph
        let metadata: [Entry]
        let litert: LiteRT
        let tfliteMetadata: Metadata
    }

    struct Metadata: Decodable {
        struct File: Decodable {
            let name: String, description: String?, type: String, locale: String?
        }
        struct Unit: Decodable {
            let optionsType: String, globalScoreThreshold: Float?
        }
        struct Tensor: Decodable {
            let name: String?, description: String?, processUnits: [Unit], statsMax: [Float]?, statsMin: [Float]?
            let associatedFiles: [File]
        }
        struct Subgraph: Decodable {
            let inputs: [Tensor], outputs: [Tensor]
        }
        let name: String?, description: String?, version: String?, minParserVersion: String?
        let associatedFiles: [File]
        let subgraphs: [Subgraph]
    }

    static let decodedPath = "tflite/classifier_writer/decoded_by_litert.json"
    static let fixtures = ["tflite/classifier_writer/classifier.tflite", "gestures/custom_gesture_classifier.tflite"]

    /// A schema name ("TENSOR_AXIS_LABELS", "MulOptions") and a Swift case name ("tensorAxisLabels", "mulOptions")
    /// compared without case and underscores.
    static func sameName(_ schema: String, _ swift: Any) -> Bool {
        func plain(_ text: String) -> String { text.lowercased().filter { $0 != "_" } }
        return plain(schema) == plain(String(describing: swift))
    }

    /// The options our reader gives an operator whose options LiteRT decoded as `name` with `fields`.
    static func options(_ name: String, _ fields: Model.Operator.Options?) -> BuiltinOptions? {
        let activation = fields?.fusedActivationFunction.flatMap(ActivationFunction.init(rawValue:))
        switch (name, fields) {
        case ("NONE", nil): return BuiltinOptions.none
        case ("MulOptions", _?): return activation.map { .mul(activation: $0) }
        case ("AddOptions", _?): return activation.map { .add(activation: $0) }
        case ("SoftmaxOptions", let fields?): return fields.beta.map { .softmax(beta: $0) }
        case ("FullyConnectedOptions", let fields?):
            guard let activation, let format = fields.weightsFormat, let keep = fields.keepNumDims,
                let asymmetric = fields.asymmetricQuantizeInputs
            else { return nil }
            return .fullyConnected(
                FullyConnectedOptions(
                    activation: activation, weightsFormat: format, keepNumDims: keep,
                    asymmetricQuantizeInputs: asymmetric))
        default: return nil
        }
    }

    @Test(arguments: fixtures)
    func googleDecodesTheRegressionFixtureAsWeDo(_ path: String) throws {
        let decoded = try Fixture.decode(Decoded.self, Self.decodedPath)
        let theirs = try #require(decoded.models[path], "\(Self.decodedPath) has no \(path)")
        let data = try Fixture.reference(path)
        #expect(
            data.count == theirs.bytes && ZipArchive.crc32(data) == theirs.crc32,
            "\(path) is not the file LiteRT decoded: run tools/references/decode_written_classifiers.py")
        let model = try TFLiteModel(data: data, name: path)
        #expect(model.version == theirs.version && model.description == theirs.description)
        #expect(model.operatorCodes.map(\.builtinCode.rawValue) == theirs.operatorCodes.map(\.builtinCode))
        #expect(model.operatorCodes.map(\.builtinCode.name) == theirs.operatorCodes.map(\.name))
        #expect(model.operatorCodes.map(\.version) == theirs.operatorCodes.map(\.version))
        // Our reader takes the larger of the two codes; both fields hold the same code here.
        #expect(theirs.operatorCodes.allSatisfy { Int32($0.deprecatedBuiltinCode) == $0.builtinCode })

        let subgraph = try #require(model.subgraphs.first)
        #expect(model.subgraphs.count == 1)
        #expect(subgraph.name == theirs.subgraph.name)
        #expect(subgraph.inputs == theirs.subgraph.inputs && subgraph.outputs == theirs.subgraph.outputs)
        try #require(subgraph.tensors.count == theirs.subgraph.tensors.count)
        for (index, (tensor, expected)) in zip(subgraph.tensors, theirs.subgraph.tensors).enumerated() {
            let bytes = model.bufferData(tensor.buffer)
            #expect(
                tensor.name == expected.name && tensor.shape == expected.shape && tensor.type.name == expected.type
                    && tensor.buffer == expected.buffer,
                "tensor \(index)")
            #expect(
                bytes.count == expected.bufferBytes && ZipArchive.crc32(bytes) == expected.bufferCRC32,
                "tensor \(index) \(tensor.name) data")
        }
        try #require(subgraph.operators.count == theirs.subgraph.operators.count)
        for (index, (op, expected)) in zip(subgraph.operators, theirs.subgraph.operators).enumerated() {
            #expect(
                op.opcodeIndex == expected.opcodeIndex && op.inputs == expected.inputs
                    && op.outputs == expected.outputs,
                "operator \(index)")
            let tag = try #require(TFLiteSchema.BuiltinOptions(rawValue: expected.builtinOptionsType))
            #expect(
                Self.sameName(expected.builtinOptionsName, tag),
                "operator \(index): LiteRT's union tag \(expected.builtinOptionsType) is \(expected.builtinOptionsName), ours \(tag)"
            )
            #expect(
                op.options == Self.options(expected.builtinOptionsName, expected.builtinOptions),
                "operator \(index): \(op.options) against LiteRT's \(expected.builtinOptionsName)")
        }
        #expect(subgraph.operators.map(\.opcode.name) == theirs.litert.ops)
        let input = subgraph.tensors[try #require(subgraph.inputs.first)]
        let output = subgraph.tensors[try #require(subgraph.outputs.first)]
        #expect(input.name == theirs.litert.input.name && input.shape == theirs.litert.input.shape)
        #expect(output.name == theirs.litert.output.name && output.shape == theirs.litert.output.shape)

        #expect(Set(model.metadata.keys) == Set(theirs.metadata.map(\.name)))
        for entry in theirs.metadata { #expect(model.metadata[entry.name] == model.bufferData(entry.buffer)) }
        let runtime = try #require(model.metadata["min_runtime_version"])
        #expect(String(decoding: runtime.prefix { $0 != 0 }, as: UTF8.self) == theirs.minRuntimeVersion)
        try Self.expectSame(try #require(model.modelMetadata), theirs.tfliteMetadata)
    }

    /// Our ModelMetadata against MediaPipe's decoding of the same TFLITE_METADATA.
    static func expectSame(_ ours: ModelMetadata, _ theirs: Metadata) throws {
        #expect(ours.name == theirs.name && ours.description == theirs.description)
        #expect(ours.version == theirs.version && ours.minParserVersion == theirs.minParserVersion)
        func expectSame(_ files: [AssociatedFile], _ expected: [Metadata.File], _ what: String) {
            #expect(files.count == expected.count, "\(what) associated files")
            for (file, other) in zip(files, expected) {
                #expect(
                    file.name == other.name && file.description == other.description
                        && sameName(other.type, file.type) && file.locale == other.locale,
                    "\(what): \(file) against MediaPipe's \(other)")
            }
        }
        expectSame(ours.associatedFiles, theirs.associatedFiles, "model")
        try #require(ours.subgraphs.count == theirs.subgraphs.count)
        for (subgraph, other) in zip(ours.subgraphs, theirs.subgraphs) {
            for (tensors, expected, kind) in [
                (subgraph.inputTensors, other.inputs, "input"), (subgraph.outputTensors, other.outputs, "output"),
            ] {
                try #require(tensors.count == expected.count, "\(kind) tensors")
                for (tensor, other) in zip(tensors, expected) {
                    let what = "\(kind) \(tensor.name ?? "")"
                    #expect(tensor.name == other.name && tensor.description == other.description, "\(what)")
                    #expect(
                        tensor.statsMax == other.statsMax ?? [] && tensor.statsMin == other.statsMin ?? [], "\(what)")
                    let thresholds = other.processUnits.filter { $0.optionsType == "ScoreThresholdingOptions" }
                    #expect(
                        other.processUnits.allSatisfy { $0.optionsType == "ScoreThresholdingOptions" }
                            && thresholds.count <= 1,
                        "\(what): process units \(other.processUnits.map(\.optionsType))")
                    #expect(tensor.scoreThreshold == thresholds.first?.globalScoreThreshold, "\(what)")
                    expectSame(tensor.associatedFiles, other.associatedFiles, what)
                }
            }
        }
    }
}

import Foundation
import VisionErrors

/// One layer of a feed-forward classifier head as written to TFLite.
public enum ClassifierLayer: Sendable, Equatable {
    /// MUL then ADD by constant vectors of the layer's width: a batch normalization folded for inference.
    case scaleShift(scale: [Float], shift: [Float])
    /// RELU: max(x, 0).
    case relu
    /// FULLY_CONNECTED: `weights` row-major [outputCount][inputCount] (TFLite's layout), then `bias` added.
    case dense(weights: [Float], bias: [Float], outputCount: Int)
    /// SOFTMAX with beta 1.
    case softmax
}

/// The names and descriptions a classifier's TFLite metadata gives the model, its input and its output.
public struct ClassifierModelDescription: Sendable, Equatable {
    /// The model's name.
    public var name: String
    /// What the model does.
    public var description: String
    /// The input tensor's name in the metadata (also the input tensor's name in the model).
    public var inputName: String
    /// What the input is.
    public var inputDescription: String
    /// The output tensor's name in the metadata (also the output tensor's name in the model).
    public var outputName: String
    /// What the output is.
    public var outputDescription: String

    /// A description from its six strings.
    public init(
        name: String, description: String, inputName: String, inputDescription: String,
        outputName: String, outputDescription: String
    ) {
        self.name = name
        self.description = description
        self.inputName = inputName
        self.inputDescription = inputDescription
        self.outputName = outputName
        self.outputDescription = outputDescription
    }

    /// What MediaPipe Model Maker writes into a custom gesture classifier (its gesture_recognizer/metadata_writer.py).
    public static let customGestureClassifier = ClassifierModelDescription(
        name: "HandGestureRecognition", description: "Recognize the hand gesture in the image.",
        inputName: "embedding", inputDescription: "Embedding feature vector from gesture embedder.",
        outputName: "scores", outputDescription: "Hand gesture category scores.")
}

/// Writes a classifier head as a `.tflite` model with TFLite metadata and its labels, as MediaPipe Model Maker
/// exports one: the model FlatBuffer, then a zip holding `labels.txt` appended to it (as tflite-support's
/// metadata populator packs associated files).
public enum ClassifierModelWriter {
    /// The label file's name, in the metadata and in the appended zip.
    static let labelsFileName = "labels.txt"
    /// The largest number of weights written: their bytes must fit the FlatBuffer's 32-bit offsets.
    static let maxParameters = 1 << 28

    /// A .tflite (schema v3, one subgraph, float32 input [1, inputCount] and output [1, classes]) with TFLITE_METADATA and labels.txt.
    /// - Throws: `VisionTasksError.invalidModel` naming the layer, count or label that is wrong.
    public static func write(
        inputCount: Int, layers: [ClassifierLayer], labels: [String], scoreThreshold: Float?,
        description: ClassifierModelDescription
    ) throws -> Data {
        try check(inputCount: inputCount, layers: layers, labels: labels, scoreThreshold: scoreThreshold)
        let metadata = ClassifierMetadata.flatBuffer(description, scoreThreshold: scoreThreshold)
        let graph = ClassifierGraph(inputCount: inputCount, layers: layers, description: description)
        let model = graph.flatBuffer(metadata: metadata)
        let labelFile = ZipWriter.Entry.stored(labelsFileName, Data(labels.joined(separator: "\n").utf8))
        return Data(model) + ZipWriter.archive([labelFile], startingAt: model.count)
    }

    /// Checks that each layer fits the width before it, that the last width is the number of labels, and that
    /// every number is finite and every label usable.
    static func check(inputCount: Int, layers: [ClassifierLayer], labels: [String], scoreThreshold: Float?) throws {
        func fail(_ message: String) -> VisionTasksError { .invalidModel("classifier head: \(message)") }
        func finite(_ values: [Float], _ what: @autoclosure () -> String) throws {
            if let index = values.firstIndex(where: { !$0.isFinite }) {
                throw fail("\(what())[\(index)] is \(values[index]); weights must be finite")
            }
        }
        guard (1...maxParameters).contains(inputCount) else {
            throw fail("inputCount is \(inputCount); it must be from 1 to \(maxParameters)")
        }
        guard !layers.isEmpty else { throw fail("there are no layers") }
        var width = inputCount
        var parameters = 0
        for (index, layer) in layers.enumerated() {
            let name = "layer \(index)"
            switch layer {
            case .scaleShift(let scale, let shift):
                guard scale.count == width, shift.count == width else {
                    throw fail(
                        "\(name) (scaleShift) has \(scale.count) scales and \(shift.count) shifts; its width is \(width)"
                    )
                }
                try finite(scale, "\(name) scale")
                try finite(shift, "\(name) shift")
                parameters += 2 * width
            case .dense(let weights, let bias, let outputCount):
                guard outputCount > 0 else {
                    throw fail("\(name) (dense) has outputCount \(outputCount); it must be at least 1")
                }
                let (expected, overflow) = outputCount.multipliedReportingOverflow(by: width)
                guard !overflow, weights.count == expected else {
                    throw fail(
                        "\(name) (dense) has \(weights.count) weights; \(outputCount) outputs × \(width) inputs need \(outputCount) × \(width)"
                    )
                }
                guard bias.count == outputCount else {
                    throw fail("\(name) (dense) has \(bias.count) biases for \(outputCount) outputs")
                }
                try finite(weights, "\(name) weights")
                try finite(bias, "\(name) bias")
                parameters += weights.count + bias.count
                width = outputCount
            case .relu, .softmax:
                break
            }
            guard parameters <= maxParameters else {
                throw fail("more than \(maxParameters) weights, too many for a FlatBuffer model")
            }
        }
        guard !labels.isEmpty else { throw fail("there are no labels") }
        guard labels.count == width else {
            throw fail("the last layer outputs \(width) scores but there are \(labels.count) labels")
        }
        var seen: [String: Int] = [:]
        for (index, label) in labels.enumerated() {
            guard !label.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail("label \(index) is empty") }
            guard !label.contains(where: \.isNewline) else {
                throw fail(
                    "label \(index) \(label.debugDescription) has a line break; labels.txt holds one label a line")
            }
            if let first = seen.updateValue(index, forKey: label) {
                throw fail("labels \(first) and \(index) are both \(label.debugDescription)")
            }
        }
        if let threshold = scoreThreshold, !threshold.isFinite {
            throw fail("scoreThreshold is \(threshold); it must be finite")
        }
    }
}

/// The classifier's TFLite graph: tensor 0 is the input, each layer adds its constants and the tensors it
/// computes, and the last tensor computed is the output.
private struct ClassifierGraph {
    struct Tensor {
        var name: String
        let shape: [Int32]
        /// Constant data, nil for a tensor computed at run time.
        let constant: [Float]?
    }

    struct Operator {
        let code: BuiltinOperator
        let inputs: [Int32]
        let output: Int32
    }

    private(set) var tensors: [Tensor]
    private(set) var operators: [Operator] = []

    /// The graph of `layers` (already checked) on an input of `inputCount` values.
    init(inputCount: Int, layers: [ClassifierLayer], description: ClassifierModelDescription) {
        tensors = [Tensor(name: description.inputName, shape: [1, Int32(inputCount)], constant: nil)]
        var current: Int32 = 0
        var width = inputCount
        for (index, layer) in layers.enumerated() {
            let prefix = "layer\(index)"
            switch layer {
            case .scaleShift(let scale, let shift):
                let product = apply(
                    .mul, to: [current, constant("\(prefix)/scale", [width], scale)], "\(prefix)/mul", width)
                current = apply(
                    .add, to: [product, constant("\(prefix)/shift", [width], shift)], "\(prefix)/add", width)
            case .relu:
                current = apply(.relu, to: [current], "\(prefix)/relu", width)
            case .dense(let weights, let bias, let outputCount):
                let inputs = [
                    current, constant("\(prefix)/weights", [outputCount, width], weights),
                    constant("\(prefix)/bias", [outputCount], bias),
                ]
                width = outputCount
                current = apply(.fullyConnected, to: inputs, "\(prefix)/fully_connected", width)
            case .softmax:
                current = apply(.softmax, to: [current], "\(prefix)/softmax", width)
            }
        }
        tensors[Int(current)].name = description.outputName
    }

    private mutating func constant(_ name: String, _ shape: [Int], _ values: [Float]) -> Int32 {
        tensors.append(Tensor(name: name, shape: shape.map { Int32($0) }, constant: values))
        return Int32(tensors.count - 1)
    }

    /// Adds an operator computing a new [1, width] tensor from `inputs`; returns that tensor.
    private mutating func apply(_ code: BuiltinOperator, to inputs: [Int32], _ name: String, _ width: Int) -> Int32 {
        tensors.append(Tensor(name: name, shape: [1, Int32(width)], constant: nil))
        let output = Int32(tensors.count - 1)
        operators.append(Operator(code: code, inputs: inputs, output: output))
        return output
    }

    /// The options table an operator's code calls for: its union type and the table (nil for none).
    private static func options(_ code: BuiltinOperator, _ b: inout FlatBufferBuilder) -> (
        type: UInt8, table: FlatBufferBuilder.Offset?
    ) {
        switch code {
        case .fullyConnected: return (8, b.table([])) // FullyConnectedOptions, no fused activation
        case .softmax: return (9, b.table([.float(0, 1)])) // SoftmaxOptions { beta: 1 }
        case .add: return (11, b.table([])) // AddOptions
        case .mul: return (21, b.table([])) // MulOptions
        default: return (0, nil)
        }
    }

    /// The model FlatBuffer ("TFL3"), with `metadata` as its TFLITE_METADATA entry. Field ids are those of
    /// tensorflow/lite/schema/schema.fbs.
    func flatBuffer(metadata: [UInt8]) -> [UInt8] {
        var b = FlatBufferBuilder()
        // Buffers: 0 is the empty one every model starts with; then each constant, the minimum runtime
        // version and the metadata. Data is 16-byte aligned, as the schema's force_align asks.
        func buffer(_ bytes: [UInt8]) -> FlatBufferBuilder.Offset {
            b.table([.offset(0, b.vector(bytes, alignment: 16))]) // Buffer.data
        }
        var buffers = [b.table([])]
        var bufferIndex: [Int: UInt32] = [:]
        for (index, tensor) in tensors.enumerated() {
            guard let values = tensor.constant else { continue }
            bufferIndex[index] = UInt32(buffers.count)
            buffers.append(buffer(values.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }))
        }
        // Every operator here is at version 1, which TFLite runtimes have run since 1.5.0 (the converter's
        // runtime_version.cc); the converter writes the string zero-padded to 16 bytes.
        let runtimeVersion = Array("1.5.0".utf8) + [UInt8](repeating: 0, count: 11)
        let entries = [("min_runtime_version", buffer(runtimeVersion)), (ModelMetadata.entryName, buffer(metadata))]
        let metadataEntries = entries.enumerated().map { offset, entry in
            // Metadata: name, buffer.
            b.table([.offset(0, b.string(entry.0)), .scalar(1, UInt32(buffers.count + offset))])
        }
        buffers += entries.map(\.1)

        let tensorTables = tensors.enumerated().map { index, tensor in
            // Tensor: shape, type (FLOAT32 = 0, the default), buffer, name.
            b.table([
                .offset(0, b.vector(tensor.shape)), .scalar(2, bufferIndex[index] ?? 0),
                .offset(3, b.string(tensor.name)),
            ])
        }
        var codes: [BuiltinOperator] = []
        for op in operators where !codes.contains(op.code) { codes.append(op.code) }
        let operatorTables = operators.map { op in
            let options = Self.options(op.code, &b)
            // Operator: opcode_index, inputs, outputs, builtin_options_type, builtin_options.
            return b.table([
                .scalar(0, UInt32(codes.firstIndex(of: op.code) ?? 0)), .offset(1, b.vector(op.inputs)),
                .offset(2, b.vector([op.output])), .scalar(3, options.type), .offset(4, options.table),
            ])
        }
        // SubGraph: tensors, inputs, outputs, operators, name.
        let subgraph = b.table([
            .offset(0, b.vector(tensorTables)), .offset(1, b.vector([Int32(0)])),
            .offset(2, b.vector([operators.last?.output ?? 0])), .offset(3, b.vector(operatorTables)),
            .offset(4, b.string("main")),
        ])
        // OperatorCode: deprecated_builtin_code (int8, codes below 127), builtin_code; version 1 is the default.
        let codeTables = codes.map { code in
            b.table([.scalar(0, Int8(code.rawValue)), .scalar(3, code.rawValue)])
        }
        // Model: version, operator_codes, subgraphs, description, buffers, metadata.
        let model = b.table([
            .scalar(0, UInt32(3)), .offset(1, b.vector(codeTables)), .offset(2, b.vector([subgraph])),
            .offset(3, b.string("VisionTasks ClassifierModelWriter")), .offset(4, b.vector(buffers)),
            .offset(6, b.vector(metadataEntries)),
        ])
        return b.finish(root: model, fileIdentifier: "TFL3")
    }
}

/// The TFLITE_METADATA FlatBuffer of a classifier, as MediaPipe's metadata writer makes it for
/// `add_feature_input` and `add_classification_output`. Field ids are those of metadata_schema.fbs.
enum ClassifierMetadata {
    /// The description Model Maker gives the label file.
    static let labelsDescription = "Labels for categories that the model can recognize."

    /// The metadata ("M001"): names and descriptions, FeatureProperties content for the input and the output,
    /// the output's [0, 1] range, score threshold and label file.
    static func flatBuffer(_ description: ClassifierModelDescription, scoreThreshold: Float?) -> [UInt8] {
        var b = FlatBufferBuilder()
        // Content { content_properties_type: FeatureProperties (1), content_properties: FeatureProperties {} }.
        func featureContent() -> FlatBufferBuilder.Offset {
            b.table([.scalar(0, UInt8(1)), .offset(1, b.table([]))])
        }
        // Input TensorMetadata: name, description, content, stats (empty).
        let input = b.table([
            .offset(0, b.string(description.inputName)), .offset(1, b.string(description.inputDescription)),
            .offset(3, featureContent()), .offset(5, b.table([])),
        ])
        // ProcessUnit { options_type: ScoreThresholdingOptions (3), options { global_score_threshold } }.
        let processUnits = scoreThreshold.map { threshold in
            b.vector([b.table([.scalar(0, UInt8(3)), .offset(1, b.table([.float(0, threshold)]))])])
        }
        // AssociatedFile: name, description, type TENSOR_AXIS_LABELS (2).
        let labels = b.table([
            .offset(0, b.string(ClassifierModelWriter.labelsFileName)),
            .offset(1, b.string(labelsDescription)), .scalar(2, Int8(2)),
        ])
        // Output TensorMetadata: name, description, content, process_units, stats { max [1], min [0] }, associated_files.
        let stats = b.table([.offset(0, b.vector([Float(1)])), .offset(1, b.vector([Float(0)]))])
        let output = b.table([
            .offset(0, b.string(description.outputName)), .offset(1, b.string(description.outputDescription)),
            .offset(3, featureContent()), .offset(4, processUnits), .offset(5, stats),
            .offset(6, b.vector([labels])),
        ])
        // SubGraphMetadata: input_tensor_metadata, output_tensor_metadata.
        let subgraph = b.table([.offset(2, b.vector([input])), .offset(3, b.vector([output]))])
        // ModelMetadata: name, description, subgraph_metadata, min_parser_version.
        let root = b.table([
            .offset(0, b.string(description.name)), .offset(1, b.string(description.description)),
            .offset(3, b.vector([subgraph])), .offset(7, b.string("1.0.0")),
        ])
        return b.finish(root: root, fileIdentifier: "M001")
    }
}

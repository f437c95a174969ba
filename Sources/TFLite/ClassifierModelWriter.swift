import Foundation
import VisionErrors

// MARK: - Layers and description

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

// MARK: - Writer

/// Writes a classifier head as a `.tflite` model with TFLite metadata and its labels, as MediaPipe Model Maker
/// exports one: the model FlatBuffer, then a zip holding `labels.txt` appended to it (as tflite-support's
/// metadata populator packs associated files).
public enum ClassifierModelWriter {
    /// The label file's name, in the metadata and in the appended zip.
    static let labelsFileName = "labels.txt"
    /// The largest number of weights written: their bytes must fit the FlatBuffer's 32-bit offsets.
    static let maxParameters = 1 << 28

    /// A .tflite (schema v3, one subgraph, float32 input [1, inputCount] and output [1, classes]) with TFLITE_METADATA and labels.txt.
    /// - Parameters:
    ///   - inputCount: The input's width.
    ///   - layers: The head's layers in order; each must fit the width before it.
    ///   - labels: One label per output class, in order.
    ///   - scoreThreshold: The output's score threshold in the metadata, if any.
    ///   - description: The names and descriptions the metadata gives.
    /// - Returns: The `.tflite` bytes, labels.txt appended as a zip.
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

    /// The longest label in UTF-8 bytes: a folder name's limit on Linux, so a label from a zip fits as one from a folder.
    public static let maxLabelBytes = 255

    /// Why `label` cannot label a written classifier's class (its labels.txt holds one label a line), as a
    /// predicate ("is empty"), or nil when it can; trainers check their labels with it before training.
    public static func labelProblem(_ label: String) -> String? {
        if label.trimmingCharacters(in: .whitespaces).isEmpty { return "is empty" }
        if label.utf8.count > maxLabelBytes {
            return "\(label.prefix(20).debugDescription)… is \(label.utf8.count) bytes long; a label holds at most "
                + "\(maxLabelBytes), as a folder name does"
        }
        if label.contains(where: \.isNewline) {
            return "\(label.debugDescription) has a line break; labels.txt holds one label a line"
        }
        if label.unicodeScalars.contains(where: { [.control, .format].contains($0.properties.generalCategory) }) {
            return "\(label.debugDescription) holds a control character, which a label shown would hide"
        }
        if label.unicodeScalars.first?.properties.isWhitespace == true
            || label.unicodeScalars.last?.properties.isWhitespace == true
        {
            return "\(label.debugDescription) begins or ends with white space, which a label shown would hide"
        }
        if label.contains("\u{FFFD}") {
            return "\(label.debugDescription) holds U+FFFD, the mark of a name that was not UTF-8"
        }
        return nil
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
            if let problem = labelProblem(label) { throw fail("label \(index) \(problem)") }
            if let first = seen.updateValue(index, forKey: label) {
                throw fail("labels \(first) and \(index) are both \(label.debugDescription)")
            }
        }
        if let threshold = scoreThreshold, !threshold.isFinite {
            throw fail("scoreThreshold is \(threshold); it must be finite")
        }
    }
}

// MARK: - TFLite graph

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
        type: TFLiteSchema.BuiltinOptions, table: FlatBufferBuilder.Offset?
    ) {
        switch code {
        // No fused activation: the options' defaults.
        case .fullyConnected: return (.fullyConnectedOptions, b.table([]))
        case .softmax: return (.softmaxOptions, b.table([.float(TFLiteSchema.SoftmaxOptions.beta, 1)]))
        case .add: return (.addOptions, b.table([]))
        case .mul: return (.mulOptions, b.table([]))
        default: return (.none, nil)
        }
    }

    /// The model FlatBuffer ("TFL3"), with `metadata` as its TFLITE_METADATA entry, in the tables of `TFLiteSchema`.
    func flatBuffer(metadata: [UInt8]) -> [UInt8] {
        var b = FlatBufferBuilder()
        // Buffers: 0 is the empty one every model starts with; then each constant, the minimum runtime
        // version and the metadata. Data is 16-byte aligned, as the schema's force_align asks.
        func buffer(_ bytes: [UInt8]) -> FlatBufferBuilder.Offset {
            b.table([.offset(TFLiteSchema.Buffer.data, b.vector(bytes, alignment: 16))])
        }
        var buffers = [b.table([])]
        var bufferIndex: [Int: UInt32] = [:]
        for (index, tensor) in tensors.enumerated() {
            guard let values = tensor.constant else { continue }
            bufferIndex[index] = UInt32(buffers.count)
            buffers.append(buffer(littleEndianBytes(of: values.map { $0.bitPattern })))
        }
        // Every operator here is at version 1, which TFLite runtimes have run since 1.5.0 (the converter's
        // runtime_version.cc); the converter writes the string zero-padded to 16 bytes.
        let runtimeVersion = Array("1.5.0".utf8) + [UInt8](repeating: 0, count: 11)
        let entries = [("min_runtime_version", buffer(runtimeVersion)), (ModelMetadata.entryName, buffer(metadata))]
        let metadataEntries = entries.enumerated().map { offset, entry in
            b.table([
                .offset(TFLiteSchema.Metadata.name, b.string(entry.0)),
                .scalar(TFLiteSchema.Metadata.buffer, UInt32(buffers.count + offset)),
            ])
        }
        buffers += entries.map(\.1)

        let tensorTables = tensors.enumerated().map { index, tensor in
            // The type is FLOAT32, the default, so it is left out.
            b.table([
                .offset(TFLiteSchema.Tensor.shape, b.vector(tensor.shape)),
                .scalar(TFLiteSchema.Tensor.buffer, bufferIndex[index] ?? 0),
                .offset(TFLiteSchema.Tensor.name, b.string(tensor.name)),
            ])
        }
        var codes: [BuiltinOperator] = []
        for op in operators where !codes.contains(op.code) { codes.append(op.code) }
        let operatorTables = operators.map { op in
            let options = Self.options(op.code, &b)
            typealias Field = TFLiteSchema.Operator
            return b.table([
                .scalar(Field.opcodeIndex, UInt32(codes.firstIndex(of: op.code) ?? 0)),
                .offset(Field.inputs, b.vector(op.inputs)), .offset(Field.outputs, b.vector([op.output])),
                .scalar(Field.builtinOptionsType, options.type.rawValue), .offset(Field.builtinOptions, options.table),
            ])
        }
        typealias SubGraph = TFLiteSchema.SubGraph
        let subgraph = b.table([
            .offset(SubGraph.tensors, b.vector(tensorTables)), .offset(SubGraph.inputs, b.vector([Int32(0)])),
            .offset(SubGraph.outputs, b.vector([operators.last?.output ?? 0])),
            .offset(SubGraph.operators, b.vector(operatorTables)), .offset(SubGraph.name, b.string("main")),
        ])
        // deprecated_builtin_code (int8) holds codes below 127, as these are; version 1 is the default.
        let codeTables = codes.map { code in
            b.table([
                .scalar(TFLiteSchema.OperatorCode.deprecatedBuiltinCode, Int8(code.rawValue)),
                .scalar(TFLiteSchema.OperatorCode.builtinCode, code.rawValue),
            ])
        }
        typealias Model = TFLiteSchema.Model
        let model = b.table([
            .scalar(Model.version, TFLiteSchema.version), .offset(Model.operatorCodes, b.vector(codeTables)),
            .offset(Model.subgraphs, b.vector([subgraph])),
            .offset(Model.description, b.string("VisionTasks ClassifierModelWriter")),
            .offset(Model.buffers, b.vector(buffers)), .offset(Model.metadata, b.vector(metadataEntries)),
        ])
        return b.finish(root: model, fileIdentifier: TFLiteSchema.fileIdentifier)
    }
}

// MARK: - Metadata

/// The TFLITE_METADATA FlatBuffer of a classifier, as MediaPipe's metadata writer makes it for
/// `add_feature_input` and `add_classification_output`, in the tables of `MetadataSchema`.
enum ClassifierMetadata {
    /// The description Model Maker gives the label file.
    static let labelsDescription = "Labels for categories that the model can recognize."

    /// The metadata ("M001"): names and descriptions, FeatureProperties content for the input and the output,
    /// the output's [0, 1] range, score threshold and label file.
    static func flatBuffer(_ description: ClassifierModelDescription, scoreThreshold: Float?) -> [UInt8] {
        typealias Tensor = MetadataSchema.TensorMetadata
        var b = FlatBufferBuilder()
        // Content { content_properties: FeatureProperties {} }.
        func featureContent() -> FlatBufferBuilder.Offset {
            b.table([
                .scalar(
                    MetadataSchema.Content.contentPropertiesType,
                    MetadataSchema.ContentProperties.featureProperties.rawValue),
                .offset(MetadataSchema.Content.contentProperties, b.table([])),
            ])
        }
        // The input's stats are an empty table.
        let input = b.table([
            .offset(Tensor.name, b.string(description.inputName)),
            .offset(Tensor.description, b.string(description.inputDescription)),
            .offset(Tensor.content, featureContent()), .offset(Tensor.stats, b.table([])),
        ])
        let processUnits = scoreThreshold.map { threshold in
            let options = b.table([.float(MetadataSchema.ScoreThresholdingOptions.globalScoreThreshold, threshold)])
            return b.vector([
                b.table([
                    .scalar(
                        MetadataSchema.ProcessUnit.optionsType,
                        MetadataSchema.ProcessUnitOptions.scoreThresholdingOptions.rawValue),
                    .offset(MetadataSchema.ProcessUnit.options, options),
                ])
            ])
        }
        let labels = b.table([
            .offset(MetadataSchema.AssociatedFile.name, b.string(ClassifierModelWriter.labelsFileName)),
            .offset(MetadataSchema.AssociatedFile.description, b.string(labelsDescription)),
            .scalar(MetadataSchema.AssociatedFile.type, AssociatedFileType.tensorAxisLabels.rawValue),
        ])
        // The output's scores lie in [0, 1].
        let stats = b.table([
            .offset(MetadataSchema.Stats.max, b.vector([Float(1)])),
            .offset(MetadataSchema.Stats.min, b.vector([Float(0)])),
        ])
        let output = b.table([
            .offset(Tensor.name, b.string(description.outputName)),
            .offset(Tensor.description, b.string(description.outputDescription)),
            .offset(Tensor.content, featureContent()), .offset(Tensor.processUnits, processUnits),
            .offset(Tensor.stats, stats), .offset(Tensor.associatedFiles, b.vector([labels])),
        ])
        let subgraph = b.table([
            .offset(MetadataSchema.SubGraphMetadata.inputTensorMetadata, b.vector([input])),
            .offset(MetadataSchema.SubGraphMetadata.outputTensorMetadata, b.vector([output])),
        ])
        typealias Model = MetadataSchema.ModelMetadata
        let root = b.table([
            .offset(Model.name, b.string(description.name)),
            .offset(Model.description, b.string(description.description)),
            .offset(Model.subgraphMetadata, b.vector([subgraph])), .offset(Model.minParserVersion, b.string("1.0.0")),
        ])
        return b.finish(root: root, fileIdentifier: MetadataSchema.fileIdentifier)
    }
}

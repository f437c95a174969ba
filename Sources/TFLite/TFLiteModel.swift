import Foundation
import VisionErrors

/// A parsed, bounds-checked TFLite model (`.tflite` FlatBuffer, schema version 3).
///
/// Parsing checks every offset and length, every operator's opcode and tensor indices, every tensor's buffer
/// index and that constant data has the byte size its shape and type call for. Constant data is not
/// copied: `bufferData(_:)` returns slices of `data`.
public struct TFLiteModel: Sendable {
    /// The model bytes as given (buffers are slices of it).
    public let data: Data
    /// Schema version (3 for current models).
    public let version: Int
    /// The converter's description ("MLIR Converted.", ...), empty when absent.
    public let description: String
    /// The operator codes that operators refer to by index.
    public let operatorCodes: [OperatorCode]
    /// The subgraphs; subgraph 0 is the main graph.
    public let subgraphs: [Subgraph]
    /// The buffers that tensors refer to by index; buffer 0 is the empty sentinel.
    public let buffers: [Buffer]
    /// The model's metadata entries, by name ("TFLITE_METADATA", "min_runtime_version", ...), as raw bytes.
    public let metadata: [String: Data]
    /// The parsed TFLite metadata (the "TFLITE_METADATA" entry), when the model has it.
    public let modelMetadata: ModelMetadata?
    /// Files packed into the model as a zip appended to the FlatBuffer (labels and the like), by name.
    public let associatedFiles: [String: Data]

    // MARK: - Loading

    /// Parses `data` as a `.tflite` model; `name` (a file or bundle entry) prefixes error messages. At most
    /// `maxDecompressedBytes` are inflated from a zip of associated files appended to the model.
    /// - Parameters:
    ///   - data: The bytes of a `.tflite` file (its constant data is not copied).
    ///   - name: What error messages call the model.
    ///   - maxDecompressedBytes: The most bytes inflated from the appended zip.
    /// - Throws: `VisionTasksError.invalidModel` naming what is wrong and where.
    public init(
        data: Data, name: String = "model",
        maxDecompressedBytes: Int = ModelBundle.defaultMaxDecompressedBytes
    ) throws {
        try self.init(data: data, name: name, inflateBudget: InflateBudget(limit: maxDecompressedBytes))
    }

    /// Parses `data`, inflating associated files against `inflateBudget` (a bundle's, for a model inside one).
    init(data: Data, name: String, inflateBudget: InflateBudget) throws {
        let buffer = FlatBuffer(data, label: name)
        let root = try buffer.root("Model", fileIdentifier: TFLiteSchema.fileIdentifier)
        self.data = data
        self.version = Int(try root.scalar(TFLiteSchema.Model.version, UInt32(0)))
        // LiteRT refuses another version too: a model of version 99 ran here without a word.
        guard version == Int(TFLiteSchema.version) else {
            throw VisionTasksError.invalidModel(
                "\(name): schema version \(version), where TFLite models (and this reader) have version \(TFLiteSchema.version)"
            )
        }
        self.description = try root.string(TFLiteSchema.Model.description, "description") ?? ""

        let buffers = try root.tables(TFLiteSchema.Model.buffers, "buffers") { table, index in
            try Buffer(table, index: index, modelSize: data.count)
        }
        self.buffers = buffers
        let codes = try root.tables(TFLiteSchema.Model.operatorCodes, "operator_codes") { table, _ in
            try OperatorCode(table)
        }
        self.operatorCodes = codes
        self.subgraphs = try root.tables(TFLiteSchema.Model.subgraphs, "subgraphs") { table, index in
            try Subgraph(table, index: index, operatorCodes: codes, buffers: buffers)
        }
        guard !subgraphs.isEmpty else { throw buffer.fail("the model has no subgraph") }

        var metadata: [String: Data] = [:]
        _ = try root.tables(TFLiteSchema.Model.metadata, "metadata") { table, index in
            let entryName = try table.string(TFLiteSchema.Metadata.name, "name") ?? ""
            let bufferIndex = Int(try table.scalar(TFLiteSchema.Metadata.buffer, UInt32(0)))
            guard bufferIndex < buffers.count else {
                throw buffer.fail(
                    "metadata[\(index)] \"\(entryName)\" refers to buffer \(bufferIndex) of \(buffers.count)")
            }
            if metadata[entryName] == nil {
                metadata[entryName] = buffers[bufferIndex].bytes(of: data)
            }
        }
        self.metadata = metadata
        if let bytes = metadata[ModelMetadata.entryName] {
            self.modelMetadata = try ModelMetadata(data: bytes, name: "\(name) \(ModelMetadata.entryName)")
        } else {
            self.modelMetadata = nil
        }
        self.associatedFiles = try ZipArchive.appendedFiles(
            in: data, name: name,
            required: modelMetadata?.allAssociatedFileNames ?? [],
            budget: inflateBudget)
    }

    // MARK: - Constant data and labels

    /// The bytes of buffer `index` (a slice of `data`: index it from its `startIndex`); empty when out of range.
    public func bufferData(_ index: Int) -> Data {
        guard buffers.indices.contains(index) else { return Data() }
        return buffers[index].bytes(of: data)
    }

    /// The constant data of `tensor` (a slice of `data`), or nil when the tensor has none.
    public func constantData(of tensor: Tensor) -> Data? {
        let bytes = bufferData(tensor.buffer)
        return bytes.isEmpty ? nil : bytes
    }

    /// The labels of output `index` of `subgraph` in the metadata's output order (which some models, e.g.
    /// hand_landmarks_detector, do not keep in `Subgraph.outputs` order), from one of its TENSOR_AXIS_LABELS
    /// files chosen as MediaPipe's metadata extractor chooses (`FindFirstAssociatedFileName`): with `locale`
    /// empty (the default, MediaPipe's class names) the first such file whatever its locale; otherwise the
    /// first whose locale is `locale` (MediaPipe's display names). nil when there is no such file.
    /// - Parameters:
    ///   - index: The output, in the metadata's output order.
    ///   - subgraph: The subgraph whose metadata is read.
    ///   - locale: The label file's locale ("": the first file whatever its locale).
    /// - Returns: One label per line of the file, or nil when there is no such file.
    /// - Throws: `VisionTasksError.invalidModel` when the metadata names a label file the model does not contain.
    public func labels(forOutput index: Int, subgraph: Int = 0, locale: String = "") throws -> [String]? {
        guard let metadata = modelMetadata, metadata.subgraphs.indices.contains(subgraph) else { return nil }
        let outputs = metadata.subgraphs[subgraph].outputTensors
        guard outputs.indices.contains(index) else { return nil }
        guard
            let file = outputs[index].associatedFiles.first(where: {
                $0.type == .tensorAxisLabels && !$0.name.isEmpty && (locale.isEmpty || $0.locale == locale)
            })
        else { return nil }
        guard let bytes = associatedFiles[file.name] else {
            throw VisionTasksError.invalidModel(
                "the metadata names label file \"\(file.name)\" for output \(index), but the model does not contain it")
        }
        return LabelFile.parse(bytes)
    }
}

// MARK: - Schema tables

extension TFLiteModel {
    /// An operator code: which builtin (or custom) operator, and its version.
    public struct OperatorCode: Hashable, Sendable, Codable {
        /// The builtin operator (`CUSTOM` for custom operators).
        public let builtinCode: BuiltinOperator
        /// The custom operator's name, for `CUSTOM`.
        public let customCode: String?
        /// The operator version.
        public let version: Int

        init(_ table: FBTable) throws {
            // The int8 deprecated field holds codes below 127; newer models put the full code in builtin_code.
            let deprecated = Int32(try table.scalar(TFLiteSchema.OperatorCode.deprecatedBuiltinCode, Int8(0)))
            let full = try table.scalar(TFLiteSchema.OperatorCode.builtinCode, Int32(0))
            builtinCode = BuiltinOperator(rawValue: max(deprecated, full))
            customCode = try table.string(TFLiteSchema.OperatorCode.customCode, "custom_code")
            version = Int(try table.scalar(TFLiteSchema.OperatorCode.version, Int32(1)))
        }
    }

    /// A buffer: where its bytes lie in the model data (an empty range when it has none).
    public struct Buffer: Hashable, Sendable, Codable {
        /// Byte range within the model data (0-based, relative to `TFLiteModel.data.startIndex`).
        public let range: Range<Int>

        init(_ table: FBTable, index: Int, modelSize: Int) throws {
            if let vector = try table.vector(TFLiteSchema.Buffer.data, elementSize: 1, "data") {
                range = vector.range
                return
            }
            // Large models store data after the FlatBuffer: offset (from the file start) and size, offset > 1.
            let offset = try table.scalar(TFLiteSchema.Buffer.offset, UInt64(0))
            let size = try table.scalar(TFLiteSchema.Buffer.size, UInt64(0))
            guard offset > 1 else {
                range = 0..<0
                return
            }
            guard offset <= UInt64(modelSize), size <= UInt64(modelSize) - offset else {
                throw table.buffer.fail(
                    "buffers[\(index)] refers to bytes \(offset)..<\(offset &+ size) of a \(modelSize)-byte file")
            }
            range = Int(offset)..<Int(offset + size)
        }

        /// The bytes of this buffer within `data` (a slice).
        func bytes(of data: Data) -> Data {
            data[data.startIndex + range.lowerBound..<data.startIndex + range.upperBound]
        }
    }

    /// Quantization parameters of a tensor (per-tensor or per-axis).
    public struct Quantization: Hashable, Sendable, Codable {
        /// Scales (one, or one per slice along `quantizedDimension`).
        public let scale: [Float]
        /// Zero points, as many as `scale`.
        public let zeroPoint: [Int]
        /// The axis of per-axis quantization.
        public let quantizedDimension: Int
        /// Recorded minimum values (calibration), often empty.
        public let min: [Float]
        /// Recorded maximum values (calibration), often empty.
        public let max: [Float]
    }

    /// A tensor of a subgraph.
    public struct Tensor: Hashable, Sendable, Codable {
        /// The tensor's name.
        public let name: String
        /// Static shape (no negative dimensions).
        public let shape: [Int]
        /// Shape with -1 for dimensions that vary, when the converter recorded it.
        public let shapeSignature: [Int]?
        /// Element type.
        public let type: TensorType
        /// Index into `TFLiteModel.buffers`; buffer 0 (or an empty buffer) means no constant data.
        public let buffer: Int
        /// Quantization parameters, nil when the tensor is not quantized.
        public let quantization: Quantization?
        /// Whether the tensor is a variable (state kept across invocations).
        public let isVariable: Bool
        /// How the tensor's constant data is stored sparse (schema `sparsity`), nil when dense; its buffer
        /// then holds only the values `Sparsity.densePositions(shape:tensor:storedValues:)` places.
        public let sparsity: Sparsity?

        /// Whether the tensor's constant data is stored sparse.
        public var isSparse: Bool { sparsity != nil }

        /// Number of elements (product of `shape`; 1 for a scalar).
        public var elementCount: Int { shape.reduce(1, *) }

        init(_ table: FBTable, label: @autoclosure () -> String, bufferCount: Int) throws {
            let fail = table.buffer.fail
            name = try table.string(TFLiteSchema.Tensor.name, "name") ?? ""
            let name = self.name
            func what() -> String { "\(label()) \"\(name)\"" }
            shape = try table.scalars(TFLiteSchema.Tensor.shape, Int32.self, "shape").map(Int.init)
            var elements = 1
            for dimension in shape {
                guard dimension >= 0 else { throw fail("\(what()) has negative dimension in shape \(shape)") }
                let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
                guard !overflow, product < 1 << 40 else { throw fail("\(what()) has absurd shape \(shape)") }
                elements = product
            }
            let signature = try table.scalars(TFLiteSchema.Tensor.shapeSignature, Int32.self, "shape_signature").map(
                Int.init)
            shapeSignature = signature.isEmpty ? nil : signature
            type = TensorType(rawValue: try table.scalar(TFLiteSchema.Tensor.type, Int8(0)))
            buffer = Int(try table.scalar(TFLiteSchema.Tensor.buffer, UInt32(0)))
            guard buffer < bufferCount else {
                throw fail("\(what()) refers to buffer \(buffer), but the model has \(bufferCount) buffers")
            }
            isVariable = try table.bool(TFLiteSchema.Tensor.isVariable)
            sparsity = try table.table(TFLiteSchema.Tensor.sparsity, "SparsityParameters").map {
                try Sparsity($0, what: what)
            }
            if let q = try table.table(TFLiteSchema.Tensor.quantization, "QuantizationParameters") {
                let scale = try q.floats(TFLiteSchema.QuantizationParameters.scale, "scale")
                let zeroPoint = try q.scalars(TFLiteSchema.QuantizationParameters.zeroPoint, Int64.self, "zero_point")
                    .map { Int(truncatingIfNeeded: $0) }
                let dimension = Int(try q.scalar(TFLiteSchema.QuantizationParameters.quantizedDimension, Int32(0)))
                if !scale.isEmpty, !zeroPoint.isEmpty, scale.count != zeroPoint.count {
                    throw fail("\(what()) has \(scale.count) quantization scales but \(zeroPoint.count) zero points")
                }
                if scale.count > 1, !(0..<shape.count).contains(dimension) || shape[dimension] != scale.count {
                    throw fail(
                        "\(what()) has \(scale.count) per-axis scales that do not match dimension \(dimension) of shape \(shape)"
                    )
                }
                let q = Quantization(
                    scale: scale, zeroPoint: zeroPoint, quantizedDimension: dimension,
                    min: try q.floats(TFLiteSchema.QuantizationParameters.min, "min"),
                    max: try q.floats(TFLiteSchema.QuantizationParameters.max, "max"))
                quantization = q.scale.isEmpty && q.zeroPoint.isEmpty && q.min.isEmpty && q.max.isEmpty ? nil : q
            } else {
                quantization = nil
            }
        }

        /// Bytes this tensor's data occupies, when its type has a fixed size.
        var byteCount: Int? {
            if type == .int4 { return (elementCount + 1) / 2 }
            return type.byteSize.map { $0 * elementCount }
        }

    }

    /// An operator: which operator code, which tensors it reads and writes, and its options.
    public struct Operator: Hashable, Sendable, Codable {
        /// Index into `TFLiteModel.operatorCodes`.
        public let opcodeIndex: Int
        /// The builtin operator (resolved from `opcodeIndex`).
        public let opcode: BuiltinOperator
        /// The custom operator name, for `CUSTOM`.
        public let customCode: String?
        /// Input tensor indices; -1 marks an absent optional input.
        public let inputs: [Int]
        /// Output tensor indices.
        public let outputs: [Int]
        /// Decoded builtin options.
        public let options: BuiltinOptions
        /// Raw custom options (for custom operators), nil when absent.
        public let customOptions: Data?

        init(_ table: FBTable, label: @autoclosure () -> String, operatorCodes: [OperatorCode], tensorCount: Int) throws
        {
            let fail = table.buffer.fail
            opcodeIndex = Int(try table.scalar(TFLiteSchema.Operator.opcodeIndex, UInt32(0)))
            guard opcodeIndex < operatorCodes.count else {
                throw fail("\(label()) uses operator code \(opcodeIndex), but the model has \(operatorCodes.count)")
            }
            let code = operatorCodes[opcodeIndex]
            opcode = code.builtinCode
            customCode = code.customCode
            let opcode = self.opcode
            func what() -> String { "\(label()) (\(opcode.name))" }
            inputs = try table.scalars(TFLiteSchema.Operator.inputs, Int32.self, "inputs").map(Int.init)
            outputs = try table.scalars(TFLiteSchema.Operator.outputs, Int32.self, "outputs").map(Int.init)
            for (position, index) in inputs.enumerated() where index != -1 && !(0..<tensorCount).contains(index) {
                throw fail(
                    "\(what()) input \(position) is tensor \(index), but the subgraph has \(tensorCount) tensors")
            }
            for (position, index) in outputs.enumerated() where !(0..<tensorCount).contains(index) {
                throw fail(
                    "\(what()) output \(position) is tensor \(index), but the subgraph has \(tensorCount) tensors")
            }
            options = try BuiltinOptions.decode(
                type: try table.scalar(TFLiteSchema.Operator.builtinOptionsType, UInt8(0)),
                table: try table.table(TFLiteSchema.Operator.builtinOptions, "BuiltinOptions"),
                in: table.buffer, operatorName: what())
            customOptions = try table.vector(TFLiteSchema.Operator.customOptions, elementSize: 1, "custom_options")?
                .bytes
        }
    }

    /// A subgraph: tensors, the operators in execution order, and the graph's inputs and outputs.
    public struct Subgraph: Hashable, Sendable, Codable {
        /// The subgraph's name (often "main"), empty when absent.
        public let name: String
        /// The tensors.
        public let tensors: [Tensor]
        /// Tensor indices of the graph inputs.
        public let inputs: [Int]
        /// Tensor indices of the graph outputs.
        public let outputs: [Int]
        /// Operators, in execution order.
        public let operators: [Operator]

        init(_ table: FBTable, index: Int, operatorCodes: [OperatorCode], buffers: [Buffer]) throws {
            let fail = table.buffer.fail
            name = try table.string(TFLiteSchema.SubGraph.name, "name") ?? ""
            let tensors = try table.tables(TFLiteSchema.SubGraph.tensors, "tensors") { tensorTable, tensorIndex in
                try Tensor(tensorTable, label: "subgraph \(index) tensor \(tensorIndex)", bufferCount: buffers.count)
            }
            self.tensors = tensors
            for (tensorIndex, tensor) in tensors.enumerated() {
                let size = buffers[tensor.buffer].range.count
                guard size > 0 else { continue }
                if let sparsity = tensor.sparsity {
                    // The buffer holds the stored values only; the metadata must place exactly those.
                    guard let valueSize = tensor.type.byteSize, tensor.type != .int4, size % valueSize == 0 else {
                        throw fail(
                            "subgraph \(index) tensor \(tensorIndex) \"\(tensor.name)\" is sparse \(tensor.type.name) with a \(size)-byte buffer"
                        )
                    }
                    _ = try sparsity.densePositions(
                        shape: tensor.shape, tensor: tensor.name, storedValues: size / valueSize)
                    continue
                }
                guard let expected = tensor.byteCount else { continue }
                guard size == expected else {
                    throw fail(
                        "subgraph \(index) tensor \(tensorIndex) \"\(tensor.name)\" (\(tensor.type.name) \(tensor.shape)) needs \(expected) bytes, but its buffer \(tensor.buffer) has \(size)"
                    )
                }
            }
            inputs = try table.scalars(TFLiteSchema.SubGraph.inputs, Int32.self, "inputs").map(Int.init)
            outputs = try table.scalars(TFLiteSchema.SubGraph.outputs, Int32.self, "outputs").map(Int.init)
            for (kind, list) in [("input", inputs), ("output", outputs)] {
                for (position, tensorIndex) in list.enumerated() where !tensors.indices.contains(tensorIndex) {
                    throw fail(
                        "subgraph \(index) \(kind) \(position) is tensor \(tensorIndex), but the subgraph has \(tensors.count) tensors"
                    )
                }
            }
            operators = try table.tables(TFLiteSchema.SubGraph.operators, "operators") { operatorTable, operatorIndex in
                try Operator(
                    operatorTable, label: "subgraph \(index) operator \(operatorIndex)",
                    operatorCodes: operatorCodes, tensorCount: tensors.count)
            }
        }
    }
}

import Foundation
import VisionErrors

/// TFLite model metadata (the "TFLITE_METADATA" FlatBuffer of tflite-support's metadata_schema.fbs):
/// what the model is, how to normalize its inputs, and which files label its outputs.
public struct ModelMetadata: Hashable, Sendable, Codable {
    /// Name of the metadata entry in a model's `metadata` list.
    public static let entryName = "TFLITE_METADATA"

    /// Model name.
    public let name: String?
    /// Model description.
    public let description: String?
    /// Model version string.
    public let version: String?
    /// Author.
    public let author: String?
    /// License.
    public let license: String?
    /// Minimum metadata parser version needed to read all fields.
    public let minParserVersion: String?
    /// Files that belong to the whole model.
    public let associatedFiles: [AssociatedFile]
    /// Per-subgraph metadata (usually one).
    public let subgraphs: [SubgraphMetadata]

    /// Parses the metadata FlatBuffer `data` (file identifier "M001"); `name` prefixes error messages.
    /// - Throws: `VisionTasksError.invalidModel` naming what is wrong and where.
    public init(data: Data, name: String = entryName) throws {
        let buffer = FlatBuffer(data, label: name)
        let root = try buffer.root("ModelMetadata", fileIdentifier: MetadataSchema.fileIdentifier)
        typealias Field = MetadataSchema.ModelMetadata
        self.name = try root.string(Field.name, "name")
        description = try root.string(Field.description, "description")
        version = try root.string(Field.version, "version")
        author = try root.string(Field.author, "author")
        license = try root.string(Field.license, "license")
        minParserVersion = try root.string(Field.minParserVersion, "min_parser_version")
        associatedFiles = try root.tables(Field.associatedFiles, "associated_files") { t, _ in try AssociatedFile(t) }
        subgraphs = try root.tables(Field.subgraphMetadata, "subgraph_metadata") { t, _ in try SubgraphMetadata(t) }
    }

    /// Names of every associated file mentioned anywhere in the metadata.
    var allAssociatedFileNames: [String] {
        var names = associatedFiles.map(\.name)
        for subgraph in subgraphs {
            names += subgraph.associatedFiles.map(\.name)
            for tensor in subgraph.inputTensors + subgraph.outputTensors {
                names += tensor.associatedFiles.map(\.name)
            }
        }
        return names
    }
}

// MARK: - Subgraph and tensor metadata

/// Metadata of one subgraph: its input and output tensors, in the subgraph's input/output order.
public struct SubgraphMetadata: Hashable, Sendable, Codable {
    /// Subgraph name.
    public let name: String?
    /// Subgraph description.
    public let description: String?
    /// Metadata of each input tensor, in `Subgraph.inputs` order.
    public let inputTensors: [TensorMetadata]
    /// Metadata of each output tensor, in `Subgraph.outputs` order.
    public let outputTensors: [TensorMetadata]
    /// Files that belong to the subgraph.
    public let associatedFiles: [AssociatedFile]
    /// Named FlatBuffers of other schemas (the image segmenter's `SEGMENTER_METADATA`).
    public let customMetadata: [CustomMetadata]

    init(_ table: FBTable) throws {
        typealias Field = MetadataSchema.SubGraphMetadata
        name = try table.string(Field.name, "name")
        description = try table.string(Field.description, "description")
        func tensors(_ field: Field, _ name: String) throws -> [TensorMetadata] {
            try table.tables(field, name) { t, _ in try TensorMetadata(t) }
        }
        inputTensors = try tensors(.inputTensorMetadata, "input_tensor_metadata")
        outputTensors = try tensors(.outputTensorMetadata, "output_tensor_metadata")
        associatedFiles = try table.tables(Field.associatedFiles, "associated_files") { t, _ in try AssociatedFile(t) }
        customMetadata = try table.tables(Field.customMetadata, "custom_metadata") { t, _ in try CustomMetadata(t) }
    }
}

/// A subgraph's custom metadata entry: a name and the bytes of a FlatBuffer of its own schema.
public struct CustomMetadata: Hashable, Sendable, Codable {
    /// The entry's name (`SEGMENTER_METADATA`).
    public let name: String
    /// The entry's FlatBuffer.
    public let data: Data

    init(_ table: FBTable) throws {
        typealias Field = MetadataSchema.CustomMetadata
        name = try table.string(Field.name, "name") ?? ""
        data = Data(try table.scalars(Field.data, UInt8.self, "custom_metadata.data"))
    }
}

/// Metadata of one tensor: name, normalization of its values, value statistics, associated files.
public struct TensorMetadata: Hashable, Sendable, Codable {
    /// Tensor name (as the metadata gives it; may differ from the model's tensor name).
    public let name: String?
    /// Description.
    public let description: String?
    /// Input normalization (value - mean) / std, when the tensor has a NormalizationOptions process unit.
    public let normalization: NormalizationOptions?
    /// The score threshold of a classifier output, when the tensor has a ScoreThresholdingOptions
    /// process unit (MediaPipe's default `score_threshold` for that output).
    public let scoreThreshold: Float?
    /// The color space of an image tensor, when given ("RGB", "GRAYSCALE", "UNKNOWN").
    public let colorSpace: String?
    /// Statistics: maximum values per channel, often empty.
    public let statsMax: [Float]
    /// Statistics: minimum values per channel, often empty.
    public let statsMin: [Float]
    /// Files that belong to this tensor (labels, ...).
    public let associatedFiles: [AssociatedFile]

    init(_ table: FBTable) throws {
        typealias Field = MetadataSchema.TensorMetadata
        typealias Content = MetadataSchema.Content
        name = try table.string(Field.name, "name")
        description = try table.string(Field.description, "description")
        associatedFiles = try table.tables(Field.associatedFiles, "associated_files") { t, _ in try AssociatedFile(t) }
        var colorSpace: String?
        if let content = try table.table(Field.content, "Content"),
            try content.scalar(Content.contentPropertiesType, UInt8(0))
                == MetadataSchema.ContentProperties.imageProperties.rawValue,
            let properties = try content.table(Content.contentProperties, "ImageProperties")
        {
            let raw = try properties.scalar(MetadataSchema.ImageProperties.colorSpace, Int8(0))
            colorSpace = MetadataSchema.ColorSpaceType(rawValue: raw)?.name ?? "COLOR_SPACE_\(raw)"
        }
        self.colorSpace = colorSpace
        if let stats = try table.table(Field.stats, "Stats") {
            statsMax = try stats.floats(MetadataSchema.Stats.max, "max")
            statsMin = try stats.floats(MetadataSchema.Stats.min, "min")
        } else {
            statsMax = []
            statsMin = []
        }
        // Of the ProcessUnitOptions, NormalizationOptions and ScoreThresholdingOptions; other units are not
        // needed by the vision tasks.
        var normalization: NormalizationOptions?
        var scoreThreshold: Float?
        typealias Unit = MetadataSchema.ProcessUnit
        _ = try table.tables(Field.processUnits, "process_units") { unit, _ in
            switch MetadataSchema.ProcessUnitOptions(rawValue: try unit.scalar(Unit.optionsType, UInt8(0))) {
            case .normalizationOptions:
                if normalization == nil, let options = try unit.table(Unit.options, "NormalizationOptions") {
                    normalization = NormalizationOptions(
                        mean: try options.floats(MetadataSchema.NormalizationOptions.mean, "mean"),
                        std: try options.floats(MetadataSchema.NormalizationOptions.std, "std"))
                }
            case .scoreThresholdingOptions:
                if scoreThreshold == nil, let options = try unit.table(Unit.options, "ScoreThresholdingOptions") {
                    scoreThreshold = try options.float(MetadataSchema.ScoreThresholdingOptions.globalScoreThreshold, 0)
                }
            case .some(.none), nil:
                break
            }
        }
        self.normalization = normalization
        self.scoreThreshold = scoreThreshold
    }
}

// MARK: - Normalization and associated files

/// Input normalization: value' = (value - mean[c]) / std[c], with one value broadcast over all channels.
public struct NormalizationOptions: Hashable, Sendable, Codable {
    /// Means, one per channel (or one for all).
    public let mean: [Float]
    /// Standard deviations, one per channel (or one for all).
    public let std: [Float]
}

/// A file associated with a model, subgraph or tensor.
public struct AssociatedFile: Hashable, Sendable, Codable {
    /// File name (the name of the entry in the model's appended zip).
    public let name: String
    /// Description.
    public let description: String?
    /// What the file holds.
    public let type: AssociatedFileType
    /// Locale of a label file ("en", ...), nil when not given.
    public let locale: String?

    init(_ table: FBTable) throws {
        typealias Field = MetadataSchema.AssociatedFile
        name = try table.string(Field.name, "name") ?? ""
        description = try table.string(Field.description, "description")
        type = AssociatedFileType(rawValue: try table.scalar(Field.type, Int8(0))) ?? .unknown
        locale = try table.string(Field.locale, "locale")
    }
}

/// What an associated file holds (metadata schema enum `AssociatedFileType`).
public enum AssociatedFileType: Int8, Hashable, Sendable, Codable {
    /// Unknown, or a value this reader does not know.
    case unknown = 0
    /// Descriptions.
    case descriptions = 1
    /// One label per line for each element along the tensor's last axis.
    case tensorAxisLabels = 2
    /// One label per line for each value of the tensor.
    case tensorValueLabels = 3
    /// Score calibration parameters.
    case tensorAxisScoreCalibration = 4
    /// Vocabulary.
    case vocabulary = 5
    /// ScaNN index.
    case scannIndexFile = 6
}

// MARK: - Label files

/// Label files: one label per line.
enum LabelFile {
    /// The labels of a label file: lines without their line endings, trailing blank lines dropped.
    static func parse(_ bytes: Data) -> [String] {
        var lines = String(decoding: bytes, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        return lines
    }
}

// The parts of TFLite's metadata schema (metadata_schema.fbs, in tflite-support and in MediaPipe as
// mediapipe/tasks/metadata/metadata_schema.fbs) that VisionTasks reads (`ModelMetadata`) or writes
// (`ClassifierModelWriter`), declared once for both, as TFLiteSchema.swift declares schema.fbs: a table is an enum
// whose cases are its fields in declaration order (a case's raw value is the field's id); a union or an enum lists
// the tags or values used. tools/checks/check_schema_ids.py checks every number here against MediaPipe's
// generated schema.

/// The TFLite metadata schema (metadata_schema.fbs): its file identifier, tables, unions and enums.
package enum MetadataSchema {
    /// The file identifier of a metadata FlatBuffer (`file_identifier "M001"`).
    package static let fileIdentifier = "M001"

    /// Table `ModelMetadata`, the root.
    package enum ModelMetadata: Int, FlatBufferField {
        case name, description, version, subgraphMetadata, author, license, associatedFiles, minParserVersion
    }

    /// Table `SubGraphMetadata`.
    package enum SubGraphMetadata: Int, FlatBufferField {
        case name, description, inputTensorMetadata, outputTensorMetadata, associatedFiles, inputProcessUnits
        case outputProcessUnits, inputTensorGroups, outputTensorGroups, customMetadata
    }

    /// Table `CustomMetadata`: a named FlatBuffer of another schema (`SEGMENTER_METADATA`).
    package enum CustomMetadata: Int, FlatBufferField { case name, data }

    /// Table `TensorMetadata`.
    package enum TensorMetadata: Int, FlatBufferField {
        case name, description, dimensionNames, content, processUnits, stats, associatedFiles
    }

    /// Table `Content`; `content_properties` is a `ContentProperties` union.
    package enum Content: Int, FlatBufferField { case contentPropertiesType, contentProperties }

    /// Union `ContentProperties`: the tags VisionTasks reads or writes.
    package enum ContentProperties: UInt8 { case none = 0, featureProperties = 1, imageProperties = 2 }

    /// Table `ImageProperties`.
    package enum ImageProperties: Int, FlatBufferField { case colorSpace }

    /// Enum `ColorSpaceType`.
    package enum ColorSpaceType: Int8 {
        case unknown = 0, rgb = 1, grayscale = 2

        /// The schema's name of the value ("RGB").
        package var name: String {
            switch self {
            case .unknown: return "UNKNOWN"
            case .rgb: return "RGB"
            case .grayscale: return "GRAYSCALE"
            }
        }
    }

    /// Table `Stats`.
    package enum Stats: Int, FlatBufferField { case max, min }

    /// Table `ProcessUnit`; `options` is a `ProcessUnitOptions` union.
    package enum ProcessUnit: Int, FlatBufferField { case optionsType, options }

    /// Union `ProcessUnitOptions`: the tags VisionTasks reads or writes.
    package enum ProcessUnitOptions: UInt8 { case none = 0, normalizationOptions = 1, scoreThresholdingOptions = 3 }

    /// Table `NormalizationOptions`.
    package enum NormalizationOptions: Int, FlatBufferField { case mean, std }

    /// Table `ScoreThresholdingOptions`.
    package enum ScoreThresholdingOptions: Int, FlatBufferField { case globalScoreThreshold }

    /// Table `AssociatedFile`; its `type` is `AssociatedFileType` (ModelMetadata.swift).
    package enum AssociatedFile: Int, FlatBufferField { case name, description, type, locale }
}

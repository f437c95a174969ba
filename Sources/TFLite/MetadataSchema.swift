// The parts of TFLite's metadata schema (metadata_schema.fbs, in tflite-support and in MediaPipe as
// mediapipe/tasks/metadata/metadata_schema.fbs) that VisionTasks reads (`ModelMetadata`) or writes
// (`ClassifierModelWriter`), declared once for both: a table is an enum of its fields, each named as the schema
// names the field (in lower camel case) and valued with its id; a union or an enum lists the tags and values
// used. tools/checks/check_schema_ids.py checks every number here against MediaPipe's generated schema.

/// The TFLite metadata schema (metadata_schema.fbs): its file identifier, tables, unions and enums.
package enum MetadataSchema {
    /// The file identifier of a metadata FlatBuffer (`file_identifier "M001"`).
    package static let fileIdentifier = "M001"

    /// table `ModelMetadata`, the root.
    package enum ModelMetadata: Int, FlatBufferField {
        /// `name`
        case name = 0
        /// `description`
        case description = 1
        /// `version`
        case version = 2
        /// `subgraph_metadata`
        case subgraphMetadata = 3
        /// `author`
        case author = 4
        /// `license`
        case license = 5
        /// `associated_files`
        case associatedFiles = 6
        /// `min_parser_version`
        case minParserVersion = 7
    }

    /// table `SubGraphMetadata`.
    package enum SubGraphMetadata: Int, FlatBufferField {
        /// `name`
        case name = 0
        /// `description`
        case description = 1
        /// `input_tensor_metadata`
        case inputTensorMetadata = 2
        /// `output_tensor_metadata`
        case outputTensorMetadata = 3
        /// `associated_files`
        case associatedFiles = 4
    }

    /// table `TensorMetadata`.
    package enum TensorMetadata: Int, FlatBufferField {
        /// `name`
        case name = 0
        /// `description`
        case description = 1
        /// `content`
        case content = 3
        /// `process_units`
        case processUnits = 4
        /// `stats`
        case stats = 5
        /// `associated_files`
        case associatedFiles = 6
    }

    /// table `Content`.
    package enum Content: Int, FlatBufferField {
        /// `content_properties_type`
        case contentPropertiesType = 0
        /// `content_properties`
        case contentProperties = 1
    }

    /// union `ContentProperties`: the tags VisionTasks reads or writes.
    package enum ContentProperties: UInt8 {
        /// `NONE`
        case none = 0
        /// `FeatureProperties`
        case featureProperties = 1
        /// `ImageProperties`
        case imageProperties = 2
    }

    /// table `ImageProperties`.
    package enum ImageProperties: Int, FlatBufferField {
        /// `color_space`
        case colorSpace = 0
    }

    /// enum `ColorSpaceType` (byte).
    package enum ColorSpaceType: Int8 {
        /// `UNKNOWN`
        case unknown = 0
        /// `RGB`
        case rgb = 1
        /// `GRAYSCALE`
        case grayscale = 2

        /// The schema's name of the value ("RGB").
        package var name: String {
            switch self {
            case .unknown: return "UNKNOWN"
            case .rgb: return "RGB"
            case .grayscale: return "GRAYSCALE"
            }
        }
    }

    /// table `Stats`.
    package enum Stats: Int, FlatBufferField {
        /// `max`
        case max = 0
        /// `min`
        case min = 1
    }

    /// table `ProcessUnit`.
    package enum ProcessUnit: Int, FlatBufferField {
        /// `options_type`
        case optionsType = 0
        /// `options`
        case options = 1
    }

    /// union `ProcessUnitOptions`: the tags VisionTasks reads or writes.
    package enum ProcessUnitOptions: UInt8 {
        /// `NONE`
        case none = 0
        /// `NormalizationOptions`
        case normalizationOptions = 1
        /// `ScoreThresholdingOptions`
        case scoreThresholdingOptions = 3
    }

    /// table `NormalizationOptions`.
    package enum NormalizationOptions: Int, FlatBufferField {
        /// `mean`
        case mean = 0
        /// `std`
        case std = 1
    }

    /// table `ScoreThresholdingOptions`.
    package enum ScoreThresholdingOptions: Int, FlatBufferField {
        /// `global_score_threshold`
        case globalScoreThreshold = 0
    }

    /// table `AssociatedFile` (its `type` is `AssociatedFileType`, declared in ModelMetadata.swift).
    package enum AssociatedFile: Int, FlatBufferField {
        /// `name`
        case name = 0
        /// `description`
        case description = 1
        /// `type`
        case type = 2
        /// `locale`
        case locale = 3
    }
}

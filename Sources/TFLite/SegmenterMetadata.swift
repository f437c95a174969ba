import Foundation
import VisionErrors

/// The activation of an image segmentation model's output, as its `SEGMENTER_METADATA` custom metadata
/// declares it (MediaPipe's image_segmenter_metadata_schema.fbs, enum `Activation`).
public enum SegmenterActivation: Int8, Sendable {
    /// The output is used as it is (a model that ends in its own sigmoid, or none declared).
    case none = 0
    /// A sigmoid per value.
    case sigmoid = 1
    /// A softmax over the channels of each pixel.
    case softmax = 2
}

extension TFLiteModel {
    /// The name of the custom metadata holding a segmenter's options (MediaPipe's `kSegmentationMetadataName`).
    public static let segmenterMetadataName = "SEGMENTER_METADATA"

    /// The output activation the first subgraph's `SEGMENTER_METADATA` declares (root table
    /// `ImageSegmenterOptions`, file identifier "V001", field 0 `activation`), or nil when there is none
    /// (MediaPipe then uses NONE). Throws `invalidModel` for an entry that does not parse or an unknown value.
    public func segmenterActivation() throws -> SegmenterActivation? {
        guard
            let entry = modelMetadata?.subgraphs.first?.customMetadata.first(where: {
                $0.name == Self.segmenterMetadataName
            })
        else { return nil }
        let root = try FlatBuffer(entry.data, label: Self.segmenterMetadataName).root("ImageSegmenterOptions")
        let raw = try root.scalar(SegmenterOptionsField.activation, Int8(0))
        guard let activation = SegmenterActivation(rawValue: raw) else {
            throw VisionTasksError.invalidModel(
                "\(Self.segmenterMetadataName) declares activation \(raw); MediaPipe knows 0 (NONE), 1 (SIGMOID), 2 (SOFTMAX)"
            )
        }
        return activation
    }
}

/// Table `ImageSegmenterOptions` of image_segmenter_metadata_schema.fbs.
private enum SegmenterOptionsField: Int, FlatBufferField { case activation, minParserVersion }

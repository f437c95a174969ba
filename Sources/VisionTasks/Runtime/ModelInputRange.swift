import TFLite
import VisionErrors

/// The value range a float image model's input expects, as MediaPipe derives it from the model's
/// normalization metadata: pixel levels 0 and 255 through `(level - mean) / std`, one mean and std
/// for all channels. Throws `unsupportedModel` (naming `name`) when the metadata is missing,
/// per-channel, or degenerate.
package func modelInputRange(_ model: TFLiteModel, name: String) throws -> ClosedRange<Float> {
    guard let normalization = model.modelMetadata?.subgraphs.first?.inputTensors.first?.normalization,
        let mean = normalization.mean.first, let std = normalization.std.first
    else {
        throw VisionTasksError.unsupportedModel(
            "\(name): the float input needs NormalizationOptions metadata to preprocess images (as MediaPipe requires)")
    }
    guard normalization.mean.allSatisfy({ $0 == mean }), normalization.std.allSatisfy({ $0 == std }) else {
        throw VisionTasksError.unsupportedModel(
            "\(name): per-channel input normalization is not supported (as in MediaPipe)")
    }
    guard abs(std) >= Float.ulpOfOne else {
        throw VisionTasksError.unsupportedModel("\(name): input normalization std is 0")
    }
    let low = (0 - mean) / std, high = (255 - mean) / std
    guard low < high else {
        throw VisionTasksError.unsupportedModel(
            "\(name): input normalization (mean \(mean), std \(std)) inverts the range")
    }
    return low...high
}

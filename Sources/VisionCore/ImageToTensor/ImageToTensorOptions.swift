import VisionErrors

/// What fills the tensor where the region of interest reaches outside the image
/// (MediaPipe's `ImageToTensorCalculatorOptions.BorderMode`).
public enum BorderMode: String, Sendable, Codable {
    /// Zeros (black before normalisation): the face and palm detectors' letterbox.
    case zero
    /// The nearest edge pixel: MediaPipe's default, used for the landmark models' crops.
    case replicate
}

/// How an image region becomes a model's input tensor (MediaPipe's ImageToTensorCalculator options). The size and
/// range are checked when made and fixed from then on.
public struct ImageToTensorOptions: Sendable, Equatable {
    /// Tensor width in pixels.
    public private(set) var outputWidth: Int
    /// Tensor height in pixels.
    public private(set) var outputHeight: Int
    /// Pad the region of interest (not the image) to the tensor's aspect ratio instead of stretching it.
    public private(set) var keepAspectRatio: Bool
    /// The values pixel levels 0 and 255 map to, e.g. `-1...1` or `0...1`.
    public private(set) var outputRange: ClosedRange<Float>
    /// What fills the tensor outside the image.
    public var borderMode: BorderMode

    /// Options for a `outputWidth` x `outputHeight` RGB tensor. Throws `invalidArgument` for a
    /// non-positive size or an empty range.
    public init(
        outputWidth: Int, outputHeight: Int, keepAspectRatio: Bool = false,
        outputRange: ClosedRange<Float> = 0...1, borderMode: BorderMode = .replicate
    ) throws {
        guard outputWidth > 0, outputHeight > 0, outputWidth <= 16384, outputHeight <= 16384 else {
            throw VisionTasksError.invalidArgument(
                "image to tensor: output size \(outputWidth)x\(outputHeight) is not usable")
        }
        guard outputRange.lowerBound < outputRange.upperBound, outputRange.lowerBound.isFinite,
            outputRange.upperBound.isFinite
        else {
            throw VisionTasksError.invalidArgument(
                "image to tensor: output range \(outputRange) is empty or not finite")
        }
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.keepAspectRatio = keepAspectRatio
        self.outputRange = outputRange
        self.borderMode = borderMode
    }

    /// Number of floats the tensor holds (`outputWidth * outputHeight * 3`).
    public var elementCount: Int { outputWidth * outputHeight * 3 }
}

/// How a tensor made by `ImageToTensor` relates to the image, for projecting results back.
public struct ImageToTensorTransform: Sendable, Equatable {
    /// Letterbox padding of the tensor (zero unless `keepAspectRatio`).
    public let letterboxPadding: LetterboxPadding
    /// The region the tensor shows, after padding, in the upright image's normalised coordinates.
    public let roi: NormalizedRect
    /// MediaPipe's 4x4 row-major matrix mapping a point normalised to the tensor (0...1, with the
    /// letterbox) to the upright image's normalised coordinates.
    public let matrix: [Float]
}

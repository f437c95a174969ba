/// A detection in relative coordinates (fractions of a frame's width and height), as MediaPipe's
/// `Detection` proto carries it between the decoding, suppression and projection steps.
public struct RelativeDetection: Sendable, Equatable {
    /// The detection's score (after the sigmoid, when the decoder applies one).
    public var score: Float
    /// The class the score belongs to.
    public var classIndex: Int
    /// Left edge, a fraction of the frame width.
    public var xMin: Float
    /// Top edge, a fraction of the frame height.
    public var yMin: Float
    /// Width, a fraction of the frame width.
    public var width: Float
    /// Height, a fraction of the frame height.
    public var height: Float
    /// Keypoints (x, y), fractions of the frame width and height.
    public var keypoints: [SIMD2<Float>]

    /// Creates a detection.
    public init(
        score: Float, classIndex: Int, xMin: Float, yMin: Float, width: Float, height: Float,
        keypoints: [SIMD2<Float>] = []
    ) {
        self.score = score
        self.classIndex = classIndex
        self.xMin = xMin
        self.yMin = yMin
        self.width = width
        self.height = height
        self.keypoints = keypoints
    }
}

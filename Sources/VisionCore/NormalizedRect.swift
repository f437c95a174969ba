/// MediaPipe's region of interest: a rectangle in normalized image coordinates (fractions of the
/// image width and height), rotated by `rotation` radians about its centre.
public struct NormalizedRect: Sendable, Equatable, Codable {
    /// Horizontal centre, a fraction of the image width.
    public var xCenter: Float
    /// Vertical centre, a fraction of the image height.
    public var yCenter: Float
    /// Width, a fraction of the image width (measured along the rect's own, rotated, x axis).
    public var width: Float
    /// Height, a fraction of the image height (measured along the rect's own, rotated, y axis).
    public var height: Float
    /// Clockwise rotation in radians, in image coordinates (y pointing down).
    public var rotation: Float

    /// Creates a rect from its centre, size and rotation.
    public init(xCenter: Float, yCenter: Float, width: Float, height: Float, rotation: Float = 0) {
        self.xCenter = xCenter
        self.yCenter = yCenter
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The rect covering the whole image, unrotated.
    public static let fullImage = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1)
}

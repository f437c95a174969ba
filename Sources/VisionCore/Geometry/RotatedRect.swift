extension NormalizedRect {
    /// The rectangle in pixels of an image of `imageWidth` x `imageHeight`.
    public func denormalized(imageWidth: Int, imageHeight: Int) -> RotatedRect {
        RotatedRect(
            centerX: xCenter * Float(imageWidth), centerY: yCenter * Float(imageHeight),
            width: width * Float(imageWidth), height: height * Float(imageHeight), rotation: rotation)
    }
}

/// A rotated rectangle in pixels (MediaPipe's `RotatedRect`): centre, size along its own axes,
/// rotation in radians.
public struct RotatedRect: Sendable, Codable, Equatable {
    /// Centre x in pixels.
    public var centerX: Float
    /// Centre y in pixels.
    public var centerY: Float
    /// Width in pixels, along the rectangle's rotated x axis.
    public var width: Float
    /// Height in pixels, along the rectangle's rotated y axis.
    public var height: Float
    /// Rotation in radians about the centre.
    public var rotation: Float

    /// A rectangle from its centre, size and rotation.
    public init(centerX: Float, centerY: Float, width: Float, height: Float, rotation: Float = 0) {
        self.centerX = centerX
        self.centerY = centerY
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The rectangle normalised by an image of `imageWidth` x `imageHeight`.
    public func normalized(imageWidth: Int, imageHeight: Int) -> NormalizedRect {
        NormalizedRect(
            xCenter: centerX / Float(imageWidth), yCenter: centerY / Float(imageHeight),
            width: width / Float(imageWidth), height: height / Float(imageHeight), rotation: rotation)
    }
}

/// Letterbox padding as fractions of the tensor's width (left, right) and height (top, bottom),
/// in MediaPipe's order `[left, top, right, bottom]`.
public struct LetterboxPadding: Sendable, Codable, Equatable {
    /// Fraction of the tensor width padded on the left.
    public var left: Float
    /// Fraction of the tensor height padded on the top.
    public var top: Float
    /// Fraction of the tensor width padded on the right.
    public var right: Float
    /// Fraction of the tensor height padded on the bottom.
    public var bottom: Float

    /// Padding from its four sides.
    public init(left: Float, top: Float, right: Float, bottom: Float) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// No padding.
    public static let zero = LetterboxPadding(left: 0, top: 0, right: 0, bottom: 0)

    /// Maps a point normalised to the tensor back to the padded-away region of interest
    /// (MediaPipe's letterbox removal for detections and landmarks).
    public func removing(fromX x: Float, y: Float) -> (x: Float, y: Float) {
        ((x - left) / (1 - left - right), (y - top) / (1 - top - bottom))
    }
}

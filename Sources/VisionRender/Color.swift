/// A colour with opacity, each component in 0...1.
public struct Color: Hashable, Sendable {
    /// Red, 0...1.
    public var red: Double
    /// Green, 0...1.
    public var green: Double
    /// Blue, 0...1.
    public var blue: Double
    /// Opacity, 0 (transparent) ... 1 (opaque).
    public var alpha: Double

    /// A colour from 8-bit components and an opacity.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, alpha: Double = 1) {
        self.red = Double(red) / 255
        self.green = Double(green) / 255
        self.blue = Double(blue) / 255
        self.alpha = alpha
    }
}

/// The colours of the overlays, close to those of MediaPipe's sample apps and drawing utilities.
enum Palette {
    static let white = Color(255, 255, 255)
    static let labelBackground = Color(0, 0, 0, alpha: 0.6)
    /// Face detector box and keypoints (the sample apps' box colour and red keypoints).
    static let faceBox = Color(0, 200, 255)
    static let faceKeypoint = Color(255, 48, 48)
    /// Face mesh: light grey tesselation; the subject's right side red, left side green; lips and oval white.
    static let tesselation = Color(192, 192, 192, alpha: 0.7)
    static let rightSide = Color(255, 48, 48)
    static let leftSide = Color(48, 255, 48)
    static let lips = Color(224, 224, 224)
    static let faceOval = Color(224, 224, 224)
    /// Hands: white bones, red joints, handedness in MediaPipe's example green.
    static let handBone = Color(255, 255, 255)
    static let handJoint = Color(255, 48, 48)
    static let handednessText = Color(88, 205, 54)
    /// The head-pose gizmo's axes: the face's x (the person's left, red), y (up, green), z (forwards, blue).
    static let poseBone = Color(255, 255, 255)
    static let poseLeft = Color(255, 138, 0)
    static let poseRight = Color(0, 217, 231)
    static let poseCenter = Color(230, 230, 230)
    /// Segmentation masks, one colour per person in turn, drawn at half strength.
    static let poseMasks = [
        Color(64, 160, 255, alpha: 0.5), Color(255, 96, 160, alpha: 0.5), Color(120, 230, 80, alpha: 0.5),
    ]
    static let poseAxes = [Color(255, 64, 64), Color(64, 230, 64), Color(64, 128, 255)]
}

import VisionErrors

/// How the stored pixels must be turned to show the image upright, with the meaning of
/// `UIImage.Orientation` (and of the EXIF orientations 1, 3, 6 and 8 for the four rotations).
///
/// The tasks accept `.up`, `.down`, `.left` and `.right` and reject the mirrored ones with
/// `VisionTasksError.invalidImage`, as MediaPipe for iOS does.
public enum ImageOrientation: Int, Sendable, Codable, CaseIterable {
    /// The stored pixels are upright.
    case up
    /// The stored pixels are upside down: the upright image is them turned 180°.
    case down
    /// The upright image is the stored pixels turned 90° counterclockwise (EXIF 8).
    case left
    /// The upright image is the stored pixels turned 90° clockwise (EXIF 6; iPhone portrait frames).
    case right
    /// Mirrored left to right.
    case upMirrored
    /// Mirrored top to bottom.
    case downMirrored
    /// Mirrored, then turned 90° counterclockwise.
    case leftMirrored
    /// Mirrored, then turned 90° clockwise.
    case rightMirrored

    /// Whether the orientation is one of the four mirrored ones, which the tasks reject.
    public var isMirrored: Bool {
        switch self {
        case .up, .down, .left, .right: return false
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: return true
        }
    }

    /// Whether the upright image's width is the stored pixels' height.
    public var swapsWidthAndHeight: Bool {
        switch self {
        case .left, .right, .leftMirrored, .rightMirrored: return true
        case .up, .down, .upMirrored, .downMirrored: return false
        }
    }

    /// The clockwise rotation, in degrees, that turns the stored pixels upright: the value to give
    /// MediaPipe's `ImageProcessingOptions.rotation_degrees` for the same frame (0, 90, 180 or 270).
    /// Throws for the mirrored orientations.
    /// - Throws: `VisionTasksError.invalidImage` naming the orientation, for the four mirrored ones.
    public func rotationDegrees() throws -> Int {
        switch self {
        case .up: return 0
        case .right: return 90
        case .down: return 180
        case .left: return 270
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored:
            throw VisionTasksError.invalidImage(
                "unsupported orientation \(self): the mirrored orientations (upMirrored, downMirrored, "
                    + "leftMirrored, rightMirrored) are not supported, as in MediaPipe")
        }
    }
}

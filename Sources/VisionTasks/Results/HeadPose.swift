import VisionCore

/// Where a head points, in degrees, from its facial transformation matrix, with the convention of
/// ML Kit and Apple Vision: `roll` > 0 is the face turned counter-clockwise as the picture is shown,
/// `yaw` > 0 turned towards the picture's right (the person's left), `pitch` > 0 tilted up. The
/// rotation is Rz(roll) · Ry(yaw) · Rx(−pitch) in the camera's frame (x right, y up, z towards the
/// viewer): pitch first, then yaw, then roll.
public struct HeadPose: Codable, Sendable, Equatable {
    /// Turn about the vertical axis, degrees (−90…90); positive towards the picture's right.
    public let yaw: Float
    /// Tilt about the horizontal axis, degrees (−180…180); positive up.
    public let pitch: Float
    /// Turn about the viewing axis, degrees (−180…180); positive counter-clockwise as shown.
    public let roll: Float

    /// Creates a pose.
    public init(yaw: Float, pitch: Float, roll: Float) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }

    /// The pose of a 4×4 facial transformation matrix; nil for another shape or a degenerate rotation.
    public init?(_ matrix: TransformMatrix) {
        guard matrix.rows == 4, matrix.columns == 4, let angles = headPoseAngles(fromTransform: matrix.data) else {
            return nil
        }
        self.init(yaw: angles.yaw, pitch: angles.pitch, roll: angles.roll)
    }
}

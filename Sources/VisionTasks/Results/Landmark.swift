/// A landmark in normalized image coordinates: x and y in [0, 1] of the image width and height,
/// z the depth at roughly the scale of x (smaller is closer to the camera).
public typealias NormalizedLandmark = LandmarkPoint<NormalizedCoordinates>

/// A landmark in world coordinates, in metres, with the origin at the object's centre.
public typealias Landmark = LandmarkPoint<WorldCoordinates>

/// The coordinates of a ``NormalizedLandmark``: fractions of the image width and height.
public enum NormalizedCoordinates: Sendable {}

/// The coordinates of a world ``Landmark``: metres, with the origin at the object's centre.
public enum WorldCoordinates: Sendable {}

/// The one implementation of ``NormalizedLandmark`` and ``Landmark``: a point in the coordinates
/// `Space` names, with the visibility and presence the model may give.
public struct LandmarkPoint<Space>: Codable, Sendable, Equatable {
    /// Horizontal position: a fraction of the image width (normalized) or metres (world).
    public let x: Float
    /// Vertical position: a fraction of the image height (normalized) or metres (world).
    public let y: Float
    /// Depth: roughly the scale of `x` (normalized; smaller is closer to the camera) or metres (world).
    public let z: Float
    /// The likelihood that the landmark is visible, when the model gives one.
    public let visibility: Float?
    /// The likelihood that the landmark is present in the image, when the model gives one.
    public let presence: Float?

    /// Creates a landmark.
    public init(x: Float, y: Float, z: Float, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }

    private enum CodingKeys: String, CodingKey { case x, y, z, visibility, presence }

    /// Encodes every field, writing `null` for absent visibility and presence (Swift's synthesized
    /// encoding would leave them out).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(z, forKey: .z)
        try c.encode(visibility, forKey: .visibility)
        try c.encode(presence, forKey: .presence)
    }
}

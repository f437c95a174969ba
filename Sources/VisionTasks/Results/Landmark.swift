/// A landmark in normalized image coordinates: x and y in [0, 1] of the image width and height,
/// z the depth at roughly the scale of x (smaller is closer to the camera).
public struct NormalizedLandmark: Codable, Sendable, Equatable {
    /// Horizontal position, a fraction of the image width.
    public let x: Float
    /// Vertical position, a fraction of the image height.
    public let y: Float
    /// Depth, in roughly the same scale as `x`.
    public let z: Float
    /// The likelihood that the landmark is visible, when the model gives one.
    public let visibility: Float?
    /// The likelihood that the landmark is present in the image, when the model gives one.
    public let presence: Float?

    /// Creates a normalized landmark.
    public init(x: Float, y: Float, z: Float, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }

    /// Encodes every field, writing `null` for absent visibility and presence.
    public func encode(to encoder: any Encoder) throws {
        try LandmarkJSON.encode(x, y, z, visibility, presence, to: encoder)
    }
}

/// A landmark in world coordinates, in metres, with the origin at the object's centre.
public struct Landmark: Codable, Sendable, Equatable {
    /// X coordinate in metres.
    public let x: Float
    /// Y coordinate in metres.
    public let y: Float
    /// Z coordinate in metres.
    public let z: Float
    /// The likelihood that the landmark is visible, when the model gives one.
    public let visibility: Float?
    /// The likelihood that the landmark is present, when the model gives one.
    public let presence: Float?

    /// Creates a world landmark.
    public init(x: Float, y: Float, z: Float, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }

    /// Encodes every field, writing `null` for absent visibility and presence.
    public func encode(to encoder: any Encoder) throws {
        try LandmarkJSON.encode(x, y, z, visibility, presence, to: encoder)
    }
}

/// The JSON both landmark types write: every field, `null` for an absent visibility or presence
/// (Swift's synthesized encoding would leave them out).
private enum LandmarkJSON {
    private enum Keys: String, CodingKey { case x, y, z, visibility, presence }

    static func encode(_ x: Float, _ y: Float, _ z: Float, _ visibility: Float?, _ presence: Float?,
                       to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(z, forKey: .z)
        try c.encode(visibility, forKey: .visibility)
        try c.encode(presence, forKey: .presence)
    }
}

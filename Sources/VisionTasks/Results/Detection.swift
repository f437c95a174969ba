import Foundation

/// A keypoint of a detection in normalized image coordinates.
public struct NormalizedKeypoint: Codable, Sendable, Equatable {
    /// The (x, y) position, fractions of the image width and height.
    public let location: CGPoint
    /// The keypoint's label, if the model names it.
    public let label: String?
    /// The keypoint's score, if the model gives one.
    public let score: Float?

    /// Creates a keypoint.
    public init(location: CGPoint, label: String? = nil, score: Float? = nil) {
        self.location = location
        self.label = label
        self.score = score
    }

    private enum CodingKeys: String, CodingKey { case x, y, label, score }

    /// Decodes `{"x", "y", "label", "score"}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        location = CGPoint(x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y))
        label = try c.decodeIfPresent(String.self, forKey: .label)
        score = try c.decodeIfPresent(Float.self, forKey: .score)
    }

    /// Encodes as `{"x", "y", "label", "score"}`, with `null` for absent fields.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Double(location.x), forKey: .x)
        try c.encode(Double(location.y), forKey: .y)
        try c.encode(label, forKey: .label)
        try c.encode(score, forKey: .score)
    }
}

/// One detected object: its categories, its box in pixels of the (upright) image, and its keypoints.
public struct Detection: Codable, Sendable, Equatable {
    /// The predicted categories, best first.
    public let categories: [ResultCategory]
    /// The bounding box in pixel coordinates of the image.
    public let boundingBox: CGRect
    /// The keypoints in normalized coordinates, if the detector gives them.
    public let keypoints: [NormalizedKeypoint]?

    /// Creates a detection.
    public init(categories: [ResultCategory], boundingBox: CGRect, keypoints: [NormalizedKeypoint]?) {
        self.categories = categories
        self.boundingBox = boundingBox
        self.keypoints = keypoints
    }

    private enum CodingKeys: String, CodingKey { case categories, boundingBox, keypoints }
    private enum BoxKeys: String, CodingKey { case originX, originY, width, height }

    /// Decodes the JSON form written by `encode(to:)`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        categories = try c.decode([ResultCategory].self, forKey: .categories)
        let box = try c.nestedContainer(keyedBy: BoxKeys.self, forKey: .boundingBox)
        boundingBox = CGRect(
            x: try box.decode(Double.self, forKey: .originX),
            y: try box.decode(Double.self, forKey: .originY),
            width: try box.decode(Double.self, forKey: .width),
            height: try box.decode(Double.self, forKey: .height))
        keypoints = try c.decodeIfPresent([NormalizedKeypoint].self, forKey: .keypoints)
    }

    /// Encodes with the box as `{"originX", "originY", "width", "height"}` (iOS property names).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(categories, forKey: .categories)
        var box = c.nestedContainer(keyedBy: BoxKeys.self, forKey: .boundingBox)
        try box.encode(Double(boundingBox.origin.x), forKey: .originX)
        try box.encode(Double(boundingBox.origin.y), forKey: .originY)
        try box.encode(Double(boundingBox.size.width), forKey: .width)
        try box.encode(Double(boundingBox.size.height), forKey: .height)
        try c.encode(keypoints, forKey: .keypoints)
    }
}

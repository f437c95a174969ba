/// A line between two landmarks, by their indices (iOS: `Connection`, MediaPipe's `MPPConnection`).
public struct Connection: Hashable, Codable, Sendable {
    /// The index of the landmark the line starts at.
    public let start: Int
    /// The index of the landmark the line ends at.
    public let end: Int

    /// A connection from landmark `start` to landmark `end`.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// The compact form the generated tables use.
    init(_ start: Int, _ end: Int) {
        self.init(start: start, end: end)
    }
}

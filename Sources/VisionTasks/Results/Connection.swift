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

    /// The connections along each chain of landmarks in turn (`[a, b, c]`: a→b, b→c): the compact
    /// form of the generated tables.
    static func chains(_ chains: [Int]...) -> [Connection] {
        chains.flatMap { chain in zip(chain, chain.dropFirst()).map { Connection(start: $0, end: $1) } }
    }

    /// The edges of each triangle in `corners`, three landmarks a triangle (a, b, c: a→b, b→c,
    /// c→a): the compact form of the generated face mesh.
    static func triangles(_ corners: [Int]) -> [Connection] {
        stride(from: 0, to: corners.count - 2, by: 3).flatMap { i in
            let (a, b, c) = (corners[i], corners[i + 1], corners[i + 2])
            return [Connection(start: a, end: b), Connection(start: b, end: c), Connection(start: c, end: a)]
        }
    }
}

/// A rows × columns matrix of floats stored row-major, e.g. the 4×4 facial transformation matrix.
public struct TransformMatrix: Codable, Sendable, Equatable {
    /// Number of rows.
    public let rows: Int
    /// Number of columns.
    public let columns: Int
    /// The entries, row-major: `data[row * columns + column]`.
    public let data: [Float]

    /// Creates a matrix; returns nil unless `data.count == rows * columns`.
    public init?(rows: Int, columns: Int, data: [Float]) {
        let (count, overflow) = rows.multipliedReportingOverflow(by: columns)
        guard rows >= 0, columns >= 0, !overflow, data.count == count else { return nil }
        self.rows = rows
        self.columns = columns
        self.data = data
    }

    private enum CodingKeys: String, CodingKey { case rows, columns, data }

    /// Decodes a matrix, rejecting data whose count is not rows × columns.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let rows = try c.decode(Int.self, forKey: .rows)
        let columns = try c.decode(Int.self, forKey: .columns)
        let data = try c.decode([Float].self, forKey: .data)
        guard let matrix = TransformMatrix(rows: rows, columns: columns, data: data) else {
            throw DecodingError.dataCorruptedError(
                forKey: .data, in: c,
                debugDescription: "\(data.count) entries for a \(rows)×\(columns) matrix")
        }
        self = matrix
    }

    /// The entry at `row`, `column`; both must be in range, as an array's index must (`(1, -1)` would otherwise read
    /// another entry without a word).
    public subscript(row: Int, column: Int) -> Float {
        precondition(
            (0..<rows).contains(row) && (0..<columns).contains(column),
            "entry (\(row), \(column)) is outside a \(rows)×\(columns) matrix")
        return data[row * columns + column]
    }
}

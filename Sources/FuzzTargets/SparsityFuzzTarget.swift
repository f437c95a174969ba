import Foundation
import TFLite

extension FuzzTargets {
    /// (f) TFLite sparse-tensor metadata, structure-aware: the bytes are read as a dense shape, a block map,
    /// a traversal order and one level per expanded dimension (see `SparsityReader`), and expanded with
    /// `Sparsity.densePositions` against the stored-value count that follows. Accepted metadata must place
    /// that many values, each at a distinct position inside the dense tensor; anything else must be refused
    /// with an error.
    static func sparsity(_ data: Data) -> Bool {
        var reader = SparsityReader(bytes: [UInt8](data))
        let (shape, sparsity) = reader.read()
        let stored = reader.uint16()
        return accepts {
            let positions = try sparsity.densePositions(shape: shape, tensor: "fuzz", storedValues: stored)
            let count = shape.reduce(1, *)
            precondition(
                positions.count == stored && positions.allSatisfy { (0..<count).contains($0) }
                    && Set(positions).count == positions.count,
                "accepted sparse metadata placed other than the stored values, outside the tensor or twice")
        }
    }
}

/// Reads sparse metadata from bytes (missing bytes read as 0): a rank byte (mod 5), one byte per dimension,
/// a block count byte (mod 3), one byte per block-map entry, one byte per traversal-order entry, then per
/// level a format byte (even: DENSE with a UInt16 size; odd: CSR with a count byte and that many UInt16
/// segments, then a count byte and that many Int16 indices, so negative ones occur too); the fuzz target
/// then reads the stored-value count as a UInt16.
struct SparsityReader {
    let bytes: [UInt8]
    var at = 0

    mutating func byte() -> Int {
        defer { at += 1 }
        return at < bytes.count ? Int(bytes[at]) : 0
    }

    mutating func uint16() -> Int { byte() | byte() << 8 }

    mutating func read() -> ([Int], TFLiteModel.Sparsity) {
        let rank = byte() % 5
        let shape = (0..<rank).map { _ in byte() }
        let blocks = byte() % 3
        let blockMap = (0..<blocks).map { _ in byte() }
        let traversal = (0..<rank + blocks).map { _ in byte() }
        let levels = (0..<rank + blocks).map { _ -> TFLiteModel.Sparsity.Dimension in
            if byte() % 2 == 0 { return .dense(size: uint16()) }
            let segments = (0..<byte()).map { _ in uint16() }
            let indices = (0..<byte()).map { _ in Int(Int16(truncatingIfNeeded: uint16())) }
            return .sparseCSR(segments: segments, indices: indices)
        }
        return (shape, TFLiteModel.Sparsity(traversalOrder: traversal, blockMap: blockMap, dimensions: levels))
    }
}

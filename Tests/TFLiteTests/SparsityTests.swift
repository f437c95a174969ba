import Testing
import VisionErrors

@testable import TFLite

/// `TFLiteModel.Sparsity.densePositions` on hand-written metadata: each level kind, blocks, traversal
/// orders, and metadata a hostile file could hold, which must give `invalidModel`, never a crash.
@Suite struct SparsityTests {
    typealias Sparsity = TFLiteModel.Sparsity

    @Test func denseLevelsVisitEveryPosition() throws {
        let s = Sparsity(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 2), .dense(size: 3)])
        #expect(try s.densePositions(shape: [2, 3]) == [0, 1, 2, 3, 4, 5])
    }

    @Test func csrLevelVisitsItsIndices() throws {
        // Row 0 keeps columns 1 and 3, row 1 none, row 2 column 0.
        let s = Sparsity(
            traversalOrder: [0, 1], blockMap: [],
            dimensions: [.dense(size: 3), .sparseCSR(segments: [0, 2, 2, 3], indices: [1, 3, 0])])
        #expect(try s.densePositions(shape: [3, 4]) == [1, 3, 8])
    }

    @Test func traversalOrderWalksColumnsFirst() throws {
        // Column-major walk of a [2, 3] tensor: column 0 has rows 0 and 1, column 2 row 1.
        let s = Sparsity(
            traversalOrder: [1, 0], blockMap: [],
            dimensions: [.dense(size: 3), .sparseCSR(segments: [0, 2, 2, 3], indices: [0, 1, 1])])
        #expect(try s.densePositions(shape: [2, 3]) == [0, 3, 5])
    }

    @Test func blockMapSplitsADimension() throws {
        // [2, 4] with dimension 1 in blocks of 2: row 0 keeps block 1, row 1 block 0; each block dense.
        let s = Sparsity(
            traversalOrder: [0, 1, 2], blockMap: [1],
            dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 1, 2], indices: [1, 0]), .dense(size: 2)])
        #expect(try s.densePositions(shape: [2, 4]) == [2, 3, 4, 5])
    }

    @Test func hostileMetadataIsRefused() {
        let cases: [(Sparsity, [Int], String)] = [
            (Sparsity(traversalOrder: [0], blockMap: [], dimensions: [.dense(size: 3)]), [2, 3], "not a permutation"),
            (
                Sparsity(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 2)]), [2, 3],
                "1 dimension metadata"
            ),
            (
                Sparsity(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 2), .dense(size: 4)]), [2, 3],
                "dense of size 4"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1], blockMap: [],
                    dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 1, 1, 1], indices: [0])]), [2, 3],
                "4 segments"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1], blockMap: [],
                    dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 2, 1], indices: [0])]), [2, 3],
                "segment 1 is 2"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1], blockMap: [],
                    dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 1, 1], indices: [3])]), [2, 3],
                "index 3 at 0"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1], blockMap: [],
                    dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 2, 2], indices: [1, 1])]), [2, 3],
                "not increasing"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1], blockMap: [],
                    dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 1, 1], indices: [-1])]), [2, 3], "index -1"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 1 << 40), .dense(size: 1 << 40)]),
                [1 << 40, 1 << 40], "more than"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1, 2], blockMap: [1],
                    dimensions: [.dense(size: 2), .dense(size: 1), .dense(size: 0)]), [2, 4], "block size 0"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1, 2], blockMap: [1],
                    dimensions: [.dense(size: 2), .dense(size: 1), .sparseCSR(segments: [0], indices: [])]), [2, 4],
                "block dimension 0 is not a dense level"
            ),
            (
                Sparsity(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 4096), .dense(size: 4096)]),
                [4096, 4096], "more than the 16 the file holds"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1], blockMap: [],
                    dimensions: [.dense(size: 4096), .sparseCSR(segments: [0, 1], indices: [0])]), [4096, 3],
                "more than the 1 the file holds"
            ),
            (
                Sparsity(traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 2), .dense(size: 3)]), [2, 3],
                "places 6 values, the buffer stores 16"
            ),
            (
                Sparsity(
                    traversalOrder: [0, 1, 2, 3], blockMap: [1, 1],
                    dimensions: [.dense(size: 2), .dense(size: 1), .dense(size: 2), .dense(size: 2)]), [2, 4],
                "distinct dimensions"
            ),
        ]
        for (sparsity, shape, words) in cases {
            #expect {
                _ = try sparsity.densePositions(shape: shape, tensor: "w", storedValues: 16)
            } throws: { error in
                guard case VisionTasksError.invalidModel(let message) = error else { return false }
                return message.contains(words) && message.contains("\"w\"")
            }
        }
    }
}

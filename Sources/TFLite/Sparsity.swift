// TFLite sparse tensors (schema `SparsityParameters`): a tensor whose buffer stores only some values,
// with metadata saying where each lies in the dense tensor. The dense shape is first blocked (each
// dimension in `blockMap` split into blocks, adding one dimension per block), then the expanded
// dimensions are walked in `traversalOrder`, level by level: a DENSE level visits every coordinate of
// its dimension, a SPARSE_CSR level only those listed in `indices`, between `segments[k]` and
// `segments[k + 1]` for the k-th position of the level above. Stored values follow that walk.
// Everything here comes from the file, so every count, index and size is checked before use.

import VisionErrors

extension TFLiteModel {
    /// How a sparse tensor's stored values map into its dense shape.
    public struct Sparsity: Hashable, Sendable, Codable {
        /// One level of the traversal: a dimension of the expanded (blocked) shape.
        public enum Dimension: Hashable, Sendable, Codable {
            /// Every coordinate of a dimension of `size`.
            case dense(size: Int)
            /// Compressed sparse row: position k of the level above has the coordinates
            /// `indices[segments[k]..<segments[k + 1]]`.
            case sparseCSR(segments: [Int], indices: [Int])
        }

        /// The expanded dimensions in the order they are walked (0..<rank the dense shape's, rank + j
        /// the j-th block dimension).
        public let traversalOrder: [Int]
        /// For each block dimension, the dense dimension it blocks.
        public let blockMap: [Int]
        /// The walk's levels, in traversal order.
        public let dimensions: [Dimension]

        /// The largest dense tensor a sparse one may expand to, in elements (64 MB of float32: a hostile
        /// file cannot make loading allocate more).
        public static let maxDenseElements = 1 << 24

        /// Sparsity with the given metadata (not yet checked against a shape: see `densePositions`).
        public init(traversalOrder: [Int], blockMap: [Int], dimensions: [Dimension]) {
            self.traversalOrder = traversalOrder
            self.blockMap = blockMap
            self.dimensions = dimensions
        }

        /// Reads a `SparsityParameters` table; the index vectors may be int32, uint16 or uint8.
        init(_ table: FBTable, what: () -> String) throws {
            let fail = table.buffer.fail
            typealias Parameters = TFLiteSchema.SparsityParameters
            typealias Level = TFLiteSchema.DimensionMetadata
            traversalOrder = try table.scalars(Parameters.traversalOrder, Int32.self, "traversal_order").map(Int.init)
            blockMap = try table.scalars(Parameters.blockMap, Int32.self, "block_map").map(Int.init)
            dimensions = try table.tables(Parameters.dimMetadata, "DimensionMetadata") { dimension, level in
                let format = try dimension.scalar(Level.format, Int8(0))
                switch TFLiteSchema.DimensionType(rawValue: format) {
                case .dense:
                    return .dense(size: Int(try dimension.scalar(Level.denseSize, Int32(0))))
                case .sparseCsr:
                    func vector(_ typeField: Level, _ valuesField: Level, _ name: String) throws -> [Int] {
                        let type = try dimension.scalar(typeField, UInt8(0))
                        guard let values = try dimension.table(valuesField, name) else {
                            throw fail("\(what()) sparsity level \(level) has no \(name)")
                        }
                        switch TFLiteSchema.SparseIndexVector(rawValue: type) {
                        case .int32Vector:
                            return try values.scalars(TFLiteSchema.Int32Vector.values, Int32.self, name).map(Int.init)
                        case .uint16Vector:
                            return try values.scalars(TFLiteSchema.Uint16Vector.values, UInt16.self, name).map(Int.init)
                        case .uint8Vector:
                            return try values.scalars(TFLiteSchema.Uint8Vector.values, UInt8.self, name).map(Int.init)
                        case .some(.none), nil:
                            throw fail("\(what()) sparsity level \(level) has \(name) of unknown vector type \(type)")
                        }
                    }
                    return .sparseCSR(
                        segments: try vector(Level.arraySegmentsType, Level.arraySegments, "array_segments"),
                        indices: try vector(Level.arrayIndicesType, Level.arrayIndices, "array_indices"))
                case nil:
                    throw fail("\(what()) sparsity level \(level) has unknown format \(format)")
                }
            }
        }

        /// The position in the dense row-major tensor of `shape` of each stored value, in storage order
        /// (so the stored values are as many as the result); `tensor` names it in errors. With
        /// `storedValues` (what the buffer holds) the walk must place exactly that many, and no level may
        /// list more positions than the file backs (the next CSR level's segments, or the stored values),
        /// so the work and memory are bounded by the file's size (a dimension of size 0 is refused then).
        /// - Throws: `VisionTasksError.invalidModel` saying what does not fit: orders that are not
        ///   permutations, blocks that do not divide their dimension, a level whose size differs from its
        ///   dimension's, segments that do not start at 0, decrease or do not end at the indices' count,
        ///   indices out of range or not increasing within a segment, a dense size over `maxDenseElements`,
        ///   or another count of values than `storedValues`.
        public func densePositions(shape: [Int], tensor: String = "", storedValues: Int? = nil) throws(VisionTasksError)
            -> [Int]
        {
            func fail(_ message: String) -> VisionTasksError {
                .invalidModel("sparse tensor \"\(tensor)\" \(shape): \(message)")
            }
            let rank = shape.count, expandedRank = rank + blockMap.count
            guard traversalOrder.count == expandedRank, Set(traversalOrder) == Set(0..<expandedRank) else {
                throw fail(
                    "traversal order \(traversalOrder) is not a permutation of the \(expandedRank) expanded dimensions")
            }
            guard blockMap.allSatisfy({ (0..<rank).contains($0) }), Set(blockMap).count == blockMap.count else {
                throw fail("block map \(blockMap) does not name distinct dimensions of rank \(rank)")
            }
            guard dimensions.count == expandedRank else {
                throw fail("\(dimensions.count) dimension metadata for \(expandedRank) expanded dimensions")
            }
            var denseCount = 1
            for size in shape {
                let (product, overflow) = denseCount.multipliedReportingOverflow(by: size)
                guard size >= 0, !overflow, product <= Self.maxDenseElements else {
                    throw fail("more than \(Self.maxDenseElements) elements")
                }
                denseCount = product
            }
            // Row-major strides of the dense shape; a blocked dimension d of block size b is coordinate
            // (outer · b + inner), so its outer dimension strides b · stride[d] and its block dimension stride[d].
            var strides = [Int](repeating: 1, count: rank)
            for d in stride(from: rank - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * shape[d + 1] }
            var sizes = shape, expandedStrides = strides
            for (j, d) in blockMap.enumerated() {
                guard let level = traversalOrder.firstIndex(of: rank + j), case .dense(let block) = dimensions[level]
                else {
                    throw fail("block dimension \(j) is not a dense level")
                }
                guard block > 0, shape[d] % block == 0 else {
                    throw fail("block size \(block) does not divide dimension \(d) of size \(shape[d])")
                }
                sizes[d] = shape[d] / block
                expandedStrides[d] = strides[d] * block
                sizes.append(block)
                expandedStrides.append(strides[d])
            }
            // Walk level by level: `offsets` holds the dense offset of each position of the current level.
            var offsets = [0]
            for (level, dimension) in dimensions.enumerated() {
                let axis = traversalOrder[level], size = sizes[axis], step = expandedStrides[axis]
                var next: [Int] = []
                switch dimension {
                case .dense(let declared):
                    guard declared == size else {
                        throw fail("level \(level) is dense of size \(declared), its dimension has \(size)")
                    }
                    // Positions the file backs: dense levels only multiply the count, so it may not pass the
                    // next CSR level's segments (one more than its positions), or without one the stored values.
                    var limit = storedValues ?? denseCount
                    for later in dimensions[(level + 1)...] {
                        if case .sparseCSR(let segments, _) = later {
                            limit = segments.count - 1
                            break
                        }
                    }
                    let (count, overflow) = offsets.count.multipliedReportingOverflow(by: size)
                    guard !overflow, count <= limit else {
                        throw fail(
                            "level \(level) would list \(offsets.count) × \(size) positions, more than the \(limit) the file holds"
                        )
                    }
                    next.reserveCapacity(count)
                    for base in offsets { for i in 0..<size { next.append(base + i * step) } }
                case .sparseCSR(let segments, let indices):
                    guard segments.count == offsets.count + 1, segments.first == 0, segments.last == indices.count
                    else {
                        throw fail(
                            "level \(level) has \(segments.count) segments starting at \(segments.first ?? -1) and ending at \(segments.last ?? -1) for \(offsets.count) positions and \(indices.count) indices"
                        )
                    }
                    for k in 1..<segments.count {
                        guard (0...indices.count).contains(segments[k]) else {
                            throw fail("level \(level) segment \(k) is \(segments[k]), outside 0...\(indices.count)")
                        }
                        guard segments[k] >= segments[k - 1] else {
                            throw fail("level \(level) segments decrease at \(k)")
                        }
                    }
                    next.reserveCapacity(indices.count)
                    for (k, base) in offsets.enumerated() {
                        var previous = -1
                        for i in segments[k]..<segments[k + 1] {
                            let index = indices[i]
                            guard index > previous, index < size else {
                                throw fail(
                                    "level \(level) index \(index) at \(i) is out of range 0..<\(size) or not increasing"
                                )
                            }
                            previous = index
                            next.append(base + index * step)
                        }
                    }
                }
                offsets = next
            }
            if let storedValues, storedValues != offsets.count {
                throw fail("the metadata places \(offsets.count) values, the buffer stores \(storedValues)")
            }
            return offsets
        }
    }
}

/// Builds a FlatBuffer (little-endian) the way FlatBuffers' own builders do: back to front, so that
/// every object is written before whatever refers to it and each unsigned offset points forward, as the
/// reader (`FlatBuffer`) requires.
///
/// Objects are identified by their distance from the end of the buffer, which does not change as more is
/// written in front of them. Alignment is counted from the end too, and `finish` pads the front so that the
/// whole buffer's size is a multiple of the largest alignment used: positions from the start are then
/// aligned as well. The same calls give the same bytes.
package struct FlatBufferBuilder {
    /// A written object (table, vector or string), to refer to from a field or a vector of offsets.
    package struct Offset: Equatable {
        fileprivate let fromEnd: Int
    }

    /// A table field: its id in the schema (a case of a `TFLiteSchema` or `MetadataSchema` table) and its value.
    package struct Field {
        fileprivate enum Value {
            case scalar([UInt8])
            case offset(Offset)
        }

        fileprivate let id: Int
        fileprivate let value: Value

        /// A scalar field, or nil (the field is left out, as builders leave out defaults) when `value` is `defaultValue`.
        package static func scalar<T: FixedWidthInteger>(
            _ field: some FlatBufferField, _ value: T, default defaultValue: T = 0
        ) -> Field? {
            value == defaultValue ? nil : Field(id: field.id, value: .scalar(littleEndianBytes(value)))
        }

        /// A float32 field, or nil when `value` is `defaultValue`.
        package static func float(_ field: some FlatBufferField, _ value: Float, default defaultValue: Float = 0)
            -> Field?
        {
            value == defaultValue ? nil : Field(id: field.id, value: .scalar(littleEndianBytes(value.bitPattern)))
        }

        /// A field pointing at a table, vector or string; nil leaves the field out.
        package static func offset(_ field: some FlatBufferField, _ target: Offset?) -> Field? {
            target.map { Field(id: field.id, value: .offset($0)) }
        }

        fileprivate var size: Int {
            switch value {
            case .scalar(let bytes): return bytes.count
            case .offset: return 4
            }
        }
    }

    /// The bytes written so far, last byte first.
    private var reversed: [UInt8] = []
    /// The largest alignment asked for.
    private var maxAlignment = 4

    /// An empty builder.
    package init() {}

    /// Bytes written so far.
    private var size: Int { reversed.count }

    /// Pads so that, once `following` more bytes are written, the position is a multiple of `alignment`.
    private mutating func align(_ alignment: Int, following: Int = 0) {
        maxAlignment = max(maxAlignment, alignment)
        let padding = (alignment - (size + following) % alignment) % alignment
        reversed.append(contentsOf: repeatElement(0, count: padding))
    }

    private mutating func prepend(_ bytes: [UInt8]) {
        reversed.append(contentsOf: bytes.reversed())
    }

    /// Writes the offset to `target` at the current position (already aligned to 4).
    private mutating func prependOffset(to target: Offset) {
        prepend(littleEndianBytes(UInt32(size + 4 - target.fromEnd)))
    }

    /// A string: its length, its UTF-8 bytes and a terminating zero.
    package mutating func string(_ text: String) -> Offset {
        let utf8 = Array(text.utf8)
        align(4, following: 4 + utf8.count + 1)
        prepend(utf8 + [0])
        prepend(littleEndianBytes(UInt32(utf8.count)))
        return Offset(fromEnd: size)
    }

    /// A vector of scalars whose first element is aligned to `alignment` bytes (at least the element's size).
    package mutating func vector<T: FixedWidthInteger>(_ values: [T], alignment: Int = 4) -> Offset {
        let bytes = littleEndianBytes(of: values)
        align(max(alignment, MemoryLayout<T>.size, 4), following: bytes.count)
        prepend(bytes)
        prepend(littleEndianBytes(UInt32(values.count)))
        return Offset(fromEnd: size)
    }

    /// A vector of float32 values.
    package mutating func vector(_ values: [Float]) -> Offset {
        vector(values.map(\.bitPattern))
    }

    /// A vector of offsets to tables or strings, in order.
    package mutating func vector(_ offsets: [Offset]) -> Offset {
        align(4, following: 4 * offsets.count)
        for target in offsets.reversed() { prependOffset(to: target) }
        prepend(littleEndianBytes(UInt32(offsets.count)))
        return Offset(fromEnd: size)
    }

    /// A table of `fields` (nil ones left out) and its vtable, written just before it. Wider fields are written
    /// first so that little padding is needed.
    package mutating func table(_ fields: [Field?]) -> Offset {
        let fields = fields.compactMap { $0 }.sorted { $0.size > $1.size }
        let end = size
        var positions: [(id: Int, fromEnd: Int)] = []
        for field in fields {
            align(field.size)
            switch field.value {
            case .scalar(let bytes): prepend(bytes)
            case .offset(let target): prependOffset(to: target)
            }
            positions.append((field.id, size))
        }
        align(4)
        prepend([0, 0, 0, 0]) // the table's signed offset to its vtable, set below
        let table = size
        var vtable = [UInt16](repeating: 0, count: 2 + (fields.map(\.id).max() ?? -1) + 1)
        vtable[0] = UInt16(2 * vtable.count)
        vtable[1] = UInt16(table - end)
        for (id, fromEnd) in positions { vtable[2 + id] = UInt16(table - fromEnd) }
        prepend(vtable.flatMap(littleEndianBytes))
        // The vtable lies before the table, at table position minus (vtable distance - table distance).
        let toVtable = littleEndianBytes(Int32(size - table))
        for (index, byte) in toVtable.enumerated() { reversed[table - 1 - index] = byte }
        return Offset(fromEnd: table)
    }

    /// The finished buffer: the offset to `root`, then `fileIdentifier` (4 characters), then everything written.
    package mutating func finish(root: Offset, fileIdentifier: String) -> [UInt8] {
        precondition(fileIdentifier.utf8.count == 4, "a FlatBuffer file identifier has 4 bytes")
        align(maxAlignment, following: 8)
        prepend(Array(fileIdentifier.utf8))
        prependOffset(to: root)
        return reversed.reversed()
    }
}

/// The little-endian bytes of `values`, one after the other: on a little-endian host their memory copied whole (an
/// array made per value took over a minute for a head of 200 MB).
package func littleEndianBytes<T: FixedWidthInteger>(of values: [T]) -> [UInt8] {
    #if _endian(little)
    values.withUnsafeBytes { Array($0) }
    #else
    values.flatMap(littleEndianBytes)
    #endif
}

/// The little-endian bytes of `value`.
private func littleEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

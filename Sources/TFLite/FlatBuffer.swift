import Foundation
import VisionErrors

// MARK: - Buffer

/// A bounds-checked reader of FlatBuffer bytes (little-endian), for the TFLite and metadata schemas.
///
/// Every offset, length and index is checked against the buffer before it is read; a bad one throws
/// `VisionTasksError.invalidModel` naming the schema object and the byte position. Offsets to tables,
/// vectors and strings only point forward (a FlatBuffer `uoffset` is unsigned and must be non-zero), so
/// a decoder that follows the schema cannot loop; `budget` additionally caps the bytes decoded (vector elements by
/// their size, each table by `decodedTableBytes`), so a hostile file whose vectors all alias one large vector, or
/// whose tables all alias one table, cannot make parsing slow or its result large: at most 16 times the file, plus
/// 16 MiB.
final class FlatBuffer {
    /// The bytes, as given (a `Data` slice is fine; positions are relative to `data.startIndex`).
    let data: Data
    /// Number of bytes.
    let count: Int
    /// What the buffer is, for error messages ("model", "TFLITE_METADATA").
    let label: String
    /// Bytes that may still be decoded before the file is judged hostile.
    private var budget: Int
    /// What a decoded table is counted as: more than any schema struct the decoders make of one (a `Tensor`, an
    /// `Operator`, metadata's `TensorMetadata`) with its small arrays.
    static let decodedTableBytes = 256

    /// Wraps `data`; `label` names it in errors.
    init(_ data: Data, label: String) {
        self.data = data
        self.count = data.count
        self.label = label
        self.budget = 16 * data.count + (16 << 20)
    }

    /// Throws an `invalidModel` error that names the buffer and the problem.
    func fail(_ message: String) -> VisionTasksError {
        .invalidModel("\(label): \(message)")
    }

    /// Checks that `size` bytes starting at `position` lie inside the buffer.
    @inline(__always)
    func check(_ position: Int, _ size: Int, _ what: @autoclosure () -> String) throws {
        guard position >= 0, size >= 0, position <= count, size <= count - position else {
            throw fail("\(what()) at byte \(position) (\(size) bytes) lies outside the \(count)-byte buffer")
        }
    }

    /// Charges `bytes` decoded against the budget.
    func charge(_ bytes: Int, _ what: @autoclosure () -> String) throws {
        budget -= bytes
        guard budget >= 0 else {
            throw fail("\(what()): too many aliased elements or tables; the file is malformed or hostile")
        }
    }

    /// Reads a little-endian scalar at `position`, which must already be checked.
    @inline(__always)
    func load<T: FixedWidthInteger>(_ position: Int, as: T.Type) -> T {
        data.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: position, as: T.self)) }
    }

    /// Reads a checked little-endian scalar.
    func scalar<T: FixedWidthInteger>(_ position: Int, as type: T.Type, _ what: @autoclosure () -> String) throws -> T {
        try check(position, MemoryLayout<T>.size, what())
        return load(position, as: T.self)
    }

    /// Follows the `uoffset` stored at `position` and returns the position it points to.
    func follow(_ position: Int, _ what: @autoclosure () -> String) throws -> Int {
        let offset = Int(try scalar(position, as: UInt32.self, what()))
        guard offset != 0 else { throw fail("\(what()) at byte \(position) has a zero offset") }
        let target = position + offset
        guard target < count else {
            throw fail("\(what()) at byte \(position) points to byte \(target), past the \(count)-byte buffer")
        }
        return target
    }

    /// The root table, after checking the optional 4-byte file identifier at bytes 4..<8.
    func root(_ name: String, fileIdentifier: String? = nil) throws -> FBTable {
        guard count >= 8 else { throw fail("only \(count) bytes, too short to be a FlatBuffer") }
        if let identifier = fileIdentifier {
            let found = data.withUnsafeBytes { Array($0[4..<8]) }
            guard found == Array(identifier.utf8) else {
                let shown = String(decoding: found.map { (32...126).contains($0) ? $0 : 63 }, as: UTF8.self)
                throw fail("file identifier is \"\(shown)\", expected \"\(identifier)\"")
            }
        }
        return try FBTable(self, at: try follow(0, "root \(name) offset"), name: name)
    }
}

// MARK: - Schema fields

/// A field of a table in a FlatBuffer schema (the tables of `TFLiteSchema` and `MetadataSchema`), known by its id:
/// its declaration order in the .fbs file, which is its slot in the table's vtable.
package protocol FlatBufferField {
    /// The field's id in the schema.
    var id: Int { get }
}

extension FlatBufferField where Self: RawRepresentable, RawValue == Int {
    /// A field enum's raw value is the field's id.
    package var id: Int { rawValue }
}

// MARK: - Tables

/// One table in a `FlatBuffer`: its position, vtable, and checked field accessors by field id.
struct FBTable {
    /// The buffer the table lives in.
    let buffer: FlatBuffer
    /// Byte position of the table (where its vtable offset is stored).
    let position: Int
    /// Schema name of the table, for error messages.
    let name: String
    /// Index of the table in the vector it came from, or -1.
    let index: Int
    private let vtable: Int
    private let vtableSize: Int
    private let tableSize: Int

    /// Reads and checks the table header and vtable at `position`.
    init(_ buffer: FlatBuffer, at position: Int, name: String, index: Int = -1) throws {
        self.buffer = buffer
        self.position = position
        self.name = name
        self.index = index
        func label() -> String { index < 0 ? name : "\(name)[\(index)]" }
        let relative = Int(try buffer.scalar(position, as: Int32.self, "\(label()) table"))
        let vtable = position - relative
        try buffer.check(vtable, 4, "vtable of \(label()) table at byte \(position)")
        let vtableSize = Int(buffer.load(vtable, as: UInt16.self))
        let tableSize = Int(buffer.load(vtable + 2, as: UInt16.self))
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw buffer.fail("vtable of \(label()) table at byte \(position) has invalid size \(vtableSize)")
        }
        try buffer.check(vtable, vtableSize, "vtable of \(label()) table at byte \(position)")
        guard tableSize >= 4 else {
            throw buffer.fail("\(label()) table at byte \(position) has invalid inline size \(tableSize)")
        }
        try buffer.check(position, tableSize, "\(label()) table")
        self.vtable = vtable
        self.vtableSize = vtableSize
        self.tableSize = tableSize
    }

    /// The table's name with its vector index, for error messages ("tensors[12]").
    var label: String { index < 0 ? name : "\(name)[\(index)]" }

    /// Position of `field` with `size` inline bytes, or nil when the field is absent.
    func field(_ field: some FlatBufferField, size: Int) throws -> Int? {
        let id = field.id
        let entry = 4 + 2 * id
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(buffer.load(vtable + entry, as: UInt16.self))
        guard offset != 0 else { return nil }
        guard offset >= 4, offset + size <= tableSize else {
            throw buffer.fail(
                "field \(id) of \(label) table at byte \(position) lies outside the table (offset \(offset), table size \(tableSize))"
            )
        }
        return position + offset
    }

    /// A scalar field, or `defaultValue` when absent.
    func scalar<T: FixedWidthInteger>(_ id: some FlatBufferField, _ defaultValue: T) throws -> T {
        guard let at = try field(id, size: MemoryLayout<T>.size) else { return defaultValue }
        return buffer.load(at, as: T.self)
    }

    /// A boolean field, or `defaultValue` when absent.
    func bool(_ id: some FlatBufferField, _ defaultValue: Bool = false) throws -> Bool {
        try scalar(id, UInt8(defaultValue ? 1 : 0)) != 0
    }

    /// A float32 field, or `defaultValue` when absent.
    func float(_ id: some FlatBufferField, _ defaultValue: Float) throws -> Float {
        Float(bitPattern: try scalar(id, defaultValue.bitPattern))
    }

    /// The raw bytes of an inline struct field of `size` bytes, or nil when absent.
    func structBytes(_ id: some FlatBufferField, size: Int) throws -> Data? {
        guard let at = try field(id, size: size) else { return nil }
        let start = buffer.data.startIndex + at
        return buffer.data[start..<start + size]
    }

    /// A sub-table field, or nil when absent.
    func table(_ id: some FlatBufferField, _ name: String) throws -> FBTable? {
        guard let at = try field(id, size: 4) else { return nil }
        return try FBTable(buffer, at: try buffer.follow(at, "\(name) field of \(label)"), name: name)
    }

    /// A vector field: the position of its first element and its length, or nil when absent.
    func vector(_ id: some FlatBufferField, elementSize: Int, _ what: String) throws -> FBVector? {
        guard let at = try field(id, size: 4) else { return nil }
        let start = try buffer.follow(at, "\(what) of \(label)")
        let length = Int(try buffer.scalar(start, as: UInt32.self, "\(what) length of \(label)"))
        let (bytes, overflow) = length.multipliedReportingOverflow(by: elementSize)
        guard !overflow else { throw buffer.fail("\(what) of \(label) at byte \(start) has absurd length \(length)") }
        try buffer.check(start + 4, bytes, "\(what) of \(label) (\(length) elements)")
        try buffer.charge(bytes, "\(what) of \(label)")
        return FBVector(buffer: buffer, start: start + 4, count: length, elementSize: elementSize)
    }

    /// A string field (UTF-8, invalid sequences repaired), or nil when absent.
    func string(_ id: some FlatBufferField, _ what: String) throws -> String? {
        guard let vector = try vector(id, elementSize: 1, what) else { return nil }
        return vector.string
    }

    /// A vector of scalars decoded as `[T]`; empty when absent.
    func scalars<T: FixedWidthInteger>(_ id: some FlatBufferField, _ type: T.Type, _ what: String) throws -> [T] {
        guard let vector = try vector(id, elementSize: MemoryLayout<T>.size, what) else { return [] }
        return vector.scalars(T.self)
    }

    /// A vector of float32 values; empty when absent.
    func floats(_ id: some FlatBufferField, _ what: String) throws -> [Float] {
        try scalars(id, UInt32.self, what).map(Float.init(bitPattern:))
    }

    /// A vector of tables decoded with `decode`; empty when absent.
    func tables<T>(_ id: some FlatBufferField, _ name: String, _ decode: (FBTable, Int) throws -> T) throws -> [T] {
        guard let vector = try vector(id, elementSize: 4, name) else { return [] }
        try buffer.charge(vector.count * FlatBuffer.decodedTableBytes, "\(name) of \(label)")
        var result: [T] = []
        result.reserveCapacity(vector.count)
        for index in 0..<vector.count {
            let at = vector.start + 4 * index
            let table = try FBTable(
                buffer, at: try buffer.follow(at, "\(name)[\(index)] of \(label)"), name: name, index: index)
            result.append(try decode(table, index))
        }
        return result
    }

    /// A vector of strings; empty when absent.
    func strings(_ id: some FlatBufferField, _ what: String) throws -> [String] {
        guard let vector = try vector(id, elementSize: 4, what) else { return [] }
        return try (0..<vector.count).map { index in
            let start = try buffer.follow(vector.start + 4 * index, "\(what)[\(index)] of \(label)")
            let length = Int(try buffer.scalar(start, as: UInt32.self, "\(what)[\(index)] length"))
            try buffer.check(start + 4, length, "\(what)[\(index)] of \(label)")
            try buffer.charge(length, "\(what)[\(index)] of \(label)")
            return FBVector(buffer: buffer, start: start + 4, count: length, elementSize: 1).string
        }
    }
}

// MARK: - Vectors

/// A checked vector inside a `FlatBuffer`: `count` elements of `elementSize` bytes from `start`.
struct FBVector {
    /// The buffer holding the vector.
    let buffer: FlatBuffer
    /// Byte position of the first element.
    let start: Int
    /// Number of elements.
    let count: Int
    /// Size of one element in bytes.
    let elementSize: Int

    /// Byte range of the elements within the buffer.
    var range: Range<Int> { start..<start + count * elementSize }

    /// The bytes as a `Data` slice of the buffer's data (no copy).
    var bytes: Data {
        let base = buffer.data.startIndex
        return buffer.data[base + range.lowerBound..<base + range.upperBound]
    }

    /// The elements decoded as UTF-8 text.
    var string: String {
        buffer.data.withUnsafeBytes { raw in
            String(decoding: UnsafeRawBufferPointer(rebasing: raw[range]), as: UTF8.self)
        }
    }

    /// The elements decoded as little-endian scalars of type `T` (`elementSize` must be `T`'s size).
    func scalars<T: FixedWidthInteger>(_ type: T.Type) -> [T] {
        buffer.data.withUnsafeBytes { raw in
            [T](unsafeUninitializedCapacity: count) { values, initialized in
                for index in 0..<count {
                    values[index] = T(
                        littleEndian: raw.loadUnaligned(fromByteOffset: start + index * elementSize, as: T.self))
                }
                initialized = count
            }
        }
    }
}

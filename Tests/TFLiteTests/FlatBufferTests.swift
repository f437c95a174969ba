import Foundation
import Testing
import VisionErrors

@testable import TFLite

/// The FlatBuffer primitives on a hand-assembled buffer: scalars, strings, vectors, structs, absent
/// fields and defaults, and the checks on vtables and field offsets.
@Suite struct FlatBufferTests {
    /// A field of the made-up tables below, by id.
    struct Slot: FlatBufferField {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    /// A table at 24 with vtable at 8: field 0 uint32, 1 string "abc", 2 [int16] [1, -2, 3], 3 absent,
    /// 4 a 4-byte struct (7, 9); file identifier "TEST".
    static func sample() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        func put16(_ at: Int, _ value: UInt16) {
            bytes[at] = UInt8(value & 0xFF)
            bytes[at + 1] = UInt8(value >> 8)
        }
        func put32(_ at: Int, _ value: UInt32) {
            put16(at, UInt16(value & 0xFFFF))
            put16(at + 2, UInt16(value >> 16))
        }
        put32(0, 24)
        bytes.replaceSubrange(4..<8, with: Array("TEST".utf8))
        put16(8, 14)
        put16(10, 20) // vtable: 14 bytes (5 fields), table 20 bytes
        put16(12, 4)
        put16(14, 8)
        put16(16, 12)
        put16(18, 0)
        put16(20, 16)
        put32(24, 16) // table → vtable 16 bytes back
        put32(28, 0xDEAD_BEEF)
        put32(32, 44 - 32) // string at 44
        put32(36, 52 - 36) // vector at 52
        put16(40, 7)
        put16(42, 9) // struct
        put32(44, 3)
        bytes.replaceSubrange(48..<52, with: Array("abc\0".utf8))
        put32(52, 3)
        put16(56, 1)
        put16(58, 0xFFFE)
        put16(60, 3)
        return bytes
    }

    static func table(_ bytes: [UInt8]) throws -> FBTable {
        try FlatBuffer(Data(bytes), label: "sample").root("Sample", fileIdentifier: "TEST")
    }

    @Test func readsEveryKindOfField() throws {
        let table = try Self.table(Self.sample())
        #expect(try table.scalar(Slot(0), UInt32(0)) == 0xDEAD_BEEF)
        #expect(try table.string(Slot(1), "text") == "abc")
        #expect(try table.scalars(Slot(2), Int16.self, "values") == [1, -2, 3])
        #expect(try table.scalar(Slot(3), Int32(5)) == 5)
        #expect(try table.string(Slot(3), "absent") == nil)
        #expect(try table.scalars(Slot(3), Int32.self, "absent").isEmpty)
        #expect(try table.structBytes(Slot(4), size: 4).map(Array.init) == [7, 0, 9, 0])
        #expect(try table.scalar(Slot(40), UInt8(3)) == 3) // beyond the vtable: absent
    }

    @Test func readsFromADataSlice() throws {
        // Positions are relative to the slice's start, not to the underlying storage.
        let padded = Data([0xAA, 0xBB, 0xCC] + Self.sample())
        let slice = padded[padded.startIndex + 3..<padded.endIndex]
        let table = try FlatBuffer(slice, label: "slice").root("Sample", fileIdentifier: "TEST")
        #expect(try table.string(Slot(1), "text") == "abc")
        #expect(try table.scalars(Slot(2), Int16.self, "values") == [1, -2, 3])
    }

    @Test func wrongIdentifierIsNamed() {
        #expect(throws: VisionTasksError.invalidModel("sample: file identifier is \"TEST\", expected \"TFL3\"")) {
            try FlatBuffer(Data(Self.sample()), label: "sample").root("Model", fileIdentifier: "TFL3")
        }
    }

    @Test func badVtablesAndFieldsThrow() {
        var oddVtable = Self.sample()
        oddVtable[8] = 13
        #expect(throws: VisionTasksError.self) { try Self.table(oddVtable) }
        var vtablePastEnd = Self.sample()
        vtablePastEnd[8] = 200
        #expect(throws: VisionTasksError.self) { try Self.table(vtablePastEnd) }
        var tablePastEnd = Self.sample()
        tablePastEnd[10] = 100
        #expect(throws: VisionTasksError.self) { try Self.table(tablePastEnd) }
        var fieldOutsideTable = Self.sample()
        fieldOutsideTable[12] = 18 // field 0 at +18 needs 4 bytes of a 20-byte table
        #expect(throws: VisionTasksError.self) { try Self.table(fieldOutsideTable).scalar(Slot(0), UInt32(0)) }
        var vtableBeforeStart = Self.sample()
        vtableBeforeStart[24] = 40 // vtable at 24 - 40 < 0
        #expect(throws: VisionTasksError.self) { try Self.table(vtableBeforeStart) }
    }

    @Test func badStringsAndVectorsThrow() throws {
        var longString = Self.sample()
        longString[44] = 21 // 21 bytes from 48 runs past 64
        #expect(throws: VisionTasksError.self) { try Self.table(longString).string(Slot(1), "text") }
        var selfPointing = Self.sample()
        selfPointing[32] = 0 // a zero uoffset points at itself
        #expect(throws: VisionTasksError.self) { try Self.table(selfPointing).string(Slot(1), "text") }
        var hugeVector = Self.sample()
        hugeVector.replaceSubrange(52..<56, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: VisionTasksError.self) { try Self.table(hugeVector).scalars(Slot(2), Int16.self, "values") }
    }

    /// FlatBufferBuilder's output reads back through the reader: every kind of field, defaults left out,
    /// nested tables and vectors of them, and a 16-byte aligned vector counted from the buffer's start.
    @Test func builtBuffersReadBack() throws {
        var b = FlatBufferBuilder()
        let children = (1...3).map {
            b.table([.offset(Slot(0), b.string("child \($0)")), .scalar(Slot(1), Int16($0))])
        }
        let aligned = b.vector([UInt8](1...5), alignment: 16)
        let root = b.table([
            .scalar(Slot(0), UInt8(7)), .scalar(Slot(1), Int32(-5)), .scalar(Slot(2), UInt64(1) << 40),
            .float(Slot(3), 2.5),
            .scalar(Slot(4), Int32(9), default: 9), .float(Slot(5), 0), .offset(Slot(6), nil),
            .offset(Slot(7), b.string("héllo")),
            .offset(Slot(8), b.vector([Float(1), -2])), .offset(Slot(9), b.vector(children)),
            .offset(Slot(10), aligned),
            .offset(Slot(11), b.table([])),
        ])
        let bytes = b.finish(root: root, fileIdentifier: "TEST")
        #expect(bytes.count % 16 == 0)
        let table = try FlatBuffer(Data(bytes), label: "built").root("Root", fileIdentifier: "TEST")
        #expect(
            try table.scalar(Slot(0), UInt8(0)) == 7 && table.scalar(Slot(1), Int32(0)) == -5
                && table.scalar(Slot(2), UInt64(0)) == 1 << 40)
        #expect(
            try table.float(Slot(3), 0) == 2.5 && table.string(Slot(7), "text") == "héllo"
                && table.floats(Slot(8), "floats") == [1, -2])
        // Fields equal to their default, and absent offsets, are left out of the table.
        for id in 4...6 { #expect(try table.field(Slot(id), size: 1) == nil, "field \(id)") }
        let read = try table.tables(Slot(9), "children") { child, _ in
            (try child.string(Slot(0), "name"), try child.scalar(Slot(1), Int16(0)))
        }
        #expect(read.map(\.0) == ["child 1", "child 2", "child 3"] && read.map(\.1) == [1, 2, 3])
        let vector = try #require(try table.vector(Slot(10), elementSize: 1, "aligned"))
        #expect(vector.start % 16 == 0 && Array(vector.bytes) == [1, 2, 3, 4, 5])
        #expect(try table.table(Slot(11), "Empty") != nil)
    }
}

import Foundation
import Testing

@testable import VisionCore

/// The protobuf wire reader the face geometry's metadata goes through (ASan runs this suite: `make sanitize`).
@Suite struct ProtobufReaderTests {
    @Test func decodesScalarsPackedAndNestedFields() throws {
        var bytes: [UInt8] = [0x08, 0x96, 0x01] // field 1 varint 150
        bytes += [0x15] + withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian, Array.init) // field 2 float 1.5
        bytes +=
            [0x1a, 0x08] + withUnsafeBytes(of: Float(-2).bitPattern.littleEndian, Array.init)
            + withUnsafeBytes(of: Float(0.25).bitPattern.littleEndian, Array.init) // field 3 packed floats
        bytes += [0x22, 0x03, 0x01, 0xac, 0x02] // field 4 packed varints 1, 300
        bytes += [0x2a, 0x02, 0x08, 0x07] // field 5 nested message {1: 7}
        let reader = ProtobufReader(Data(bytes), context: "test")
        let fields = try reader.fields()
        #expect(fields.map(\.number) == [1, 2, 3, 4, 5])
        #expect(try reader.varint(fields[0].value, field: "a") == 150)
        #expect(try reader.float(fields[1].value, field: "b") == 1.5)
        var floats: [Float] = []
        try reader.appendFloats(fields[2].value, to: &floats, field: "c")
        #expect(floats == [-2, 0.25])
        var ints: [UInt64] = []
        try reader.appendVarints(fields[3].value, to: &ints, field: "d")
        #expect(ints == [1, 300])
        let nested = try reader.message(fields[4].value, field: "e").fields()
        #expect(nested.count == 1 && nested[0].number == 1)
    }

    @Test func rejectsTruncatedInput() {
        for bad: [UInt8] in [[0x08, 0x96], [0x1a, 0x09, 0x00], [0x15, 0x00, 0x00], [0x0b], [0x00]] {
            #expect(throws: (any Error).self) { try ProtobufReader(Data(bad), context: "bad").fields() }
        }
    }
}

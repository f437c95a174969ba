import Foundation
import VisionErrors

/// A bounds-checked reader of the protocol buffers wire format: walks the fields of one message
/// and decodes scalar, packed and nested values. Every length and offset is checked; malformed
/// input throws `VisionTasksError.invalidModel` naming `context` (e.g. the file being read).
public struct ProtobufReader {
    /// One field of a message: its number and its raw payload.
    public enum Value {
        /// A varint payload (int32, uint32, int64, bool, enum).
        case varint(UInt64)
        /// A 64-bit payload (fixed64, double).
        case fixed64(UInt64)
        /// A length-delimited payload (bytes, string, nested message, packed repeated scalars).
        case bytes(Data)
        /// A 32-bit payload (fixed32, float).
        case fixed32(UInt32)
    }

    private let data: Data
    private let context: String

    /// Creates a reader over one serialized message; `context` names it in error messages.
    public init(_ data: Data, context: String) {
        self.data = data
        self.context = context
    }

    /// Every field of the message in order, as (field number, value).
    public func fields() throws -> [(number: Int, value: Value)] {
        var out: [(Int, Value)] = []
        var i = data.startIndex
        while i < data.endIndex {
            let key = try readVarint(&i)
            let number = Int(key >> 3)
            guard number > 0 else { throw error("field number 0 at byte \(i - data.startIndex)") }
            switch key & 7 {
            case 0: out.append((number, .varint(try readVarint(&i))))
            case 1: out.append((number, .fixed64(try readFixed(&i, 8))))
            case 2:
                let length = try readVarint(&i)
                guard length <= UInt64(data.endIndex - i) else {
                    throw error("field \(number) length \(length) runs past the end")
                }
                let end = i + Int(length)
                out.append((number, .bytes(data.subdata(in: i..<end))))
                i = end
            case 5: out.append((number, .fixed32(UInt32(try readFixed(&i, 4)))))
            default: throw error("unsupported wire type \(key & 7) for field \(number)")
            }
        }
        return out
    }

    /// Decodes a `float` field, unpacked (fixed32) or packed (bytes), appending to `values`.
    public func appendFloats(_ value: Value, to values: inout [Float], field: String) throws {
        switch value {
        case .fixed32(let bits): values.append(Float(bitPattern: bits))
        case .bytes(let bytes):
            guard bytes.count % 4 == 0 else {
                throw error("packed floats of \(field) are \(bytes.count) bytes, not a multiple of 4")
            }
            var p = bytes.startIndex
            while p < bytes.endIndex {
                var bits: UInt32 = 0
                for k in 0..<4 { bits |= UInt32(bytes[p + k]) << (8 * UInt32(k)) }
                values.append(Float(bitPattern: bits))
                p += 4
            }
        default: throw error("\(field) is not a float field")
        }
    }

    /// Decodes a varint field (e.g. `uint32`), unpacked or packed, appending to `values`.
    public func appendVarints(_ value: Value, to values: inout [UInt64], field: String) throws {
        switch value {
        case .varint(let v): values.append(v)
        case .bytes(let bytes):
            let inner = ProtobufReader(bytes, context: context)
            var p = bytes.startIndex
            while p < bytes.endIndex { values.append(try inner.readVarint(&p)) }
        default: throw error("\(field) is not a varint field")
        }
    }

    /// Reads a `float` scalar field.
    public func float(_ value: Value, field: String) throws -> Float {
        guard case .fixed32(let bits) = value else { throw error("\(field) is not a float") }
        return Float(bitPattern: bits)
    }

    /// Reads a varint scalar field.
    public func varint(_ value: Value, field: String) throws -> UInt64 {
        guard case .varint(let v) = value else { throw error("\(field) is not a varint") }
        return v
    }

    /// Reads a nested message's bytes.
    public func message(_ value: Value, field: String) throws -> ProtobufReader {
        guard case .bytes(let bytes) = value else { throw error("\(field) is not a message") }
        return ProtobufReader(bytes, context: context)
    }

    private func readVarint(_ i: inout Data.Index) throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard i < data.endIndex else { throw error("truncated varint") }
            let byte = data[i]
            i += 1
            guard shift < 64 else { throw error("varint longer than 10 bytes") }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    private func readFixed(_ i: inout Data.Index, _ size: Int) throws -> UInt64 {
        guard data.endIndex - i >= size else { throw error("truncated \(size * 8)-bit field") }
        var v: UInt64 = 0
        for k in 0..<size { v |= UInt64(data[i + k]) << (8 * UInt64(k)) }
        i += size
        return v
    }

    private func error(_ message: String) -> VisionTasksError {
        .invalidModel("\(context): malformed protocol buffer: \(message)")
    }
}

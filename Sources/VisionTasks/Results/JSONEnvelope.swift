import Foundation

/// The small JSON objects the front ends write around results (the CLI's lines, the server's video
/// lines, live replies and catalog): fields in the order given, or sorted, with a result inserted as
/// the shared result JSON it already is. Package-level: the public API encodes results with `ResultJSON`.
package enum JSONEnvelope {
    /// One field's value: a number, a string, true or false, null, or JSON already encoded (a result).
    package enum Value {
        case int(Int), double(Double), string(String), bool(Bool), null, json(Data)
    }

    /// `{"key":value,…}` with the fields in the order given.
    package static func encode(ordered fields: [(String, Value)]) -> Data {
        var object = Data("{".utf8)
        for (index, field) in fields.enumerated() {
            if index > 0 { object.append(UInt8(ascii: ",")) }
            object.append(string(field.0))
            object.append(UInt8(ascii: ":"))
            switch field.1 {
            case .int(let value): object.append(contentsOf: Data(String(value).utf8))
            case .double(let value): object.append(contentsOf: Data(String(format: "%.3f", value).utf8))
            case .string(let value): object.append(string(value))
            case .bool(let value): object.append(contentsOf: Data(String(value).utf8))
            case .null: object.append(contentsOf: Data("null".utf8))
            case .json(let value): object.append(contentsOf: value)
            }
        }
        object.append(UInt8(ascii: "}"))
        return object
    }

    /// `{"key":value,…}` with the keys sorted.
    package static func encode(_ fields: [String: Value]) -> Data {
        encode(ordered: fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// The object followed by a newline (one line of a JSON-lines stream).
    package static func line(_ fields: [String: Value]) -> Data {
        encode(fields) + Data("\n".utf8)
    }

    /// `[item,…]` of JSON already encoded.
    package static func array(_ items: [Data]) -> Data {
        var array = Data("[".utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { array.append(UInt8(ascii: ",")) }
            array.append(contentsOf: item)
        }
        array.append(UInt8(ascii: "]"))
        return array
    }

    /// `text` as a JSON string, escaped as results escape theirs.
    package static func string(_ text: String) -> Data {
        (try? ResultJSON.encode(text)) ?? Data("\"\"".utf8)
    }
}

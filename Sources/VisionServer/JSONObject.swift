import Foundation
import VisionTasks

/// The small JSON objects the server writes around results (video lines, live replies): fields
/// with sorted keys, a result inserted as the shared result JSON it already is.
enum JSONObject {
    /// One field's value: a number, a string, or JSON already encoded (a result).
    enum Value {
        case int(Int), double(Double), string(String), json(Data)
    }

    /// `{"key":value,…}` with the keys sorted.
    static func encode(_ fields: [String: Value]) -> Data {
        var object = Data("{".utf8)
        for (index, field) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { object.append(UInt8(ascii: ",")) }
            object.append(contentsOf: Data("\"\(field.key)\":".utf8))
            switch field.value {
            case .int(let value): object.append(contentsOf: Data(String(value).utf8))
            case .double(let value): object.append(contentsOf: Data(String(format: "%.3f", value).utf8))
            case .string(let value): object.append(contentsOf: (try? ResultJSON.encode(value)) ?? Data("\"\"".utf8))
            case .json(let value): object.append(contentsOf: value)
            }
        }
        object.append(UInt8(ascii: "}"))
        return object
    }

    /// The object followed by a newline (one line of a JSON-lines stream).
    static func line(_ fields: [String: Value]) -> Data {
        encode(fields) + Data("\n".utf8)
    }
}

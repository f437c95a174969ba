import Foundation

/// The encoder behind `ResultJSON`: the bytes Foundation's `JSONEncoder` writes with sorted keys
/// and unescaped slashes (keys in byte order; numbers as their `description`, without a trailing
/// ".0"; strings escaped as it escapes them), at a fraction of its cost. A face landmarker result
/// has about 2,400 numbers; Foundation's encoder boxes each and probes its type at run time, and was
/// a tenth of the CPU of a `--video` run. Throws `EncodingError.invalidValue` for a NaN or infinite
/// number, as `JSONEncoder` does by default (coding paths are not tracked: each would cost an
/// array per value).
enum ResultJSONWriter {
    /// `value` as JSON text.
    static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let root = try JSONTree.node(value, codingPath: [])
        if case .empty = root {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Top-level \(Value.self) did not encode any values."))
        }
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        root.write(into: &out)
        return out
    }
}

// MARK: - Value tree

/// One value of the tree the encoder builds; objects and arrays are filled in place as their
/// containers are written to, so they are reference types.
private enum JSONNode {
    case scalar(String)
    case object(JSONObject)
    case array(JSONArray)
    /// A value that encoded nothing: `{}` inside another value, an error at the top level.
    case empty

    func write(into out: inout [UInt8]) {
        switch self {
        case .scalar(let text):
            out.append(contentsOf: text.utf8)
        case .empty:
            out.append(contentsOf: "{}".utf8)
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var entries = object.entries
            // Most objects come in the same key order every time; sort only when they are not in order.
            if zip(entries, entries.dropFirst()).contains(where: { !$0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            ) {
                entries.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
            for i in entries.indices {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONTree.appendString(entries[i].key, to: &out)
                out.append(UInt8(ascii: ":"))
                entries[i].value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (i, item) in array.items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }
}

private final class JSONObject {
    var entries: [(key: String, value: JSONNode)] = []

    /// The object at `key`, made (replacing a scalar) unless one is there: asking twice for a nested
    /// container at one key writes into the same object, as in `JSONEncoder`.
    func nestedObject(_ key: String) -> JSONObject {
        if case .object(let existing)? = entries.first(where: { $0.key == key })?.value { return existing }
        let made = JSONObject()
        set(key, .object(made))
        return made
    }

    /// The array at `key`, made unless one is there (see `nestedObject`).
    func nestedArray(_ key: String) -> JSONArray {
        if case .array(let existing)? = entries.first(where: { $0.key == key })?.value { return existing }
        let made = JSONArray()
        set(key, .array(made))
        return made
    }

    /// Sets `key` (a later value for the same key replaces the earlier, as in `JSONEncoder`).
    func set(_ key: String, _ value: JSONNode) {
        if let i = entries.firstIndex(where: { $0.key == key }) {
            entries[i].value = value
        } else {
            entries.append((key, value))
        }
    }
}

private final class JSONArray {
    var items: [JSONNode] = []
}

// MARK: - Encoder

/// The `Encoder` one value is encoded with; it ends up holding that value's node.
private final class JSONTree: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var node: JSONNode?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    /// The node of `value`, encoded at `codingPath` (a value that writes nothing is an empty object).
    static func node<Value: Encodable>(of value: Value, codingPath: [any CodingKey]) throws -> JSONNode {
        let tree = JSONTree(codingPath: codingPath)
        try value.encode(to: tree)
        return tree.node ?? .empty
    }

    /// The object this value is, made on first use (a value asks for its container more than once
    /// when a superclass and a subclass both encode into it).
    private var object: JSONObject {
        if case .object(let existing) = node { return existing }
        let made = JSONObject()
        node = .object(made)
        return made
    }

    /// The array this value is, made on first use.
    private var array: JSONArray {
        if case .array(let existing) = node { return existing }
        let made = JSONArray()
        node = .array(made)
        return made
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(tree: self)
    }

    // MARK: Scalars

    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, codingPath: [any CodingKey])
        throws -> JSONNode
    {
        .scalar(try numberText(value, codingPath))
    }

    /// A number's text as JSONEncoder writes it (its description without a trailing ".0"); throws
    /// for NaN and infinities.
    private static func numberText<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F, _ codingPath: [any CodingKey]
    ) throws -> String {
        guard let text = ResultJSON.numberText(value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        return text
    }

    /// An optional number's text: `null` when absent.
    private static func optionalNumber(_ value: Float?, _ codingPath: [any CodingKey]) throws -> String {
        guard let value else { return "null" }
        return try numberText(value, codingPath)
    }

    static func string(_ value: String) -> JSONNode {
        var out: [UInt8] = []
        appendString(value, to: &out)
        return .scalar(String(decoding: out, as: UTF8.self))
    }

    /// `value` quoted, with `"`, `\` and control characters escaped as `JSONEncoder` escapes them.
    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [92, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [92, UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The node of a value that is not a primitive (the containers write those directly): its own
    /// encoding, or JSONEncoder's for the Foundation types JSONEncoder writes its own way. Metatype
    /// comparisons, not dynamic casts, pick those out.
    static func node<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws -> JSONNode {
        if Value.self == Float?.self {
            // Optional scores and visibilities, written here rather than through a nested encoder.
            return .scalar(try optionalNumber(unsafeBitCast(value, to: Float?.self), codingPath))
        }
        // The bulk of a landmarker result (478 per face): written whole, without a node per field.
        if Value.self == NormalizedLandmark.self {
            return .scalar(try landmark(unsafeBitCast(value, to: NormalizedLandmark.self), codingPath: codingPath))
        }
        if Value.self == Landmark.self {
            return .scalar(try landmark(unsafeBitCast(value, to: Landmark.self), codingPath: codingPath))
        }
        if Value.self == ResultCategory.self {
            return .scalar(try category(unsafeBitCast(value, to: ResultCategory.self), codingPath: codingPath))
        }
        if Value.self == Data.self || Value.self == URL.self || Value.self == Date.self || Value.self == Decimal.self {
            return .scalar(String(decoding: try ResultJSON.makeEncoder().encode(value), as: UTF8.self))
        }
        return try node(of: value, codingPath: codingPath)
    }

    /// A landmark's object as its `encode(to:)` writes it (every field, absent ones `null`), keys sorted.
    private static func landmark<Space>(_ point: LandmarkPoint<Space>, codingPath: [any CodingKey]) throws -> String {
        var text = "{\"presence\":" + (try optionalNumber(point.presence, codingPath))
        text += ",\"visibility\":" + (try optionalNumber(point.visibility, codingPath))
        text += ",\"x\":" + (try numberText(point.x, codingPath))
        text += ",\"y\":" + (try numberText(point.y, codingPath))
        text += ",\"z\":" + (try numberText(point.z, codingPath)) + "}"
        return text
    }

    /// A category's object as its `encode(to:)` writes it (absent names `null`), keys sorted.
    private static func category(_ category: ResultCategory, codingPath: [any CodingKey]) throws -> String {
        var out: [UInt8] = Array("{\"categoryName\":".utf8)
        if let name = category.categoryName { appendString(name, to: &out) } else { out += "null".utf8 }
        out += ",\"displayName\":".utf8
        if let name = category.displayName { appendString(name, to: &out) } else { out += "null".utf8 }
        out += ",\"index\":\(category.index),\"score\":".utf8
        out += try numberText(category.score, codingPath).utf8
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    static func integer<I: BinaryInteger>(_ value: I) -> JSONNode { .scalar(value.description) }
    static func bool(_ value: Bool) -> JSONNode { .scalar(value ? "true" : "false") }
}

// MARK: - Containers

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .scalar("null")) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, JSONTree.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        object.set(key.stringValue, JSONTree.string(value))
    }
    // One generic method is the witness of every floating-point requirement, one of every integer
    // one but the 128-bit ones, which the protocol gives default (throwing) implementations.
    mutating func encode<F: BinaryFloatingPoint & LosslessStringConvertible & Encodable>(_ value: F, forKey key: Key)
        throws
    {
        object.set(key.stringValue, try JSONTree.number(value, codingPath: codingPath))
    }
    mutating func encode<I: FixedWidthInteger & Encodable>(_ value: I, forKey key: Key) throws {
        object.set(key.stringValue, JSONTree.integer(value))
    }
    mutating func encode(_ value: Int128, forKey key: Key) throws {
        object.set(key.stringValue, JSONTree.integer(value))
    }
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        object.set(key.stringValue, JSONTree.integer(value))
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try JSONTree.node(value, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(
            KeyedContainer<NestedKey>(object: object.nestedObject(key.stringValue), codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedContainer(array: object.nestedArray(key.stringValue), codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named key: String) -> any Encoder {
        let object = object
        return SuperEncoder(codingPath: codingPath) { object.set(key, $0) }
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let array: JSONArray
    let codingPath: [any CodingKey]
    var count: Int { array.items.count }

    mutating func encodeNil() throws { array.items.append(.scalar("null")) }
    mutating func encode(_ value: Bool) throws { array.items.append(JSONTree.bool(value)) }
    mutating func encode(_ value: String) throws { array.items.append(JSONTree.string(value)) }
    mutating func encode<F: BinaryFloatingPoint & LosslessStringConvertible & Encodable>(_ value: F) throws {
        array.items.append(try JSONTree.number(value, codingPath: codingPath))
    }
    mutating func encode<I: FixedWidthInteger & Encodable>(_ value: I) throws {
        array.items.append(JSONTree.integer(value))
    }
    mutating func encode(_ value: Int128) throws { array.items.append(JSONTree.integer(value)) }
    mutating func encode(_ value: UInt128) throws { array.items.append(JSONTree.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try JSONTree.node(value, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = JSONObject()
        array.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONArray()
        array.items.append(.array(nested))
        return UnkeyedContainer(array: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let (array, index) = (array, array.items.count)
        array.items.append(.empty)
        return SuperEncoder(codingPath: codingPath) { array.items[index] = $0 }
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let tree: JSONTree
    /// What must live as long as the container (the super encoder that commits its value).
    var owner: AnyObject? = nil
    var codingPath: [any CodingKey] { tree.codingPath }

    mutating func encodeNil() throws { tree.node = .scalar("null") }
    mutating func encode(_ value: Bool) throws { tree.node = JSONTree.bool(value) }
    mutating func encode(_ value: String) throws { tree.node = JSONTree.string(value) }
    mutating func encode<F: BinaryFloatingPoint & LosslessStringConvertible & Encodable>(_ value: F) throws {
        tree.node = try JSONTree.number(value, codingPath: codingPath)
    }
    mutating func encode<I: FixedWidthInteger & Encodable>(_ value: I) throws { tree.node = JSONTree.integer(value) }
    mutating func encode(_ value: Int128) throws { tree.node = JSONTree.integer(value) }
    mutating func encode(_ value: UInt128) throws { tree.node = JSONTree.integer(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        tree.node = try JSONTree.node(value, codingPath: codingPath)
    }
}

// MARK: - Super encoder

/// The encoder `superEncoder()` hands out: what is encoded with it is handed to `commit` (which
/// puts it at its key or array slot) once it and its containers are released, as Foundation's
/// referencing encoder does; a value that encoded nothing commits as `{}`.
private final class SuperEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private let tree: JSONTree
    private let commit: (JSONNode) -> Void

    init(codingPath: [any CodingKey], commit: @escaping (JSONNode) -> Void) {
        self.codingPath = codingPath
        self.commit = commit
        tree = JSONTree(codingPath: codingPath)
    }

    deinit {
        commit(tree.node ?? .empty)
    }

    // Keyed and unkeyed containers write into reference nodes, so what they write after the
    // commit still lands; a single-value container keeps this encoder alive until it is done.
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        tree.container(keyedBy: type)
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { tree.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(tree: tree, owner: self) }
}

/// The element type of a TFLite tensor (schema enum `TensorType`); values the schema does not name are kept.
public enum TensorType: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 32-bit IEEE float.
    case float32
    /// 16-bit IEEE float.
    case float16
    /// 32-bit signed integer.
    case int32
    /// 8-bit unsigned integer.
    case uint8
    /// 64-bit signed integer.
    case int64
    /// Variable-length string (TFLite string tensor layout).
    case string
    /// Boolean, one byte per element.
    case bool
    /// 16-bit signed integer.
    case int16
    /// Complex of two float32.
    case complex64
    /// 8-bit signed integer.
    case int8
    /// 64-bit IEEE float.
    case float64
    /// Complex of two float64.
    case complex128
    /// 64-bit unsigned integer.
    case uint64
    /// Resource handle.
    case resource
    /// Variant.
    case variant
    /// 32-bit unsigned integer.
    case uint32
    /// 16-bit unsigned integer.
    case uint16
    /// 4-bit signed integer, packed two per byte.
    case int4
    /// bfloat16.
    case bfloat16
    /// A schema value this reader does not know.
    case unknown(Int8)

    private static let known: [TensorType] = [
        .float32, .float16, .int32, .uint8, .int64, .string, .bool, .int16, .complex64, .int8,
        .float64, .complex128, .uint64, .resource, .variant, .uint32, .uint16, .int4, .bfloat16,
    ]
    private static let names = [
        "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64", "INT8",
        "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4", "BFLOAT16",
    ]

    /// The type for a schema value.
    public init(rawValue: Int8) {
        self =
            rawValue >= 0 && Int(rawValue) < TensorType.known.count
            ? TensorType.known[Int(rawValue)] : .unknown(rawValue)
    }

    /// The schema value.
    public var rawValue: Int8 {
        if case .unknown(let raw) = self { return raw }
        return Int8(TensorType.known.firstIndex(of: self) ?? 0)
    }

    /// The schema name, e.g. "FLOAT32" (or "TYPE_<n>" for an unknown value).
    public var name: String {
        if case .unknown(let raw) = self { return "TYPE_\(raw)" }
        return TensorType.names[Int(rawValue)]
    }

    /// Lower-case name as NumPy spells dtypes ("float32", "int8", ...).
    public var description: String { name.lowercased() }

    /// Bytes per element for fixed-size types; nil for strings, resources, variants, packed int4 and unknown types.
    public var byteSize: Int? {
        switch self {
        case .bool, .int8, .uint8: return 1
        case .float16, .int16, .uint16, .bfloat16: return 2
        case .float32, .int32, .uint32: return 4
        case .float64, .int64, .uint64, .complex64: return 8
        case .complex128: return 16
        case .string, .resource, .variant, .int4, .unknown: return nil
        }
    }

    /// Encodes as the schema value.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Decodes from the schema value.
    public init(from decoder: Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int8.self))
    }
}

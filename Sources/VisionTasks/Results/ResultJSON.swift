import Foundation

/// The JSON form of a task result that every front end shares (the CLI's `result`, the server's
/// API): the result's `Codable` fields with keys sorted, so the text is the same from run to run.
public enum ResultJSON {
    /// A Foundation encoder with the shared settings (sorted keys, slashes not escaped); `encode`
    /// writes the same bytes faster.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` (a task result, or any `Encodable`) as the shared JSON: the bytes `makeEncoder()`
    /// writes, from a faster writer of our own (`ResultJSONWriter`).
    public static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        Data(try ResultJSONWriter.encode(value))
    }

    /// A number's text as the shared JSON writes it (its `description` without a trailing ".0"), so
    /// other formats of a result (the CLI's CSV) give the same values; nil for NaN and infinities.
    package static func numberText<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

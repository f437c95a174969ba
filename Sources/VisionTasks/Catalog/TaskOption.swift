import Foundation
import VisionErrors

// MARK: - Option types and values

/// How an option's value is written: the type the CLI, the server's query and the page read.
public enum TaskOptionType: String, Sendable {
    /// A whole number.
    case int
    /// A number.
    case float
    /// true or false (a CLI flag without a value).
    case bool
    /// Text.
    case string
    /// Comma-separated names.
    case list
}

/// An option's value in a form every front end can show: `null` for an option left unset.
public enum TaskOptionValue: Sendable, Equatable {
    /// A whole number (`numFaces`).
    case int(Int)
    /// A number (a confidence, a threshold).
    case float(Float)
    /// A switch (`outputFaceBlendshapes`).
    case bool(Bool)
    /// Text (a model file name, a locale).
    case string(String)
    /// Names (a category allowlist).
    case list([String])
    /// Unset: the model's own value (a classifier's score threshold) or none (a locale).
    case unset
}

/// A Swift type an option can have, with its text form (`--num-faces 2`, `?num-faces=2`).
public protocol TaskOptionValueType: Sendable {
    /// How the value is written.
    static var optionType: TaskOptionType { get }
    /// Reads the text form; nil when it is malformed.
    init?(optionText: String)
    /// The value for a front end.
    var optionValue: TaskOptionValue { get }
    /// The value as a number, for range checks (nil when it has none).
    var optionNumber: Double? { get }
}

// MARK: - Value types' text forms

extension Int: TaskOptionValueType {
    public static var optionType: TaskOptionType { .int }
    public init?(optionText: String) { self.init(optionText) }
    public var optionValue: TaskOptionValue { .int(self) }
    public var optionNumber: Double? { Double(self) }
}

extension Float: TaskOptionValueType {
    public static var optionType: TaskOptionType { .float }
    public init?(optionText: String) {
        guard let value = Float(optionText), value.isFinite else { return nil }
        self = value
    }
    public var optionValue: TaskOptionValue { .float(self) }
    public var optionNumber: Double? { Double(self) }
}

extension Bool: TaskOptionValueType {
    public static var optionType: TaskOptionType { .bool }
    public init?(optionText: String) {
        switch optionText {
        case "true", "1": self = true
        case "false", "0": self = false
        default: return nil
        }
    }
    public var optionValue: TaskOptionValue { .bool(self) }
    public var optionNumber: Double? { nil }
}

extension String: TaskOptionValueType {
    public static var optionType: TaskOptionType { .string }
    public init?(optionText: String) { self = optionText }
    public var optionValue: TaskOptionValue { .string(self) }
    public var optionNumber: Double? { nil }
}

extension Array: TaskOptionValueType where Element == String {
    public static var optionType: TaskOptionType { .list }
    /// Names trimmed of spaces, empty ones dropped ("" gives none).
    public init?(optionText: String) {
        self = optionText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    public var optionValue: TaskOptionValue { .list(self) }
    public var optionNumber: Double? { nil }
}

extension Optional: TaskOptionValueType where Wrapped: TaskOptionValueType {
    public static var optionType: TaskOptionType { Wrapped.optionType }
    public init?(optionText: String) {
        guard let value = Wrapped(optionText: optionText) else { return nil }
        self = .some(value)
    }
    public var optionValue: TaskOptionValue { map(\.optionValue) ?? .unset }
    public var optionNumber: Double? { flatMap(\.optionNumber) }
}

// MARK: - Task option

/// One option of a task, declared once: its CLI and query name, its Swift property, type, default,
/// range and help. The options class takes its default from here, the task checks the range from
/// here, and the CLI, the server, the page (`GET /api/v1/tasks`) and the docs are built from it.
public struct TaskOption: Sendable {
    /// The name on the command line (`--min-detection-confidence`) and in queries, kebab case.
    public let name: String
    /// The Swift property of the options class, as errors name it (`minDetectionConfidence`,
    /// `cannedGesturesClassifierOptions.maxResults`).
    public let property: String
    /// A short label for a settings panel.
    public let label: String
    /// One sentence of help.
    public let help: String
    /// How the value is written.
    public let type: TaskOptionType
    /// The value when the option is not given.
    public let defaultValue: TaskOptionValue
    /// The smallest allowed value of a number (nil: none).
    public let minimum: Double?
    /// The largest allowed value of a number (nil: none).
    public let maximum: Double?
    /// Other properties this option sets, which errors may name (one flag for two classifiers' locale).
    package let alsoSets: [String]
    /// When set, the value names a model file of this task (`face-detector`): a path on the command
    /// line; in the server, a name `GET /api/v1/models` offers for that task, never a client's path.
    public let modelOf: String?
    /// Whether text is a well-formed value of the option.
    private let parses: @Sendable (String) -> Bool
    /// Parses text and sets the value on an options object of the task's options class.
    private let applyText: @Sendable (String, AnyObject) throws -> Void
    /// Reads the value from an options object (nil when the object is of another class).
    private let read: @Sendable (AnyObject) -> TaskOptionValueType?

    /// Declares an option of `Options` held at `get`/`set`, with its default and range.
    package init<Options: AnyObject, Value: TaskOptionValueType>(
        _ name: String, property: String, label: String, help: String, default defaultValue: Value,
        minimum: Double? = nil, maximum: Double? = nil, alsoSets: [String] = [], modelOf: String? = nil,
        get: @escaping @Sendable (Options) -> Value, set: @escaping @Sendable (Options, Value) -> Void
    ) {
        self.name = name
        self.property = property
        self.label = label
        self.help = help
        self.type = Value.optionType
        self.defaultValue = defaultValue.optionValue
        self.minimum = minimum
        self.maximum = maximum
        self.alsoSets = alsoSets
        self.modelOf = modelOf
        parses = { Value(optionText: $0) != nil }
        applyText = { text, object in
            guard let value = Value(optionText: text) else {
                throw VisionTasksError.invalidOption(
                    name: name, reason: "must be \(Value.optionType.expected), got \"\(text)\"")
            }
            guard let options = object as? Options else { return }
            set(options, value)
        }
        read = { object in (object as? Options).map(get) }
    }

    /// Whether `text` is a well-formed value of the option (a number for a number, ...).
    package func accepts(_ text: String) -> Bool {
        parses(text)
    }

    /// Sets the option on `options` from its text form. Throws `invalidOption` naming the option
    /// (by `name`) when the text does not parse; the range is checked when the task is created.
    package func apply(text: String, to options: AnyObject) throws {
        try applyText(text, options)
    }

    /// Checks the option's value in `options` against its range: `invalidOption` naming `property`.
    package func validate(_ options: AnyObject) throws {
        guard let number = read(options)?.optionNumber else { return }
        try check(number, naming: property)
    }

    /// Checks a value in text form (one `accepts`) against the range before any task is made, as
    /// `validate` checks it in an options object: `invalidOption` naming `name`.
    package func validate(text: String) throws {
        guard type == .int || type == .float, let number = Double(text) else { return }
        try check(number, naming: name)
    }

    /// `invalidOption` naming `name` when `number` is outside the range.
    private func check(_ number: Double, naming name: String) throws {
        // `Int(exactly:)`: an Int.max given as text is 2^63 as a Double, which `Int(_:)` would trap on.
        let shown = type == .int ? Int(exactly: number).map(String.init) ?? String(number) : String(Float(number))
        switch (minimum, maximum) {
        case let (low?, high?) where !(number >= low && number <= high):
            throw VisionTasksError.invalidOption(
                name: name, reason: "must be in [\(Self.bound(low)), \(Self.bound(high))], got \(shown)")
        case let (low?, nil) where !(number >= low):
            throw VisionTasksError.invalidOption(
                name: name, reason: "must be at least \(Self.bound(low)), got \(shown)")
        case let (nil, high?) where !(number <= high):
            throw VisionTasksError.invalidOption(
                name: name, reason: "must be at most \(Self.bound(high)), got \(shown)")
        default:
            break
        }
    }

    /// The option's value in `options` (nil when `options` is of another options class).
    package func value(in options: AnyObject) -> TaskOptionValue? {
        read(options)?.optionValue
    }

    /// Whether an error naming `option` (a property path) is about this option.
    package func names(_ option: String) -> Bool {
        option == property || alsoSets.contains(option)
    }

    /// A bound as written in messages: 1 rather than 1.0.
    private static func bound(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension TaskOptionType {
    /// What a malformed value was expected to be, for messages: "a whole number", ...
    package var expected: String {
        switch self {
        case .int: return "a whole number"
        case .float: return "a number"
        case .bool: return "true or false"
        case .string, .list: return "text"
        }
    }
}

// MARK: - Declared options

/// An option declared with its Swift type, so that the options class's initializer takes its default
/// from the same declaration the front ends read (`FaceDetectorOptions.Declared`).
public struct DeclaredOption<Options: AnyObject, Value: TaskOptionValueType>: Sendable {
    /// The value when the option is not given.
    public let defaultValue: Value
    /// The option as every front end sees it.
    public let option: TaskOption
    /// Where the value is held in `Options`.
    package let keyPath: ReferenceWritableKeyPath<Options, Value> & Sendable

    /// Declares the option `name` (kebab case) held at `keyPath`; its Swift `property`, as errors name
    /// it, is `name` in camel case unless given (a test checks it is the property set); `modelOf` names
    /// the task whose model file the value is, if it is one.
    package init(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Options, Value> & Sendable, property: String? = nil,
        label: String, help: String, default defaultValue: Value,
        minimum: Double? = nil, maximum: Double? = nil, modelOf: String? = nil
    ) {
        self.defaultValue = defaultValue
        self.keyPath = keyPath
        option = TaskOption(
            name, property: property ?? Self.camelCase(name), label: label, help: help,
            default: defaultValue, minimum: minimum, maximum: maximum, modelOf: modelOf,
            get: { (options: Options) in options[keyPath: keyPath] },
            set: { (options: Options, value: Value) in options[keyPath: keyPath] = value })
    }

    /// `min-detection-confidence` as `minDetectionConfidence`.
    private static func camelCase(_ name: String) -> String {
        let words = name.split(separator: "-")
        return (words.prefix(1) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }).joined()
    }

    /// This option of an `Options` object held in an `Outer` options object (a gesture classifier's
    /// options inside the recognizer's), under `name` and `property`: `inner` reads the held object
    /// (nil: not set, the default applies) and `make` returns it, creating it when missing.
    package func held<Outer: AnyObject>(
        as name: String, property: String, label: String, help: String,
        inner: @escaping @Sendable (Outer) -> Options?,
        make: @escaping @Sendable (Outer) -> Options
    ) -> TaskOption {
        let (keyPath, defaultValue) = (self.keyPath, self.defaultValue)
        return TaskOption(
            name, property: property, label: label, help: help, default: defaultValue,
            minimum: option.minimum, maximum: option.maximum, modelOf: option.modelOf,
            get: { (outer: Outer) in inner(outer).map { $0[keyPath: keyPath] } ?? defaultValue },
            set: { (outer: Outer, value: Value) in make(outer)[keyPath: keyPath] = value })
    }
}

extension DeclaredOption where Value == Float {
    /// A threshold in 0...1 (a confidence or an overlap, IoU), 0.5 unless `default` says otherwise.
    package static func threshold(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Options, Float> & Sendable,
        label: String, help: String, default defaultValue: Float = 0.5
    ) -> Self {
        Self(name, keyPath, label: label, help: help, default: defaultValue, minimum: 0, maximum: 1)
    }
}

// MARK: - Text forms for the front ends

extension TaskOption {
    /// The allowed values as text: "0...1", "at least 1", "at most 8", or "" when unbounded.
    public var rangeText: String {
        switch (minimum, maximum) {
        case let (low?, high?): return "\(Self.bound(low))...\(Self.bound(high))"
        case let (low?, nil): return "at least \(Self.bound(low))"
        case let (nil, high?): return "at most \(Self.bound(high))"
        default: return ""
        }
    }

    /// The default as text: "0.5", "false", "none" for an empty list or text, "unset" for no value.
    public var defaultText: String { defaultValue.text }
}

extension TaskOptionValue {
    /// The value as text: "0.5", "false", "64,32", "none" for an empty list or text, "unset" for no value.
    public var text: String {
        switch self {
        case .int(let value): return String(value)
        case .float(let value): return String(value)
        case .bool(let value): return String(value)
        case .string(let value): return value.isEmpty ? "none" : value
        case .list(let value): return value.isEmpty ? "none" : value.joined(separator: ",")
        case .unset: return "unset"
        }
    }
}

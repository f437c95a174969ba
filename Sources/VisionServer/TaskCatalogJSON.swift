import Foundation
import VisionTasks

/// `GET /api/v1/tasks`: the library's description of every task the server runs, for clients and
/// the page's settings panel: `{"tasks": [{"name", "title", "summary", "outputs", "options": [...]}]}`.
/// Each option has `name` (the query parameter), `property`, `label`, `help`, `type` (int, float,
/// bool, string, list), `default` (null: unset), when bounded, `min` and `max`, and for a model file
/// `modelOf` (the task whose models in `GET /api/v1/models` it names); the base option
/// `threads` ends every list, with the server's own default.
package enum TaskCatalogJSON {
    /// The catalog, with `threadsDefault` as the default of `threads`.
    package static func encode(threadsDefault: Int) -> Data {
        let threads = BaseOptions.Declared.threads.option
        let tasks = TaskKind.allCases.map { kind in
            let description = kind.description
            let options =
                (description.options.map(Self.fields) + [
                    Self.fields(threads).merging(["default": .int(threadsDefault)]) { $1 }
                ])
                .map(JSONEnvelope.encode)
            return JSONEnvelope.encode([
                "name": .string(description.name), "title": .string(description.title),
                "summary": .string(description.summary),
                "outputs": .json(JSONEnvelope.array(description.outputs.map(JSONEnvelope.string))),
                "options": .json(JSONEnvelope.array(options)),
            ])
        }
        return JSONEnvelope.encode(["tasks": .json(JSONEnvelope.array(tasks))])
    }

    /// One option's fields (also those of the training options in `GET /api/v1/gesture-models`).
    static func fields(_ option: TaskOption) -> [String: JSONEnvelope.Value] {
        var fields: [String: JSONEnvelope.Value] = [
            "name": .string(option.name), "property": .string(option.property), "label": .string(option.label),
            "help": .string(option.help), "type": .string(option.type.rawValue), "default": value(option.defaultValue),
        ]
        if let minimum = option.minimum { fields["min"] = number(minimum) }
        if let maximum = option.maximum { fields["max"] = number(maximum) }
        if let modelOf = option.modelOf { fields["modelOf"] = .string(modelOf) }
        return fields
    }

    private static func value(_ value: TaskOptionValue) -> JSONEnvelope.Value {
        switch value {
        case .int(let number): return .int(number)
        case .float(let number): return (try? ResultJSON.encode(number)).map { .json($0) } ?? .null
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .string(text)
        case .list(let names): return .json(JSONEnvelope.array(names.map(JSONEnvelope.string)))
        case .unset: return .null
        }
    }

    private static func number(_ bound: Double) -> JSONEnvelope.Value {
        bound == bound.rounded() ? .int(Int(bound)) : (try? ResultJSON.encode(bound)).map { .json($0) } ?? .null
    }
}

import Foundation
import VisionTasks

/// A task's options as a request gives them (query parameters in the CLI's kebab-case names),
/// checked and typed; equal settings can share a task instance.
struct TaskSettings: Hashable, Sendable {
    /// The task.
    let task: TaskKind
    /// The model's file name in the models folder.
    let model: String
    /// Inference threads.
    let threads: Int
    /// The task options given, by name, already checked to parse.
    private let storedValues: [String: String]

    /// Reads `parameters` for `task` by its description: an unknown name or a malformed value is a
    /// 400, a model the catalog does not offer for the task (or for the task an option's model is
    /// of, `TaskOption.modelOf`) is a 404. `threads` defaults to
    /// `defaultThreads` (the server's workers already use the cores).
    init(task: TaskKind, parameters: [(String, String)], catalog: ModelCatalog, defaultThreads: Int) throws {
        self.task = task
        var model: String?
        var threads = defaultThreads
        var values: [String: String] = [:]
        let description = task.description
        let threadsOption = BaseOptions.Declared.threads.option
        for (name, value) in parameters {
            switch name {
            case "model":
                model = value
            case threadsOption.name:
                // The task checks the range (BaseOptions.numThreads) when it is made.
                guard let count = Int(optionText: value) else {
                    throw APIError(.badRequest, "threads must be \(threadsOption.type.expected), got \"\(value)\"")
                }
                threads = count
            default:
                let option = try Self.option(
                    name, value, in: description.options, besides: ["model", threadsOption.name],
                    of: task.rawValue)
                values[name] = try Self.text(of: option, value, catalog: catalog)
            }
        }
        self.model = try catalog.model(named: model, for: task)
        self.threads = threads
        self.storedValues = values
    }

    /// The option of `options` a query parameter `name` sets, its `value` checked to parse and to lie in
    /// the option's range: a 400 naming the known parameters (`besides` and the options') for an unknown
    /// name, the expected form for a malformed value, or the range. `subject` (a task, a training) names what the options are of.
    static func option(
        _ name: String, _ value: String, in options: [TaskOption], besides: [String],
        of subject: String
    ) throws -> TaskOption {
        guard let option = options.first(where: { $0.name == name }) else {
            let known = (besides + options.map(\.name)).joined(separator: ", ")
            throw APIError(.badRequest, "unknown option \"\(name)\" for \(subject) (known: \(known))")
        }
        guard option.accepts(value) else {
            throw APIError(.badRequest, "\(name) must be \(option.type.expected), got \"\(value)\"")
        }
        do {
            try option.validate(text: value)
        } catch VisionTasksError.invalidOption(_, let reason) {
            throw APIError(.badRequest, "\(name) \(reason)")
        }
        return option
    }

    /// The text the task gets for `option`: `value` itself, or for a model file option the path of
    /// the model `value` names among those the catalog offers for the option's task.
    private static func text(of option: TaskOption, _ value: String, catalog: ModelCatalog) throws -> String {
        guard let modelOf = option.modelOf else { return value }
        guard let task = TaskKind(rawValue: modelOf) else {
            throw APIError(.notFound, "\(option.name) takes a model of \(modelOf), a task this server does not run")
        }
        return catalog.path(of: try catalog.model(named: value, for: task))
    }

    /// The defaults for `task` with `model` (the catalog's trial loads).
    init(task: TaskKind, model: String) {
        self.task = task
        self.model = model
        self.threads = 1
        self.storedValues = [:]
    }

    /// The task options given, as `(name, text)` in name order.
    var values: [(name: String, text: String)] {
        storedValues.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

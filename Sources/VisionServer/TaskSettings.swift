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
    private let values: [String: String]

    /// Reads `parameters` for `task`: an unknown name or a malformed value is a 400, a model the
    /// catalog does not offer for the task is a 404.
    init(task: TaskKind, parameters: [(String, String)], catalog: ModelCatalog) throws {
        self.task = task
        var model: String?
        var threads = 1  // the workers, not threads per task, use the cores
        var values: [String: String] = [:]
        let kinds = task.optionKinds
        for (name, value) in parameters {
            switch name {
            case "model":
                model = value
            case "threads":
                // The task checks the range (BaseOptions.numThreads) when it is made.
                guard let count = Int(value) else {
                    throw APIError(.badRequest, "threads must be a whole number, got \"\(value)\"")
                }
                threads = count
            default:
                guard let kind = kinds[name] else {
                    let known = (["model", "threads"] + kinds.keys.sorted()).joined(separator: ", ")
                    throw APIError(.badRequest, "unknown option \"\(name)\" for \(task.rawValue) (known: \(known))")
                }
                try Self.check(value, kind: kind, name: name)
                values[name] = value
            }
        }
        self.model = try catalog.model(named: model, for: task)
        self.threads = threads
        self.values = values
    }

    /// The defaults for `task` with `model` (the catalog's trial loads).
    init(task: TaskKind, model: String) {
        self.task = task
        self.model = model
        self.threads = 1
        self.values = [:]
    }

    private static func check(_ value: String, kind: OptionKind, name: String) throws {
        switch kind {
        case .int:
            guard Int(value) != nil else { throw APIError(.badRequest, "\(name) must be a whole number, got \"\(value)\"") }
        case .float:
            guard let number = Float(value), number.isFinite else {
                throw APIError(.badRequest, "\(name) must be a number, got \"\(value)\"")
            }
        case .bool:
            guard ["true", "false", "1", "0"].contains(value) else {
                throw APIError(.badRequest, "\(name) must be true or false, got \"\(value)\"")
            }
        case .list:
            break
        }
    }

    func int(_ name: String, default fallback: Int) -> Int { values[name].flatMap { Int($0) } ?? fallback }
    func float(_ name: String, default fallback: Float) -> Float { values[name].flatMap { Float($0) } ?? fallback }
    func optionalFloat(_ name: String) -> Float? { values[name].flatMap { Float($0) } }
    func bool(_ name: String) -> Bool { values[name] == "true" || values[name] == "1" }
    func list(_ name: String) -> [String] { ClassifierOptions.categoryNames(commaSeparated: values[name]) }
}

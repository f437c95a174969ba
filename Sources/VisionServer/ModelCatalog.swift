import Foundation
import VisionTasks

/// The models the server offers, by task: every `.task`/`.tflite` file directly in the models
/// folder that the task loads. Requests choose a model by file name from this list only, so no
/// client-given text ever reaches the file system. A value: a model trained while the server runs
/// makes a new catalog (`adding`), which the server swaps in (`CatalogStore`).
public struct ModelCatalog: Sendable {
    /// The models folder.
    public let directory: String
    /// File names each task loads, the default first.
    public let models: [TaskKind: [String]]

    /// Scans `directory`, trying each model file with each task (image mode). Throws
    /// `ServerError.noModels` when the folder cannot be read or no task loads any file in it.
    public init(directory: String) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasSuffix(".task") || $0.hasSuffix(".tflite") }.sorted()
        } catch {
            throw ServerError.noModels("cannot list the models folder \(directory): \(error.localizedDescription)")
        }
        var models: [TaskKind: [String]] = [:]
        for task in TaskKind.allCases {
            models[task] = Self.ordered(
                names.filter { (try? Self.load($0, in: directory, as: task).get()) != nil }, for: task)
        }
        guard models.values.contains(where: { !$0.isEmpty }) else {
            throw ServerError.noModels("no .task or .tflite file in \(directory) loads as any task (run `make models`)")
        }
        self.directory = directory
        self.models = models
    }

    /// A catalog of `models` in `directory`, as given (`adding` makes one; tests too, without a scan).
    init(directory: String, models: [TaskKind: [String]]) {
        self.directory = directory
        self.models = models
    }

    /// Whether model file `name` in `directory` loads as `task` (image mode, the task's defaults): the
    /// scan's test, and a trained model's before it is offered; the failure is the task's error.
    static func load(_ name: String, in directory: String, as task: TaskKind) -> Result<Void, any Error> {
        Result {
            _ = try ServedTask.make(
                TaskSettings(task: task, model: name), modelPath: directory + "/" + name, mode: .image, live: nil)
        }
    }

    /// This catalog with model file `name` offered to `tasks` as well (its place in each list as a scan would give it).
    func adding(_ name: String, for tasks: [TaskKind]) -> ModelCatalog {
        var models = self.models
        for task in tasks where !(models[task] ?? []).contains(name) {
            models[task] = Self.ordered((models[task] ?? []) + [name], for: task)
        }
        return ModelCatalog(directory: directory, models: models)
    }

    /// `names` as a task's list: its preferred models first (the default), then the others by name.
    private static func ordered(_ names: [String], for task: TaskKind) -> [String] {
        let preferred = task.description.preferredModels.filter(names.contains)
        return preferred + names.filter { !preferred.contains($0) }.sorted()
    }

    /// The file name to use: `name` if the task loads it, the task's default when `name` is nil;
    /// a name not offered is a 404, so is a task with no model.
    func model(named name: String?, for task: TaskKind) throws -> String {
        let offered = models[task] ?? []
        if let name {
            guard offered.contains(name) else {
                throw APIError(
                    .notFound,
                    "no model named \"\(name)\" for \(task.rawValue) (offered: \(offered.joined(separator: ", ")))")
            }
            return name
        }
        guard let first = offered.first else {
            throw APIError(.notFound, "the models folder has no model for \(task.rawValue)")
        }
        return first
    }

    /// The path of an offered model file.
    func path(of name: String) -> String { directory + "/" + name }
}

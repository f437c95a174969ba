import Foundation
import VisionTasks

/// The models the server offers, by task: every `.task`/`.tflite` file directly in the models
/// folder that the task loads. Requests choose a model by file name from this list only, so no
/// client-given text ever reaches the file system.
public struct ModelCatalog: Sendable {
    /// The models folder.
    public let directory: String
    /// File names each task loads, the default first.
    public let models: [TaskKind: [String]]

    /// Scans `directory`, trying each model file with each task (image mode). Throws
    /// `ServerError.noModels` when the folder cannot be read or no task loads any file in it.
    public init(directory: String) throws {
        self.directory = directory
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasSuffix(".task") || $0.hasSuffix(".tflite") }.sorted()
        } catch {
            throw ServerError.noModels("cannot list the models folder \(directory): \(error.localizedDescription)")
        }
        var models: [TaskKind: [String]] = [:]
        for task in TaskKind.allCases {
            let loading = names.filter { name in
                let settings = TaskSettings(task: task, model: name)
                return (try? ServedTask.make(settings, modelPath: directory + "/" + name, mode: .image, live: nil)) != nil
            }
            let preferred = task.description.preferredModels.filter(loading.contains)
            models[task] = preferred + loading.filter { !preferred.contains($0) }
        }
        guard models.values.contains(where: { !$0.isEmpty }) else {
            throw ServerError.noModels("no .task or .tflite file in \(directory) loads as any task (run `make models`)")
        }
        self.models = models
    }

    /// The file name to use: `name` if the task loads it, the task's default when `name` is nil;
    /// a name not offered is a 404, so is a task with no model.
    func model(named name: String?, for task: TaskKind) throws -> String {
        let offered = models[task] ?? []
        if let name {
            guard offered.contains(name) else {
                throw APIError(.notFound, "no model named \"\(name)\" for \(task.rawValue) (offered: \(offered.joined(separator: ", ")))")
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

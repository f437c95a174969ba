import Foundation
import VisionTasks

/// A task the server runs, by the name its URLs use (`/api/v1/face-landmarker`): the library's
/// description of it and how to make an instance. The list is the library's (`describedTasks`).
public struct TaskKind: Sendable, Hashable {
    /// The task's name, options and outputs.
    public let description: TaskDescription
    /// Makes an instance for settings, a model path and a running mode (live replies in live-stream mode).
    let make: @Sendable (TaskSettings, String, RunningMode, LiveReplies?) throws -> ServedTask

    /// The name in URLs: `face-landmarker`.
    public var rawValue: String { description.name }

    /// Every task, in the library's order.
    public static let allCases: [TaskKind] = describedTasks.map { TaskKind($0) }

    /// The task named `rawValue`, if there is one.
    public init?(rawValue: String) {
        guard let kind = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = kind
    }

    private init<Task: DescribedTask>(_ task: Task.Type) {
        description = Task.taskDescription
        make = { settings, path, mode, live in
            try ServedTask.make(Task.self, settings, modelPath: path, mode: mode, live: live)
        }
    }

    public static func == (a: TaskKind, b: TaskKind) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
